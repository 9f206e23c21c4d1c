package workflows_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/testsuite"

	"github.com/vetclube/vetclube/core/media"
	"github.com/vetclube/vetclube/workflows"
)

// fileMediaStore is a test media.ProcessingStore that keeps everything in one
// directory and appends every call, with its time, to calls.jsonl. The
// real store (core/media, its database rows and storage keys) has its own
// tests; this one lets the processing be tested on its own, and because
// its whole state is on disk a worker in another process can use it too
// (the kill -9 test).
type fileMediaStore struct {
	Dir      string
	Original string
	mu       sync.Mutex
}

type mediaCall struct {
	Op        string                 `json:"op"`
	At        time.Time              `json:"at"`
	PID       int                    `json:"pid"`
	Rendition string                 `json:"rendition,omitempty"`
	Percent   int                    `json:"percent,omitempty"`
	Result    *media.RenditionResult `json:"result,omitempty"`
	Probe     *media.Probe           `json:"probe,omitempty"`
	Tracks    []media.SubtitleResult `json:"tracks,omitempty"`
	Reason    string                 `json:"reason,omitempty"`
}

var _ media.ProcessingStore = (*fileMediaStore)(nil)

func newFileMediaStore(t *testing.T, original string) *fileMediaStore {
	t.Helper()
	return &fileMediaStore{Dir: t.TempDir(), Original: original}
}

func (s *fileMediaStore) log(c mediaCall) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	c.At = time.Now()
	c.PID = os.Getpid()
	b, err := json.Marshal(c)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(filepath.Join(s.Dir, "calls.jsonl"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = f.Write(append(b, '\n'))
	return err
}

func (s *fileMediaStore) calls(t *testing.T) []mediaCall {
	t.Helper()
	f, err := os.Open(filepath.Join(s.Dir, "calls.jsonl"))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []mediaCall
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var c mediaCall
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			// A worker killed mid-write may leave half a line.
			continue
		}
		out = append(out, c)
	}
	return out
}

func (s *fileMediaStore) hlsDir() string { return filepath.Join(s.Dir, "hls") }

func (s *fileMediaStore) Source(_ context.Context, _ string) (media.Source, error) {
	src := media.Source{Path: s.Original, HLSPrefix: "hls/", Demuxer: "mov"}
	if ext := filepath.Ext(s.Original); ext == ".mkv" || ext == ".webm" {
		src.Demuxer = "matroska"
	}
	if st, err := os.Stat(s.Original); err == nil {
		src.SizeBytes = st.Size()
	}
	entries, err := os.ReadDir(s.hlsDir())
	if err != nil && !os.IsNotExist(err) {
		return src, err
	}
	for _, e := range entries {
		if _, err := os.Stat(filepath.Join(s.hlsDir(), e.Name(), "index.m3u8")); err == nil {
			src.DoneRenditions = append(src.DoneRenditions, e.Name())
		}
	}
	return src, nil
}

func (s *fileMediaStore) SetProbe(_ context.Context, _ string, p media.Probe) error {
	return s.log(mediaCall{Op: "probe", Probe: &p})
}

func (s *fileMediaStore) SetProgress(_ context.Context, _, rendition string, percent int) error {
	return s.log(mediaCall{Op: "progress", Rendition: rendition, Percent: percent})
}

func (s *fileMediaStore) SaveRendition(_ context.Context, _ string, r media.RenditionResult, dir string) error {
	if err := os.MkdirAll(s.hlsDir(), 0o755); err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(dir, "index.m3u8")); err != nil {
		return fmt.Errorf("rendition dir without playlist: %w", err)
	}
	if err := os.Rename(dir, filepath.Join(s.hlsDir(), r.Name)); err != nil {
		return err
	}
	return s.log(mediaCall{Op: "rendition", Rendition: r.Name, Result: &r})
}

func copyFile(src, dst string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, b, 0o644)
}

