package workflows_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/testsuite"

	"github.com/vetclube/vetclube/workflows"
)

// writeTree makes dir/<rel> files and sets everything in dir to at.
func writeTree(t *testing.T, dir string, at time.Time, rels ...string) {
	t.Helper()
	for _, rel := range rels {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o750); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	err := filepath.Walk(dir, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Chtimes(p, at, at)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestSweepMediaWorkDirRemovesStaleLeftoversOnly(t *testing.T) {
	work := t.TempDir()
	old := time.Now().Add(-2 * time.Hour)
	// A worker killed mid-transcode: nothing written for two hours.
	killed := filepath.Join(work, "media-4b0e0c1e-2d57-4a43-9a54-3f1f0c2b8e11-720p-123")
	writeTree(t, killed, old, "720p/index.m3u8", "720p/seg_00000.ts")
	// An old directory in which a segment was just written is a step still
	// running (in this process or another one sharing the folder).
	busy := filepath.Join(work, "media-4b0e0c1e-2d57-4a43-9a54-3f1f0c2b8e11-360p-456")
	writeTree(t, busy, old, "360p/seg_00000.ts")
	writeTree(t, filepath.Join(busy, "360p", "fresh"), time.Now(), "seg_00001.ts")
	// What is not a step directory is never touched.
	other := filepath.Join(work, "notas")
	writeTree(t, other, old, "a.txt")
	file := filepath.Join(work, "media-solto.txt")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(file, old, old); err != nil {
		t.Fatal(err)
	}

	acts := &workflows.MediaActivities{WorkDir: work}
	n, err := workflows.SweepMediaWorkDir(acts, workflows.MediaWorkStaleAfter)
	if err != nil {
		t.Fatal(err)
	}
	if n != 1 {
		t.Errorf("removed %d directories, want 1", n)
	}
	if _, err := os.Stat(killed); !os.IsNotExist(err) {
		t.Errorf("leftover of a killed worker remains: %v", err)
	}
	for _, p := range []string{busy, other, file} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s was removed: %v", filepath.Base(p), err)
		}
	}
	// Without a WorkDir of its own the worker uses the shared temp folder,
	// which is never swept.
	if n, err := workflows.SweepMediaWorkDir(&workflows.MediaActivities{}, 0); n != 0 || err != nil {
		t.Errorf("sweep without WorkDir: %d, %v", n, err)
	}
}

// TestSweepMediaWorkDirKeepsTheDirectoryOfARunningStep sweeps with no age
// limit while a transcode runs: only the in-use record protects its
// directory, and the transcode must still succeed.
func TestSweepMediaWorkDirKeepsTheDirectoryOfARunningStep(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	seconds := 20.0
	for try := 0; ; try++ {
		src := filepath.Join(t.TempDir(), "aula.mp4")
		makeVideo(t, src, 640, 360, seconds)
		store := newFileMediaStore(t, src)
		work := t.TempDir()
		leftover := filepath.Join(work, "media-00000000-0000-4000-8000-000000000000-360p-789")
		writeTree(t, leftover, time.Now().Add(-time.Minute), "360p/seg_00000.ts")
		acts := &workflows.MediaActivities{Store: store, WorkDir: work, Preset: "slow"}
		env := s.NewTestActivityEnvironment()
		env.RegisterActivity(acts)

		done := make(chan error, 1)
		go func() {
			_, err := env.ExecuteActivity(acts.TranscodeRendition, workflows.TranscodeInput{AssetID: "p1",
				Rendition: workflows.MediaLadder(640, 360)[0], DurationSeconds: seconds, HasAudio: true})
			done <- err
		}()
		var running string
		var sweepErr error
		swept := -1
	wait:
		for {
			select {
			case err := <-done:
				if err != nil {
					t.Fatal(err)
				}
				break wait
			case <-time.After(20 * time.Millisecond):
			}
			entries, _ := os.ReadDir(work)
			for _, e := range entries {
				if strings.HasPrefix(e.Name(), "media-p1-360p-") {
					running = filepath.Join(work, e.Name())
				}
			}
			if running != "" {
				swept, sweepErr = workflows.SweepMediaWorkDir(acts, 0)
				if err := <-done; err != nil {
					t.Fatalf("transcode after the sweep: %v", err)
				}
				break wait
			}
		}
		if running == "" {
			if try == 4 {
				t.Fatalf("a %.0f s source transcodes too fast to catch", seconds)
			}
			seconds *= 2
			continue
		}
		if sweepErr != nil || swept != 1 {
			t.Errorf("sweep during the transcode removed %d (%v), want only the leftover", swept, sweepErr)
		}
		if _, err := os.Stat(leftover); !os.IsNotExist(err) {
			t.Errorf("leftover not in use remains: %v", err)
		}
		var saved bool
		for _, c := range store.calls(t) {
			saved = saved || c.Op == "rendition"
		}
		if !saved {
			t.Errorf("the rendition was not saved")
		}
		// The step removes its own directory when it ends.
		if _, err := os.Stat(running); !os.IsNotExist(err) {
			t.Errorf("step directory remains after the step: %v", err)
		}
		return
	}
}
