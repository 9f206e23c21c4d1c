package workflows_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"

	"github.com/vetclube/vetclube/workflows"
)

// mediaWorkerEnv makes the test binary a standalone media worker (on a
// fileMediaStore in MEDIA_STORE_DIR), so a test can kill -9 it in the
// middle of a transcode. It is checked in init, before TestMain.
const mediaWorkerEnv = "VETCLUBE_E2E_MEDIA_WORKER"

func init() {
	if os.Getenv(mediaWorkerEnv) != "1" {
		return
	}
	if err := runMediaWorkerProcess(); err != nil {
		fmt.Fprintln(os.Stderr, "media worker process:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

func runMediaWorkerProcess() error {
	ctx := context.Background()
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	c, err := workflows.Dial(ctx, os.Getenv("E2E_TEMPORAL_ADDRESS"), "default", log)
	if err != nil {
		return err
	}
	store := &fileMediaStore{Dir: os.Getenv("MEDIA_STORE_DIR"), Original: os.Getenv("MEDIA_ORIGINAL")}
	w := workflows.NewMediaWorker(c, &workflows.MediaActivities{Store: store, WorkDir: os.Getenv("MEDIA_WORK_DIR"), Preset: os.Getenv("MEDIA_PRESET")})
	if err := w.Start(); err != nil {
		return err
	}
	fmt.Println("worker ready")
	select {}
}

// transcodeAttempts reads, from the workflow's history, how many times the
// server started each rendition's TranscodeRendition activity (a retried
// activity's started event carries its last attempt number).
func transcodeAttempts(t *testing.T, c client.Client, id string) map[string]int {
	t.Helper()
	names := map[int64]string{}
	out := map[string]int{}
	it := c.GetWorkflowHistory(context.Background(), id, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		e, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		if a := e.GetActivityTaskScheduledEventAttributes(); a != nil && a.GetActivityType().GetName() == "TranscodeRendition" {
			var in workflows.TranscodeInput
			if err := converter.GetDefaultDataConverter().FromPayloads(a.GetInput(), &in); err != nil {
				t.Fatal(err)
			}
			names[e.GetEventId()] = in.Rendition.Name
		}
		if a := e.GetActivityTaskStartedEventAttributes(); a != nil {
			if n, ok := names[a.GetScheduledEventId()]; ok {
				out[n] += int(a.GetAttempt())
			}
		}
	}
	return out
}

// ffmpegRunningIn reports whether an ffmpeg process writes under dir.
func ffmpegRunningIn(dir string) bool {
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err == nil && strings.HasPrefix(filepath.Base(string(b[:max(0, strings.IndexByte(string(b), 0))])), "ffmpeg") && strings.Contains(string(b), dir) {
			return true
		}
	}
	return false
}

// TestE2EMediaWorkerKilledMidTranscode: on the embedded Temporal server, a
// media worker process is killed (SIGKILL) while it transcodes the second
// rendition of a 720p video; its ffmpeg dies with it. A new worker process
// takes over after the heartbeat timeout and the asset ends ready with
// both renditions, only the one in flight transcoded twice. Starting the
// same attempt again runs nothing.
func TestE2EMediaWorkerKilledMidTranscode(t *testing.T) {
	dev := devServer(t, "")
	ctx := context.Background()
	c, err := workflows.Dial(ctx, dev.Addr, "default", slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()

	src := filepath.Join(t.TempDir(), "aula.mp4")
	makeVideo(t, src, 1280, 720, 10)
	store := newFileMediaStore(t, src)
	work := t.TempDir()
	env := []string{mediaWorkerEnv + "=1", "MEDIA_STORE_DIR=" + store.Dir, "MEDIA_ORIGINAL=" + src,
		"MEDIA_WORK_DIR=" + work, "MEDIA_PRESET=veryfast"}
	first := startWorkerProcess(t, "", dev.Addr, env...)

	proc := workflows.MediaProcessing{Client: c}
	if err := proc.Start(ctx, "k1", 1); err != nil {
		t.Fatal(err)
	}
	// Kill the worker once the 720p rendition is under way.
	eventually(t, 90*time.Second, "720p transcode in progress", func() bool {
		for _, c := range store.calls(t) {
			if c.Op == "progress" && c.Rendition == "720p" && c.Percent >= 5 {
				return true
			}
		}
		return false
	})
	if !ffmpegRunningIn(work) {
		t.Fatal("no ffmpeg found transcoding under the work dir")
	}
	if err := first.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = first.Wait()
	killedAt := time.Now()
	eventually(t, 5*time.Second, "the killed worker's ffmpeg to end", func() bool { return !ffmpegRunningIn(work) })
	for _, c := range store.calls(t) {
		if c.Op == "rendition" && c.Rendition == "720p" {
			t.Fatal("the 720p rendition finished before the worker was killed; nothing was tested")
		}
	}

	startWorkerProcess(t, "", dev.Addr, env...)
	waitCtx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	if err := c.GetWorkflow(ctx, workflows.MediaWorkflowID("k1", 1), "").Get(waitCtx, nil); err != nil {
		t.Fatalf("workflow: %v", err)
	}
	t.Logf("done %v after the kill", time.Since(killedAt).Round(time.Second))

	// Runs per rendition, as seen by the store: each run writes its
	// progress from its own worker process.
	runs := map[string]map[int]bool{}
	var saved, ops []string
	for _, c := range store.calls(t) {
		switch c.Op {
		case "progress":
			if runs[c.Rendition] == nil {
				runs[c.Rendition] = map[int]bool{}
			}
			runs[c.Rendition][c.PID] = true
		case "rendition":
			saved = append(saved, c.Rendition)
		default:
			ops = append(ops, c.Op)
		}
	}
	if len(runs["360p"]) != 1 || len(runs["720p"]) != 2 {
		t.Errorf("worker processes per rendition: 360p %d, 720p %d; want 1 and 2", len(runs["360p"]), len(runs["720p"]))
	}
	if got := transcodeAttempts(t, c, workflows.MediaWorkflowID("k1", 1)); got["360p"] != 1 || got["720p"] != 2 {
		t.Errorf("TranscodeRendition attempts %v, want 360p once and 720p twice", got)
	}
	if !slices.Equal(saved, []string{"360p", "720p"}) {
		t.Errorf("renditions saved %v", saved)
	}
	if !slices.Equal(ops, []string{"probe", "images", "ready"}) {
		t.Errorf("store calls %v", ops)
	}
	master := ffprobeJSON(t, filepath.Join(store.hlsDir(), "master.m3u8"))
	var heights []int
	for _, s := range master.Streams {
		if s.CodecType == "video" {
			heights = append(heights, s.Height)
		}
	}
	slices.Sort(heights)
	if !slices.Equal(heights, []int{360, 720}) {
		t.Errorf("master playlist heights %v", heights)
	}
	if left, _ := os.ReadDir(work); len(left) > 1 {
		// The killed run's directory may stay (its process had no chance
		// to clean up); every finished step removes its own.
		t.Errorf("work dir holds %d entries", len(left))
	}

	// The same attempt started again is refused by its id and runs nothing.
	if err := proc.Start(ctx, "k1", 1); err != nil {
		t.Fatalf("second start: %v", err)
	}
	desc, err := c.DescribeWorkflowExecution(ctx, workflows.MediaWorkflowID("k1", 1), "")
	if err != nil {
		t.Fatal(err)
	}
	if st := desc.GetWorkflowExecutionInfo().GetStatus(); st != enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED {
		t.Errorf("after a second start the workflow is %v", st)
	}
}