func (s *fileMediaStore) SaveImages(_ context.Context, _ string, poster string, thumbs []string) error {
	dir := filepath.Join(s.Dir, "img")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := copyFile(poster, filepath.Join(dir, "poster.jpg")); err != nil {
		return err
	}
	for i, th := range thumbs {
		if err := copyFile(th, filepath.Join(dir, fmt.Sprintf("thumb-%d.jpg", i+1))); err != nil {
			return err
		}
	}
	return s.log(mediaCall{Op: "images", Percent: len(thumbs)})
}

func (s *fileMediaStore) SaveSubtitles(_ context.Context, _ string, tracks []media.SubtitleResult, dir string) error {
	if err := os.MkdirAll(filepath.Join(s.hlsDir(), "subs"), 0o755); err != nil {
		return err
	}
	for _, tr := range tracks {
		if err := copyFile(filepath.Join(dir, tr.File), filepath.Join(s.hlsDir(), "subs", tr.File)); err != nil {
			return err
		}
	}
	return s.log(mediaCall{Op: "subtitles", Tracks: tracks})
}

// Ready writes master.m3u8 from the saved renditions, as the real store does.
func (s *fileMediaStore) Ready(_ context.Context, _ string) error {
	var b strings.Builder
	b.WriteString("#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-INDEPENDENT-SEGMENTS\n")
	seen := map[string]bool{}
	for _, c := range s.callsNoT() {
		if c.Op == "rendition" && !seen[c.Rendition] {
			seen[c.Rendition] = true
			fmt.Fprintf(&b, "#EXT-X-STREAM-INF:BANDWIDTH=%d,RESOLUTION=%dx%d\n%s\n", c.Result.BandwidthBps, c.Result.Width, c.Result.Height, c.Result.Playlist)
		}
	}
	if err := os.WriteFile(filepath.Join(s.hlsDir(), "master.m3u8"), []byte(b.String()), 0o644); err != nil {
		return err
	}
	return s.log(mediaCall{Op: "ready"})
}

func (s *fileMediaStore) callsNoT() []mediaCall {
	b, _ := os.ReadFile(filepath.Join(s.Dir, "calls.jsonl"))
	var out []mediaCall
	for _, line := range bytes.Split(b, []byte("\n")) {
		var c mediaCall
		if json.Unmarshal(line, &c) == nil {
			out = append(out, c)
		}
	}
	return out
}

func (s *fileMediaStore) Failed(_ context.Context, _, reason string) error {
	return s.log(mediaCall{Op: "failed", Reason: reason})
}

// makeVideo writes a test video with ffmpeg's lavfi sources: a w×h
// moving test pattern at 25 fps with a 440 Hz tone, seconds long, plus
// extra arguments (e.g. a subtitle input) before the output.
func makeVideo(t testing.TB, path string, w, h int, seconds float64, extra ...string) {
	t.Helper()
	args := []string{"-hide_banner", "-loglevel", "error", "-y",
		"-f", "lavfi", "-i", fmt.Sprintf("testsrc2=size=%dx%d:rate=25", w, h),
		"-f", "lavfi", "-i", "sine=frequency=440"}
	args = append(args, extra...)
	args = append(args, "-t", strconv.FormatFloat(seconds, 'f', 2, 64), "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", path)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if out, err := exec.CommandContext(ctx, "ffmpeg", args...).CombinedOutput(); err != nil {
		t.Fatalf("make test video: %v\n%s", err, out)
	}
}

type probedStream struct {
	CodecType string `json:"codec_type"`
	CodecName string `json:"codec_name"`
	Width     int    `json:"width"`
	Height    int    `json:"height"`
}

type probed struct {
	Streams []probedStream `json:"streams"`
	Format  struct {
		Duration string `json:"duration"`
	} `json:"format"`
}

// ffprobeJSON reads path with ffprobe, as a player would.
func ffprobeJSON(t *testing.T, path string) probed {
	t.Helper()
	out, err := exec.Command("ffprobe", "-v", "error", "-print_format", "json", "-show_format", "-show_streams", path).Output()
	if err != nil {
		t.Fatalf("ffprobe %s: %v", path, err)
	}
	var p probed
	if err := json.Unmarshal(out, &p); err != nil {
		t.Fatal(err)
	}
	return p
}

