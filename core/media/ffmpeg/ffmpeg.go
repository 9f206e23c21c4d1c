// Package ffmpeg runs ffprobe and ffmpeg as child processes: a JSON probe
// of a file, and an ffmpeg run whose progress is read from -progress
// output (key=value blocks) rather than from its human-oriented stderr.
package ffmpeg

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// ErrUnreadable is returned by Probe when ffprobe cannot read the file as
// media at all (not a failure of the machine, so retrying cannot help).
var ErrUnreadable = errors.New("ffprobe cannot read the file")

// Stream is one stream of a probed file.
type Stream struct {
	Index     int
	CodecType string // video, audio, subtitle, data, attachment
	CodecName string
	Width     int
	Height    int
	// Rotation is the display rotation in degrees (phone videos store
	// portrait footage as landscape frames plus a rotation).
	Rotation    int
	Language    string
	Title       string
	AttachedPic bool // a cover image stored as a video stream
}

// Info is what ffprobe found.
type Info struct {
	DurationSeconds float64
	FormatName      string
	Streams         []Stream
}

// Video is the first real video stream (cover images excluded).
func (i Info) Video() (Stream, bool) {
	for _, s := range i.Streams {
		if s.CodecType == "video" && !s.AttachedPic {
			return s, true
		}
	}
	return Stream{}, false
}

// HasAudio reports whether the file has an audio stream.
func (i Info) HasAudio() bool {
	for _, s := range i.Streams {
		if s.CodecType == "audio" {
			return true
		}
	}
	return false
}

// textSubtitleCodecs are the subtitle codecs ffmpeg can turn into WebVTT;
// bitmap subtitles (DVD, PGS) cannot be.
var textSubtitleCodecs = map[string]bool{
	"subrip": true, "srt": true, "ass": true, "ssa": true, "mov_text": true,
	"webvtt": true, "text": true, "microdvd": true, "subviewer": true, "jacosub": true,
	"sami": true, "realtext": true, "mpl2": true, "vplayer": true, "pjs": true, "stl": true,
}

// TextSubtitles are the subtitle streams that can become WebVTT.
func (i Info) TextSubtitles() []Stream {
	var out []Stream
	for _, s := range i.Streams {
		if s.CodecType == "subtitle" && textSubtitleCodecs[s.CodecName] {
			out = append(out, s)
		}
	}
	return out
}

// DisplaySize is the video's width and height as shown, rotation applied.
func (s Stream) DisplaySize() (w, h int) {
	switch ((s.Rotation % 360) + 360) % 360 {
	case 90, 270:
		return s.Height, s.Width
	}
	return s.Width, s.Height
}

type probeJSON struct {
	Format struct {
		Duration   string `json:"duration"`
		FormatName string `json:"format_name"`
	} `json:"format"`
	Streams []struct {
		Index       int               `json:"index"`
		CodecType   string            `json:"codec_type"`
		CodecName   string            `json:"codec_name"`
		Width       int               `json:"width"`
		Height      int               `json:"height"`
		Duration    string            `json:"duration"`
		Tags        map[string]string `json:"tags"`
		Disposition map[string]int    `json:"disposition"`
		SideData    []struct {
			Rotation *float64 `json:"rotation"`
		} `json:"side_data_list"`
	} `json:"streams"`
}

