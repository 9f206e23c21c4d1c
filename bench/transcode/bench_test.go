// Package bench is `make bench-transcode`: a 1-minute 1080p source (moving
// test pattern and a tone, made with ffmpeg's lavfi sources) through the
// media activities as the workflow runs them, with the production preset:
// probe, the 360p, 720p and 1080p HLS renditions one after another, poster
// and thumbnails. It reports seconds of video per second of wall time,
// for the whole ladder and per rendition.
package bench

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/testsuite"

	"github.com/vetclube/vetclube/core/media"
	"github.com/vetclube/vetclube/workflows"
)

// store keeps what the activities hand over in memory; the real store's
// cost (moving files into storage, a few row updates) is not measured.
type store struct {
	original string
	mu       sync.Mutex
	done     []string
}

func (s *store) Source(context.Context, string) (media.Source, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return media.Source{Path: s.original, Demuxer: "mov", DoneRenditions: append([]string(nil), s.done...)}, nil
}
func (s *store) SetProbe(context.Context, string, media.Probe) error    { return nil }
func (s *store) SetProgress(context.Context, string, string, int) error { return nil }
func (s *store) SaveRendition(_ context.Context, _ string, r media.RenditionResult, _ string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.done = append(s.done, r.Name)
	return nil
}
func (s *store) SaveImages(context.Context, string, string, []string) error { return nil }
func (s *store) SaveSubtitles(context.Context, string, []media.SubtitleResult, string) error {
	return nil
}
func (s *store) Ready(context.Context, string) error          { return nil }
func (s *store) Failed(context.Context, string, string) error { return nil }

func BenchmarkTranscode1080p(b *testing.B) {
	const seconds = 60
	src := filepath.Join(b.TempDir(), "source.mp4")
	gen := exec.Command("ffmpeg", "-hide_banner", "-loglevel", "error", "-y",
		"-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=25", "-f", "lavfi", "-i", "sine=frequency=440",
		"-t", fmt.Sprint(seconds), "-c:v", "libx264", "-preset", "ultrafast", "-crf", "18", "-c:a", "aac", src)
	if out, err := gen.CombinedOutput(); err != nil {
		b.Fatalf("make source: %v\n%s", err, out)
	}
	preset := os.Getenv("BENCH_TRANSCODE_PRESET") // the activities' default (veryfast) when empty
	var s testsuite.WorkflowTestSuite
	b.ResetTimer()
	for range b.N {
		st := &store{original: src}
		acts := &workflows.MediaActivities{Store: st, WorkDir: b.TempDir(), Preset: preset}
		env := s.NewTestActivityEnvironment()
		env.RegisterActivity(acts)
		started := time.Now()
		v, err := env.ExecuteActivity(acts.ProbeMedia, "bench")
		if err != nil {
			b.Fatal(err)
		}
		var plan workflows.MediaPlan
		if err := v.Get(&plan); err != nil {
			b.Fatal(err)
		}
		for _, r := range workflows.MediaLadder(plan.Probe.Width, plan.Probe.Height) {
			t0 := time.Now()
			if _, err := env.ExecuteActivity(acts.TranscodeRendition, workflows.TranscodeInput{AssetID: "bench", Rendition: r,
				DurationSeconds: plan.Probe.DurationSeconds, HasAudio: plan.Probe.HasAudio}); err != nil {
				b.Fatal(err)
			}
			took := time.Since(t0)
			b.ReportMetric(plan.Probe.DurationSeconds/took.Seconds(), "video-s/s-"+r.Name)
			b.Logf("%s: %.0f s of video in %v (%.2f× real time)", r.Name, plan.Probe.DurationSeconds, took.Round(time.Millisecond), plan.Probe.DurationSeconds/took.Seconds())
		}
		if _, err := env.ExecuteActivity(acts.MakeMediaImages, workflows.MediaImagesInput{AssetID: "bench", DurationSeconds: plan.Probe.DurationSeconds}); err != nil {
			b.Fatal(err)
		}
		took := time.Since(started)
		b.ReportMetric(plan.Probe.DurationSeconds/took.Seconds(), "video-s/s")
		b.Logf("whole ladder with images: %.0f s of video in %v (%.2f× real time)", plan.Probe.DurationSeconds, took.Round(time.Millisecond), plan.Probe.DurationSeconds/took.Seconds())
	}
}
