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
	// FrameRate is the stream's average frames per second as its
	// container declares it (avg_frame_rate, else r_frame_rate; 0 when
	// unknown).
	FrameRate float64
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
		FrameRate   string            `json:"r_frame_rate"`
		AvgRate     string            `json:"avg_frame_rate"`
		Tags        map[string]string `json:"tags"`
		Disposition map[string]int    `json:"disposition"`
		SideData    []struct {
			Rotation *float64 `json:"rotation"`
		} `json:"side_data_list"`
	} `json:"streams"`
}

// Demuxers are the containers an input may be read as: never guessed from
// the bytes, which would let a playlist or manifest (HLS, DASH, concat)
// dressed up as a video make ffmpeg open other files.
var Demuxers = map[string]bool{"mov": true, "matroska": true}

// ErrDemuxer is an input whose demuxer is not one of Demuxers.
var ErrDemuxer = errors.New("ffmpeg: input demuxer must be mov or matroska")

// Input is the argument list that opens path as an input: its demuxer
// forced, and only the file protocol allowed, so the input can never pull
// in a network address or another protocol's data.
func Input(demuxer, path string) ([]string, error) {
	if !Demuxers[demuxer] {
		return nil, fmt.Errorf("%w (got %q)", ErrDemuxer, demuxer)
	}
	return []string{"-f", demuxer, "-protocol_whitelist", "file", "-i", "file:" + path}, nil
}

// Probe runs ffprobe (bin) on path read as demuxer (see Input). A file
// ffprobe cannot read gives an error wrapping ErrUnreadable with ffprobe's
// own words.
func Probe(ctx context.Context, bin, demuxer, path string) (Info, error) {
	if bin == "" {
		bin = "ffprobe"
	}
	in, err := Input(demuxer, path)
	if err != nil {
		return Info{}, err
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, bin, append([]string{"-v", "error", "-print_format", "json", "-show_format", "-show_streams"}, in...)...)
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
			Language: s.Tags["language"], Title: s.Tags["title"], AttachedPic: s.Disposition["attached_pic"] == 1,
			FrameRate: rational(s.AvgRate)}
		if st.FrameRate == 0 {
			st.FrameRate = rational(s.FrameRate)
		}
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

// rational parses ffprobe's "num/den" rates ("30000/1001"); 0 when it is
// not one.
func rational(v string) float64 {
	n, d, ok := strings.Cut(v, "/")
	if !ok {
		f, _ := strconv.ParseFloat(v, 64)
		return f
	}
	num, err1 := strconv.ParseFloat(n, 64)
	den, err2 := strconv.ParseFloat(d, 64)
	if err1 != nil || err2 != nil || den == 0 {
		return 0
	}
	return num / den
}
