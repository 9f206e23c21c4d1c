package ffmpeg_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core/media/ffmpeg"
)

// TestProbeRotatedPhoneVideo: a landscape-coded video with a 90° display
// rotation (as phones record portrait) is reported at its displayed size.
func TestProbeRotatedPhoneVideo(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain.mp4")
	rotated := filepath.Join(dir, "rotated.mp4")
	if out, err := exec.Command("ffmpeg", "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25",
		"-t", "1", "-c:v", "libx264", "-preset", "ultrafast", plain).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if out, err := exec.Command("ffmpeg", "-hide_banner", "-loglevel", "error", "-i", plain, "-c", "copy",
		"-metadata:s:v:0", "rotate=90", rotated).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	info, err := ffmpeg.Probe(context.Background(), "ffprobe", "mov", rotated)
	if err != nil {
		t.Fatal(err)
	}
	v, ok := info.Video()
	if !ok {
		t.Fatal("no video stream")
	}
	if w, h := v.DisplaySize(); w != 180 || h != 320 || v.Width != 320 {
		t.Errorf("coded %dx%d rotation %d displayed %dx%d, want 180x320", v.Width, v.Height, v.Rotation, w, h)
	}
	if info.HasAudio() || info.DurationSeconds < 0.9 || info.DurationSeconds > 1.1 {
		t.Errorf("info %+v", info)
	}
}

// TestProbeUnreadable: bytes that are no media give ErrUnreadable.
func TestProbeUnreadable(t *testing.T) {
	junk := filepath.Join(t.TempDir(), "x.mp4")
	if err := os.WriteFile(junk, []byte("not a video at all"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ffmpeg.Probe(context.Background(), "ffprobe", "mov", junk); !errors.Is(err, ffmpeg.ErrUnreadable) {
		t.Errorf("err %v, want ErrUnreadable", err)
	}
}

// TestRunReportsProgressAndStopsOnCancel: an endless encode reports
// growing output times and is killed promptly when its context ends.
func TestRunReportsProgressAndStopsOnCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var last time.Duration
	var reports int
	done := make(chan error, 1)
	go func() {
		done <- ffmpeg.Run(ctx, "ffmpeg", []string{"-re", "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=25", "-f", "null", "-"}, func(d time.Duration) {
			if d < last {
				t.Errorf("progress went back: %v after %v", d, last)
			}
			last = d
			reports++
			if d >= 1500*time.Millisecond {
				cancel()
			}
		})
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err %v, want context.Canceled", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("ffmpeg was not stopped")
	}
	if reports < 2 || last < 1500*time.Millisecond {
		t.Errorf("%d reports, last %v", reports, last)
	}
}

// TestRunFailureCarriesFFmpegsReason: a failed run says why.
func TestRunFailureCarriesFFmpegsReason(t *testing.T) {
	err := ffmpeg.Run(context.Background(), "ffmpeg", []string{"-i", filepath.Join(t.TempDir(), "missing.mp4"), "-f", "null", "-"}, nil)
	var fe *ffmpeg.ExitError
	if !errors.As(err, &fe) || fe.Message != "No such file or directory" {
		t.Fatalf("err %v", err)
	}
	t.Logf("ffmpeg said: %s", fe.Message)
}

// A DASH manifest whose first bytes imitate an mp4's ftyp box, naming
// another file as its media, is read as what its sniffed container says
// (mov): ffprobe refuses it and never opens the other file, which a probe
// that guessed the demuxer from the bytes would read and report.
func TestProbeNeverFollowsAManifestToAnotherFile(t *testing.T) {
	dir := t.TempDir()
	secret := filepath.Join(dir, "segredo.mp4")
	if out, err := exec.Command("ffmpeg", "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=10",
		"-t", "1", "-pix_fmt", "yuv420p", "-c:v", "libx264", "-preset", "ultrafast", secret).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	manifest := filepath.Join(dir, "aula.mp4")
	mpd := `<!--ftypjp2 -->
<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT1S" minBufferTime="PT1S" profiles="urn:mpeg:dash:profile:isoff-on-demand:2011">
<Period><AdaptationSet mimeType="video/mp4"><Representation id="1" bandwidth="100000" width="160" height="120"><BaseURL>segredo.mp4</BaseURL></Representation></AdaptationSet></Period>
</MPD>
`
	if err := os.WriteFile(manifest, []byte(mpd), 0o644); err != nil {
		t.Fatal(err)
	}
	// The secret's access time tells whether anything read it; relatime
	// updates it only when it is older than its modification, so it is set
	// back first.
	old := time.Now().Add(-48 * time.Hour)
	if err := os.Chtimes(secret, old, time.Now()); err != nil {
		t.Fatal(err)
	}
	info, err := ffmpeg.Probe(context.Background(), "ffprobe", "mov", manifest)
	if !errors.Is(err, ffmpeg.ErrUnreadable) {
		t.Fatalf("probe of the manifest: %+v, %v; want ErrUnreadable", info, err)
	}
	if st, err := os.Stat(secret); err != nil || accessTime(st).After(old.Add(time.Hour)) {
		t.Errorf("the other file was read (atime %v)", accessTime(st))
	}
	if _, err := ffmpeg.Probe(context.Background(), "ffprobe", "dash", manifest); !errors.Is(err, ffmpeg.ErrDemuxer) {
		t.Errorf("a demuxer other than mov or matroska: %v", err)
	}
	in, err := ffmpeg.Input("matroska", "/x/a.mkv")
	if err != nil || strings.Join(in, " ") != "-f matroska -protocol_whitelist file -i file:/x/a.mkv" {
		t.Errorf("input args %q %v", in, err)
	}
}
