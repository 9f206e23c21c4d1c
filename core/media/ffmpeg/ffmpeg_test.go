package ffmpeg_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
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
	info, err := ffmpeg.Probe(context.Background(), "ffprobe", rotated)
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
	if _, err := ffmpeg.Probe(context.Background(), "ffprobe", junk); !errors.Is(err, ffmpeg.ErrUnreadable) {
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
