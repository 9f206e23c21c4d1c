package workflows_test

import (
	"context"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core/media"
	"github.com/vetclube/vetclube/workflows"
)

// encode writes a silent test video with ffmpeg's lavfi source.
func encode(t *testing.T, path, src string, seconds float64, extra ...string) {
	t.Helper()
	args := append([]string{"-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", src,
		"-t", strconv.FormatFloat(seconds, 'f', 3, 64), "-pix_fmt", "yuv420p", "-c:v", "libx264", "-preset", "ultrafast"}, extra...)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if out, err := exec.CommandContext(ctx, "ffmpeg", append(args, path)...).CombinedOutput(); err != nil {
		t.Fatalf("make test video: %v\n%s", err, out)
	}
}

// A few kilobytes claiming twenty minutes, a source at 240 frames per
// second and one wider than 8K are refused by the probe with a pt-BR
// reason, before anything is encoded, and never retried.
func TestMediaWorkflowRefusesWhatNoVideoShouldClaim(t *testing.T) {
	dir := t.TempDir()
	sparse := filepath.Join(dir, "vinte-minutos.mp4")
	encode(t, sparse, "color=c=black:size=64x64:rate=1", 20*60, "-crf", "51")
	fast := filepath.Join(dir, "rapido.mp4")
	encode(t, fast, "testsrc2=size=64x64:rate=240", 1)
	wide := filepath.Join(dir, "largo.mp4")
	encode(t, wide, "color=c=blue:size=7700x16:rate=25", 0.2)
	for _, tc := range []struct{ file, reason string }{
		{sparse, "O arquivo é pequeno demais para a duração que declara (20min): ele parece corrompido ou adulterado."},
		{fast, "A taxa de quadros do vídeo (240 por segundo) passa do limite de 120."},
		{wide, "A resolução do vídeo (7700×16) passa do limite de 7680×4320."},
	} {
		t.Run(filepath.Base(tc.file), func(t *testing.T) {
			store := newFileMediaStore(t, tc.file)
			env := newMediaEnv(t, &workflows.MediaActivities{Store: store, WorkDir: t.TempDir(), Preset: "ultrafast"})
			env.ExecuteWorkflow(workflows.ProcessMediaWorkflow, "bomba", 1)
			if !env.IsWorkflowCompleted() || env.GetWorkflowError() != nil {
				t.Fatalf("completed=%v err=%v", env.IsWorkflowCompleted(), env.GetWorkflowError())
			}
			var ops []string
			var reason string
			for _, c := range store.calls(t) {
				ops = append(ops, c.Op)
				reason += c.Reason
			}
			if !slices.Equal(ops, []string{"failed"}) || reason != tc.reason {
				t.Errorf("store calls %v reason %q, want only failed %q", ops, reason, tc.reason)
			}
		})
	}
}

// Renditions never carry more frames per second than OutputFrameRate.
func TestMediaRenditionsCapTheFrameRate(t *testing.T) {
	src := filepath.Join(t.TempDir(), "cem-quadros.mp4")
	encode(t, src, "testsrc2=size=320x240:rate=100", 1)
	store := newFileMediaStore(t, src)
	env := newMediaEnv(t, &workflows.MediaActivities{Store: store, WorkDir: t.TempDir(), Preset: "ultrafast"})
	env.ExecuteWorkflow(workflows.ProcessMediaWorkflow, "rapido", 1)
	if !env.IsWorkflowCompleted() || env.GetWorkflowError() != nil {
		t.Fatalf("completed=%v err=%v", env.IsWorkflowCompleted(), env.GetWorkflowError())
	}
	seg := filepath.Join(store.hlsDir(), "360p", "seg_00000.ts")
	out, err := exec.Command("ffprobe", "-v", "error", "-select_streams", "v:0", "-count_frames", "-show_entries", "stream=nb_read_frames",
		"-of", "csv=p=0", seg).Output()
	if err != nil {
		t.Fatalf("ffprobe %s: %v", seg, err)
	}
	// A couple of frames of slack: the muxer may repeat the edge frames.
	frames, err := strconv.Atoi(strings.Fields(string(out) + " x")[0])
	if err != nil || frames == 0 || frames > media.OutputFrameRate+5 {
		t.Errorf("one second of 100 fps became %q frames, want at most about %d", out, media.OutputFrameRate)
	}
}