// Probe runs ffprobe (bin) on path. A file ffprobe cannot read gives an
// error wrapping ErrUnreadable with ffprobe's own words.
func Probe(ctx context.Context, bin, path string) (Info, error) {
	if bin == "" {
		bin = "ffprobe"
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, bin, "-v", "error", "-print_format", "json", "-show_format", "-show_streams", "--", path)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	setPdeathsig(cmd)
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return Info{}, fmt.Errorf("ffprobe %s: %w", path, ctx.Err())
		}
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return Info{}, fmt.Errorf("%w: %s", ErrUnreadable, lastLine(stderr.String()))
		}
		return Info{}, fmt.Errorf("run ffprobe: %w", err)
	}
	var raw probeJSON
	if err := json.Unmarshal(stdout.Bytes(), &raw); err != nil {
		return Info{}, fmt.Errorf("%w: ffprobe output: %v", ErrUnreadable, err)
	}
	info := Info{FormatName: raw.Format.FormatName}
	info.DurationSeconds, _ = strconv.ParseFloat(raw.Format.Duration, 64)
	for _, s := range raw.Streams {
		st := Stream{Index: s.Index, CodecType: s.CodecType, CodecName: s.CodecName, Width: s.Width, Height: s.Height,
			Language: s.Tags["language"], Title: s.Tags["title"], AttachedPic: s.Disposition["attached_pic"] == 1}
		for _, sd := range s.SideData {
			if sd.Rotation != nil {
				st.Rotation = int(*sd.Rotation)
			}
		}
		if r, err := strconv.Atoi(s.Tags["rotate"]); err == nil && st.Rotation == 0 {
			st.Rotation = r
		}
		if info.DurationSeconds <= 0 && s.CodecType == "video" {
			info.DurationSeconds, _ = strconv.ParseFloat(s.Duration, 64)
		}
		info.Streams = append(info.Streams, st)
	}
	return info, nil
}

// Run runs ffmpeg (bin) with args (inputs, filters and outputs) and calls
// progress with the output time reached, as ffmpeg reports it (about twice
// a second). The process is killed when ctx ends. A failure carries the
// end of ffmpeg's stderr.
func Run(ctx context.Context, bin string, args []string, progress func(outTime time.Duration)) error {
	if bin == "" {
		bin = "ffmpeg"
	}
	full := append([]string{"-hide_banner", "-nostdin", "-y", "-loglevel", "error", "-progress", "pipe:1", "-nostats"}, args...)
	cmd := exec.CommandContext(ctx, bin, full...)
	// Kill at once on cancellation; WaitDelay bounds the wait for the pipes.
	cmd.WaitDelay = 5 * time.Second
	setPdeathsig(cmd)
	stderr := &tail{max: 4096}
	cmd.Stderr = stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return fmt.Errorf("ffmpeg stdout: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start ffmpeg: %w", err)
	}
	readProgress(out, progress)
	if err := cmd.Wait(); err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("ffmpeg: %w", ctx.Err())
		}
		return &ExitError{Err: err, Message: withoutPath(lastLine(stderr.String()))}
	}
	return nil
}

// ExitError is an ffmpeg run that failed; Message is the last line ffmpeg
// wrote to stderr (its reason, e.g. "No space left on device").
type ExitError struct {
	Err     error
	Message string
}

func (e *ExitError) Error() string { return fmt.Sprintf("ffmpeg: %v: %s", e.Err, e.Message) }

func (e *ExitError) Unwrap() error { return e.Err }

// readProgress reads -progress output: key=value lines, each block ending
// with progress=continue or progress=end.
func readProgress(r io.Reader, progress func(time.Duration)) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), "=")
		if !ok || progress == nil {
			continue
		}
		// out_time_us is microseconds; ffmpeg 5.1 prints "N/A" before the
		// first frame.
		if k == "out_time_us" {
			if us, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil && us >= 0 {
				progress(time.Duration(us) * time.Microsecond)
			}
		}
	}
	_, _ = io.Copy(io.Discard, r)
}

// tail keeps the last max bytes written.
type tail struct {
	max int
	buf []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = t.buf[len(t.buf)-t.max:]
	}
	return len(p), nil
}

func (t *tail) String() string { return string(t.buf) }

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if l := strings.TrimSpace(lines[i]); l != "" {
			return l
		}
	}
	return "no message"
}

// withoutPath drops the file path ffmpeg puts before some messages
// ("/data/x.mp4: No such file or directory"): the message may be shown to
// staff, who need the reason, not where the server keeps files.
func withoutPath(line string) string {
	if strings.HasPrefix(line, "/") {
		if _, rest, ok := strings.Cut(line, ": "); ok {
			return rest
		}
	}
	return line
}