func newMediaEnv(t *testing.T, acts *workflows.MediaActivities) *testsuite.TestWorkflowEnvironment {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	// Activities run ffmpeg for real, which takes wall-clock time.
	env.SetTestTimeout(3 * time.Minute)
	env.RegisterActivity(acts)
	return env
}

// TestMediaWorkflowMakesHLSLadderFrom1080p: a 1080p source with sound and
// a Portuguese subtitle track becomes 360p, 720p and 1080p HLS renditions
// (4-second independent segments) that ffprobe reads with the right
// heights, sound and duration, plus a poster, three thumbnails, a WebVTT
// track and the master playlist; the asset ends ready.
func TestMediaWorkflowMakesHLSLadderFrom1080p(t *testing.T) {
	dir := t.TempDir()
	srt := filepath.Join(dir, "legenda.srt")
	if err := os.WriteFile(srt, []byte("1\n00:00:01,000 --> 00:00:03,000\nOlá, turma!\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(dir, "aula.mp4")
	makeVideo(t, src, 1920, 1080, 6, "-i", srt, "-map", "0", "-map", "1", "-map", "2", "-c:s", "mov_text", "-metadata:s:s:0", "language=por")
	store := newFileMediaStore(t, src)
	work := t.TempDir()
	env := newMediaEnv(t, &workflows.MediaActivities{Store: store, WorkDir: work, Preset: "ultrafast"})

	env.ExecuteWorkflow(workflows.ProcessMediaWorkflow, "a1", 1)
	if !env.IsWorkflowCompleted() || env.GetWorkflowError() != nil {
		t.Fatalf("completed=%v err=%v", env.IsWorkflowCompleted(), env.GetWorkflowError())
	}
	calls := store.calls(t)
	var ops []string
	renditions := map[string]media.RenditionResult{}
	lastPercent := map[string]int{}
	for _, c := range calls {
		if c.Op != "progress" {
			ops = append(ops, c.Op)
		} else {
			lastPercent[c.Rendition] = c.Percent
		}
		if c.Op == "rendition" {
			renditions[c.Rendition] = *c.Result
		}
		if c.Op == "probe" {
			p := c.Probe
			if p.Width != 1920 || p.Height != 1080 || !p.HasAudio || p.VideoCodec != "h264" || len(p.SubtitleStreams) != 1 || p.DurationSeconds < 5.9 || p.DurationSeconds > 6.2 {
				t.Errorf("probe %+v", *p)
			}
		}
		if c.Op == "subtitles" {
			if len(c.Tracks) != 1 || c.Tracks[0].Language != "por" || c.Tracks[0].Name != "Português" {
				t.Errorf("subtitle tracks %+v", c.Tracks)
			}
		}
	}
	want := []string{"probe", "rendition", "rendition", "rendition", "images", "subtitles", "ready"}
	if !slices.Equal(ops, want) {
		t.Fatalf("store calls %v, want %v", ops, want)
	}
	for name, size := range map[string][2]int{"360p": {640, 360}, "720p": {1280, 720}, "1080p": {1920, 1080}} {
		r, ok := renditions[name]
		if !ok {
			t.Errorf("no %s rendition", name)
			continue
		}
		if r.Width != size[0] || r.Height != size[1] || r.Playlist != name+"/index.m3u8" || r.BandwidthBps <= 0 {
			t.Errorf("%s: %+v", name, r)
		}
		if lastPercent[name] != 100 {
			t.Errorf("%s: last progress %d", name, lastPercent[name])
		}
		playlist := filepath.Join(store.hlsDir(), r.Playlist)
		text, err := os.ReadFile(playlist)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range []string{"#EXT-X-PLAYLIST-TYPE:VOD", "#EXT-X-INDEPENDENT-SEGMENTS", "#EXT-X-ENDLIST"} {
			if !strings.Contains(string(text), line) {
				t.Errorf("%s lacks %s:\n%s", name, line, text)
			}
		}
		if segs := strings.Count(string(text), "#EXTINF:"); segs < 2 {
			t.Errorf("%s has %d segments, want 4-second ones", name, segs)
		}
		p := ffprobeJSON(t, playlist)
		var video, audio int
		for _, s := range p.Streams {
			switch s.CodecType {
			case "video":
				video++
				if s.CodecName != "h264" || s.Width != size[0] || s.Height != size[1] {
					t.Errorf("%s video stream %+v", name, s)
				}
			case "audio":
				audio++
				if s.CodecName != "aac" {
					t.Errorf("%s audio stream %+v", name, s)
				}
			}
		}
		if video != 1 || audio != 1 {
			t.Errorf("%s: %d video and %d audio streams", name, video, audio)
		}
		if d, _ := strconv.ParseFloat(p.Format.Duration, 64); d < 5.5 || d > 6.5 {
			t.Errorf("%s duration %.2f s, source 6 s", name, d)
		}
	}
	// A player opening the master playlist finds every rendition.
	master := ffprobeJSON(t, filepath.Join(store.hlsDir(), "master.m3u8"))
	var heights []int
	for _, s := range master.Streams {
		if s.CodecType == "video" {
			heights = append(heights, s.Height)
		}
	}
	slices.Sort(heights)
	if !slices.Equal(heights, []int{360, 720, 1080}) {
		t.Errorf("master playlist video heights %v", heights)
	}
	for _, img := range []string{"poster.jpg", "thumb-1.jpg", "thumb-2.jpg", "thumb-3.jpg"} {
		p := ffprobeJSON(t, filepath.Join(store.Dir, "img", img))
		if len(p.Streams) != 1 || p.Streams[0].CodecName != "mjpeg" || p.Streams[0].Height == 0 {
			t.Errorf("%s: %+v", img, p.Streams)
		}
	}
	vtt, err := os.ReadFile(filepath.Join(store.hlsDir(), "subs", "sub-2.vtt"))
	if err != nil || !bytes.HasPrefix(vtt, []byte("WEBVTT")) || !strings.Contains(string(vtt), "Olá, turma!") {
		t.Errorf("subtitles: %v\n%s", err, vtt)
	}
	if left, _ := os.ReadDir(work); len(left) != 0 {
		t.Errorf("work dir not cleaned: %v", left)
	}
}

// TestMediaWorkflowSkipsDoneRenditions: an attempt after a failure redoes
// only the renditions the store does not hold yet.
func TestMediaWorkflowSkipsDoneRenditions(t *testing.T) {
	src := filepath.Join(t.TempDir(), "aula.mp4")
	makeVideo(t, src, 1280, 720, 2)
	store := newFileMediaStore(t, src)
	if err := os.MkdirAll(filepath.Join(store.hlsDir(), "360p"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(store.hlsDir(), "360p", "index.m3u8"), []byte("#EXTM3U\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := newMediaEnv(t, &workflows.MediaActivities{Store: store, WorkDir: t.TempDir(), Preset: "ultrafast"})
	env.ExecuteWorkflow(workflows.ProcessMediaWorkflow, "a2", 2)
	if !env.IsWorkflowCompleted() || env.GetWorkflowError() != nil {
		t.Fatalf("completed=%v err=%v", env.IsWorkflowCompleted(), env.GetWorkflowError())
	}
	var saved []string
	for _, c := range store.calls(t) {
		if c.Op == "rendition" {
			saved = append(saved, c.Rendition)
		}
		if c.Op == "progress" && c.Rendition == "360p" {
			t.Errorf("360p was transcoded again")
		}
	}
	if !slices.Equal(saved, []string{"720p"}) {
		t.Errorf("renditions saved %v, want only 720p", saved)
	}
}

// TestMediaWorkflowFailsOnUnreadableFile: a broken .mp4, and a
// file with sound but no picture, end with the asset in error with a
// pt-BR reason, without a retry, and the original left as it was.
func TestMediaWorkflowFailsOnUnreadableFile(t *testing.T) {
	dir := t.TempDir()
	corrupt := filepath.Join(dir, "corrompido.mp4")
	// An ftyp box (isom) followed by noise with no moov box. Random bytes
	// would not do: about one file in sixty of them probes as an H.263 or
	// LRC stream, and the test would then see another reason.
	junk := append([]byte{0, 0, 0, 0x18, 'f', 't', 'y', 'p', 'i', 's', 'o', 'm', 0, 0, 2, 0, 'i', 's', 'o', 'm', 'm', 'p', '4', '1'},
		bytes.Repeat([]byte("quebrado "), 256<<10/9)...)
	if err := os.WriteFile(corrupt, junk, 0o644); err != nil {
		t.Fatal(err)
	}
	audioOnly := filepath.Join(dir, "so-audio.mp4")
	if out, err := exec.Command("ffmpeg", "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "sine=frequency=440", "-t", "2", "-c:a", "aac", audioOnly).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, tc := range []struct{ file, reason string }{
		{corrupt, "O arquivo não pôde ser lido como vídeo (formato não reconhecido)."},
		{audioOnly, "O arquivo não pôde ser lido como vídeo (nenhuma faixa de vídeo encontrada)."},
	} {
		t.Run(filepath.Base(tc.file), func(t *testing.T) {
			before := sha256File(t, tc.file)
			store := newFileMediaStore(t, tc.file)
			work := t.TempDir()
			env := newMediaEnv(t, &workflows.MediaActivities{Store: store, WorkDir: work, Preset: "ultrafast"})
			var probes int
			env.SetOnActivityStartedListener(func(info *activity.Info, _ context.Context, _ converter.EncodedValues) {
				if info.ActivityType.Name == "ProbeMedia" {
					probes++
				}
			})
			env.ExecuteWorkflow(workflows.ProcessMediaWorkflow, "a3", 1)
			if !env.IsWorkflowCompleted() || env.GetWorkflowError() != nil {
				t.Fatalf("completed=%v err=%v (erro is an outcome, not a workflow failure)", env.IsWorkflowCompleted(), env.GetWorkflowError())
			}
			var ops []string
			var reason string
			for _, c := range store.calls(t) {
				ops = append(ops, c.Op)
				reason += c.Reason
			}
			if !slices.Equal(ops, []string{"failed"}) || reason != tc.reason {
				t.Errorf("store calls %v reason %q, want failed %q", ops, reason, tc.reason)
			}
			if probes != 1 {
				t.Errorf("probed %d times; an unreadable file is not retried", probes)
			}
			if after := sha256File(t, tc.file); after != before {
				t.Error("the original was changed")
			}
			if left, _ := os.ReadDir(work); len(left) != 0 {
				t.Errorf("work dir not cleaned: %v", left)
			}
		})
	}
}

func sha256File(t *testing.T, path string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

// TestMediaWorkflowFailsWhenFFmpegFails: a source whose picture ffprobe
// reads but ffmpeg cannot encode (frames cut off after the header) ends in
// error after the step's retries, with the step named in pt-BR.
func TestMediaWorkflowFailsWhenFFmpegFails(t *testing.T) {
	src := filepath.Join(t.TempDir(), "aula.mp4")
	makeVideo(t, src, 640, 360, 2)
	store := newFileMediaStore(t, src)
	// ffprobe answers, then ffmpeg is swapped for a program that fails:
	// the failure is the machine's (e.g. out of disk), so it is retried.
	fake := filepath.Join(t.TempDir(), "ffmpeg")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\necho 'No space left on device' >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := newMediaEnv(t, &workflows.MediaActivities{Store: store, FFmpeg: fake, WorkDir: t.TempDir(), Preset: "ultrafast"})
	var tries int
	env.SetOnActivityStartedListener(func(info *activity.Info, _ context.Context, _ converter.EncodedValues) {
		if info.ActivityType.Name == "TranscodeRendition" {
			tries++
		}
	})
	env.ExecuteWorkflow(workflows.ProcessMediaWorkflow, "a4", 1)
	if !env.IsWorkflowCompleted() || env.GetWorkflowError() != nil {
		t.Fatalf("completed=%v err=%v", env.IsWorkflowCompleted(), env.GetWorkflowError())
	}
	var reason string
	for _, c := range store.calls(t) {
		if c.Op == "failed" {
			reason = c.Reason
		}
		if c.Op == "ready" || c.Op == "rendition" {
			t.Errorf("unexpected %s", c.Op)
		}
	}
	if reason != "Não foi possível converter o vídeo em 360p (ffmpeg: No space left on device)." {
		t.Errorf("reason %q", reason)
	}
	if tries != 3 {
		t.Errorf("transcode tried %d times, want 3", tries)
	}
}

// TestMediaLadder: rungs by the picture's short side, aspect kept, even
// sizes, no upscaling beyond the 360p floor.
func TestMediaLadder(t *testing.T) {
	names := func(rs []workflows.MediaRendition) string {
		var s []string
		for _, r := range rs {
			s = append(s, fmt.Sprintf("%s=%dx%d", r.Name, r.Width, r.Height))
		}
		return strings.Join(s, " ")
	}
	for _, tc := range []struct {
		w, h int
		want string
	}{
		{1920, 1080, "360p=640x360 720p=1280x720 1080p=1920x1080"},
		{3840, 2160, "360p=640x360 720p=1280x720 1080p=1920x1080"},
		{1280, 720, "360p=640x360 720p=1280x720"},
		{1080, 1920, "360p=360x640 720p=720x1280 1080p=1080x1920"},
		{854, 480, "360p=640x360 480p=854x480"},
		{320, 240, "360p=480x360"},
		{1440, 1080, "360p=480x360 720p=960x720 1080p=1440x1080"},
		{2048, 858, "360p=860x360 720p=1718x720"},
	} {
		if got := names(workflows.MediaLadder(tc.w, tc.h)); got != tc.want {
			t.Errorf("%dx%d: %s, want %s", tc.w, tc.h, got, tc.want)
		}
	}
}

// TestTranscodeReportsProgressSteadily: during a transcode that takes more
// than 10 s, the percent reaches the store at least every 5 s, never goes
// back, and ends at 100. The source is lengthened until the transcode
// takes that long on this machine, whatever its speed.
func TestTranscodeReportsProgressSteadily(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	seconds := 40.0
	for try := 0; ; try++ {
		src := filepath.Join(t.TempDir(), "longa.mp4")
		makeVideo(t, src, 640, 360, seconds)
		store := newFileMediaStore(t, src)
		env := s.NewTestActivityEnvironment()
		acts := &workflows.MediaActivities{Store: store, WorkDir: t.TempDir(), Preset: "slow"}
		env.RegisterActivity(acts)
		started := time.Now()
		_, err := env.ExecuteActivity(acts.TranscodeRendition, workflows.TranscodeInput{AssetID: "p1",
			Rendition:       workflows.MediaLadder(640, 360)[0],
			DurationSeconds: seconds, HasAudio: true})
		if err != nil {
			t.Fatal(err)
		}
		took := time.Since(started)
		if took < 10*time.Second {
			if try == 4 {
				t.Fatalf("a %.0f s source still transcodes in %v", seconds, took)
			}
			seconds *= 2
			continue
		}
		var times []time.Time
		last := -1
		for _, c := range store.calls(t) {
			if c.Op != "progress" {
				continue
			}
			if c.Percent < last {
				t.Errorf("progress went back from %d to %d", last, c.Percent)
			}
			last = c.Percent
			times = append(times, c.At)
		}
		if last != 100 || len(times) < 3 {
			t.Fatalf("%d progress writes, last %d", len(times), last)
		}
		var gap time.Duration
		for i := 1; i < len(times); i++ {
			gap = max(gap, times[i].Sub(times[i-1]))
		}
		// The first write is at the start and the last at the end, so the
		// gaps cover the whole transcode.
		if whole := times[len(times)-1].Sub(times[0]); whole < took-2*time.Second {
			t.Errorf("progress writes span %v of a %v transcode", whole, took)
		}
		if gap > 5*time.Second {
			t.Errorf("longest gap between progress writes %v, want ≤ 5 s", gap)
		}
		t.Logf("%.0f s source transcoded in %v: %d progress writes, longest gap %v", seconds, took.Round(time.Millisecond), len(times), gap.Round(time.Millisecond))
		return
	}
}
