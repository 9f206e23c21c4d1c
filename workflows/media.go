package workflows

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/media"
	"github.com/vetclube/vetclube/core/media/ffmpeg"
)

// MediaTaskQueue is the queue of the media processing: its own worker with
// one activity at a time, so transcodes never starve the other workers.
const MediaTaskQueue = "vetclube-media"

// MediaWorkflowID is the workflow id of one processing attempt of an asset.
func MediaWorkflowID(assetID string, attempt int) string {
	return fmt.Sprintf("media-%s-%d", assetID, attempt)
}

// MediaActivities run ffprobe and ffmpeg on an asset's original.
type MediaActivities struct {
	Store   media.ProcessingStore
	FFmpeg  string // "ffmpeg" when empty
	FFprobe string // "ffprobe" when empty
	// WorkDir holds one temporary directory per running step (os.TempDir when empty).
	WorkDir string
	// Preset is the libx264 preset ("veryfast" when empty).
	Preset string

	// dirsMu guards inUse, the step directories this process is using,
	// which SweepMediaWorkDir never removes.
	dirsMu sync.Mutex
	inUse  map[string]bool
}

// MediaProcessing starts the processing workflow of an asset; it
// implements media.Processing.
type MediaProcessing struct {
	Client client.Client
}

// Start starts attempt attempt of asset assetID. An id is never reused, so
// starting the same attempt twice runs it once.
func (p MediaProcessing) Start(ctx context.Context, assetID string, attempt int) error {
	_, err := p.Client.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID:                    MediaWorkflowID(assetID, attempt),
		TaskQueue:             MediaTaskQueue,
		WorkflowIDReusePolicy: enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
	}, ProcessMediaWorkflow, assetID, attempt)
	if err := started(err); err != nil {
		return fmt.Errorf("start media processing of %s: %w", assetID, err)
	}
	return nil
}

// Cancel cancels attempt attempt of asset assetID: its running activity
// is cancelled at its next heartbeat (a second at most while transcoding),
// which kills ffmpeg. An attempt that is not running is not an error.
func (p MediaProcessing) Cancel(ctx context.Context, assetID string, attempt int) error {
	err := p.Client.CancelWorkflow(ctx, MediaWorkflowID(assetID, attempt), "")
	var notFound *serviceerror.NotFound
	if err != nil && !errors.As(err, &notFound) {
		return fmt.Errorf("cancel media processing of %s: %w", assetID, err)
	}
	return nil
}

// NewMediaWorker returns a worker for MediaTaskQueue running one activity
// at a time.
func NewMediaWorker(c client.Client, acts *MediaActivities) worker.Worker {
	w := worker.New(c, MediaTaskQueue, worker.Options{MaxConcurrentActivityExecutionSize: 1})
	w.RegisterWorkflow(ProcessMediaWorkflow)
	w.RegisterActivity(acts)
	return w
}

// MediaRendition is one rung of the HLS ladder.
type MediaRendition struct {
	Name          string // "720p"
	Width, Height int
	VideoKbps     int
	AudioKbps     int
}

// mediaRungs are the ladder's rungs: the short side of the picture and
// the bit rates it is encoded at.
var mediaRungs = []struct{ short, videoKbps, audioKbps int }{
	{360, 800, 96},
	{720, 2800, 128},
	{1080, 5000, 128},
}

// MediaLadder is the renditions for a w×h (as displayed) source: 360p
// always (a smaller source is scaled up to it, so every asset has one
// rendition phones can play), 720p and 1080p only when the source has that
// many lines; a source between 360p and 720p also gets a rendition at its
// own size, so its detail is not thrown away. A rung's height is the
// picture's short side (portrait videos keep their orientation), the other
// side keeps the aspect ratio, rounded to an even number as H.264 needs.
func MediaLadder(w, h int) []MediaRendition {
	if w <= 0 || h <= 0 {
		return nil
	}
	short := min(w, h)
	size := func(s int) (int, int) {
		long := even(float64(max(w, h)) * float64(s) / float64(short))
		if w >= h {
			return long, s
		}
		return s, long
	}
	var out []MediaRendition
	for i, r := range mediaRungs {
		if i > 0 && short < r.short {
			// A source between two rungs gets one rendition at its own
			// size, its bit rate scaled by area from the rung below.
			below := mediaRungs[i-1]
			if i == 1 && short > below.short {
				s := even(float64(short))
				rw, rh := size(s)
				kbps := below.videoKbps * s * s / (below.short * below.short)
				out = append(out, MediaRendition{Name: fmt.Sprintf("%dp", s), Width: rw, Height: rh, VideoKbps: kbps, AudioKbps: r.audioKbps})
			}
			break
		}
		rw, rh := size(r.short)
		out = append(out, MediaRendition{Name: fmt.Sprintf("%dp", r.short), Width: rw, Height: rh, VideoKbps: r.videoKbps, AudioKbps: r.audioKbps})
	}
	return out
}

func even(f float64) int {
	n := int(math.Round(f/2)) * 2
	return max(n, 2)
}

// MediaPlan is what the probe step hands the workflow.
type MediaPlan struct {
	Probe          media.Probe
	DoneRenditions []string
}

// TranscodeInput is one rendition to make.
type TranscodeInput struct {
	AssetID         string
	Rendition       MediaRendition
	DurationSeconds float64
	HasAudio        bool
}

// MediaImagesInput asks for an asset's poster and thumbnails.
type MediaImagesInput struct {
	AssetID         string
	DurationSeconds float64
}

// SubtitlesInput asks for WebVTT tracks of the given subtitle streams.
type SubtitlesInput struct {
	AssetID string
	Streams []int
}

// mediaUnreadable is the error type of a file that is not a readable
// video: retrying cannot change that.
const mediaUnreadable = "MediaUnreadable"

// ProcessMediaWorkflow turns an asset's original video into HLS: probe,
// one activity per rendition (in turn, so one transcode at a time uses the
// machine), poster and thumbnails, WebVTT subtitles when the source has
// text subtitles, then the asset becomes pronto. A rendition the store
// already records as done is skipped, so a new attempt redoes only what
// is missing. Any step that still fails after its retries sets the asset
// erro with a pt-BR reason and ends the workflow without error: erro is
// the outcome, and a retry is a new attempt (a new workflow).
func ProcessMediaWorkflow(ctx workflow.Context, assetID string, attempt int) error {
	var a *MediaActivities
	log := workflow.GetLogger(ctx)
	fail := func(step string, err error) error {
		// Cancelled by staff: the library has set the asset erro with its
		// own reason already, and a later attempt may be running by now.
		if temporal.IsCanceledError(err) || ctx.Err() != nil {
			log.Info("media processing cancelled", "asset", assetID, "attempt", attempt, "step", step)
			return temporal.NewCanceledError()
		}
		reason := mediaFailureReason(step, err)
		log.Warn("media processing failed", "asset", assetID, "attempt", attempt, "step", step, "error", err)
		fctx := workflow.WithActivityOptions(ctx, mediaStoreOptions)
		return workflow.ExecuteActivity(fctx, a.MarkMediaFailed, assetID, reason).Get(fctx, nil)
	}

	var plan MediaPlan
	pctx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		// Source may fetch the original to local disk first.
		StartToCloseTimeout: 30 * time.Minute,
		HeartbeatTimeout:    mediaHeartbeatTimeout,
		RetryPolicy:         mediaRetry,
	})
	if err := workflow.ExecuteActivity(pctx, a.ProbeMedia, assetID).Get(pctx, &plan); err != nil {
		return fail("probe", err)
	}
	done := map[string]bool{}
	for _, r := range plan.DoneRenditions {
		done[r] = true
	}
	p := plan.Probe
	tctx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		// Generous: a slow machine may transcode slower than real time.
		StartToCloseTimeout: time.Hour + time.Duration(20*p.DurationSeconds)*time.Second,
		// A killed worker is noticed within this and the rendition starts
		// again on another one.
		HeartbeatTimeout: mediaHeartbeatTimeout,
		RetryPolicy:      mediaRetry,
	})
	for _, r := range MediaLadder(p.Width, p.Height) {
		if done[r.Name] {
			continue
		}
		in := TranscodeInput{AssetID: assetID, Rendition: r, DurationSeconds: p.DurationSeconds, HasAudio: p.HasAudio}
		if err := workflow.ExecuteActivity(tctx, a.TranscodeRendition, in).Get(tctx, nil); err != nil {
			return fail("transcode "+r.Name, err)
		}
	}
	ictx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 30 * time.Minute,
		HeartbeatTimeout:    mediaHeartbeatTimeout,
		RetryPolicy:         mediaRetry,
	})
	if err := workflow.ExecuteActivity(ictx, a.MakeMediaImages, MediaImagesInput{AssetID: assetID, DurationSeconds: p.DurationSeconds}).Get(ictx, nil); err != nil {
		return fail("images", err)
	}
	if len(p.SubtitleStreams) > 0 {
		if err := workflow.ExecuteActivity(ictx, a.ExtractSubtitles, SubtitlesInput{AssetID: assetID, Streams: p.SubtitleStreams}).Get(ictx, nil); err != nil {
			return fail("subtitles", err)
		}
	}
	rctx := workflow.WithActivityOptions(ctx, mediaStoreOptions)
	if err := workflow.ExecuteActivity(rctx, a.MarkMediaReady, assetID).Get(rctx, nil); err != nil {
		return fail("ready", err)
	}
	return nil
}

const mediaHeartbeatTimeout = 20 * time.Second

// mediaRetry gives each step a few tries: enough for a killed worker or a
// passing disk or database hiccup, few enough that a file ffmpeg chokes on
// reaches erro in minutes.
var mediaRetry = &temporal.RetryPolicy{
	InitialInterval:        5 * time.Second,
	BackoffCoefficient:     2,
	MaximumInterval:        time.Minute,
	MaximumAttempts:        3,
	NonRetryableErrorTypes: []string{mediaUnreadable},
}

// mediaStoreOptions are those of the steps that only write to the store.
var mediaStoreOptions = workflow.ActivityOptions{
	StartToCloseTimeout: time.Minute,
	RetryPolicy: &temporal.RetryPolicy{
		InitialInterval:    time.Second,
		BackoffCoefficient: 2,
		MaximumInterval:    30 * time.Second,
		MaximumAttempts:    10,
	},
}

// mediaFailureReason is the pt-BR reason shown to staff for a failed step.
func mediaFailureReason(step string, err error) string {
	var app *temporal.ApplicationError
	if errors.As(err, &app) && app.Type() == mediaUnreadable {
		return app.Message()
	}
	var what string
	switch {
	case step == "probe":
		what = "Não foi possível analisar o arquivo de vídeo"
	case strings.HasPrefix(step, "transcode "):
		what = "Não foi possível converter o vídeo em " + strings.TrimPrefix(step, "transcode ")
	case step == "images":
		what = "Não foi possível gerar a capa e as miniaturas do vídeo"
	case step == "subtitles":
		what = "Não foi possível converter as legendas do vídeo"
	default:
		what = "Não foi possível concluir o processamento do vídeo"
	}
	var timeout *temporal.TimeoutError
	switch {
	case errors.As(err, &timeout):
		return what + " (tempo esgotado)."
	case errors.As(err, &app) && app.Type() == ffmpegFailed:
		return what + " (" + truncate(app.Message(), 300) + ")."
	}
	return what + "."
}

func truncate(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

func (a *MediaActivities) ffmpeg() string {
	if a.FFmpeg == "" {
		return "ffmpeg"
	}
	return a.FFmpeg
}

func (a *MediaActivities) ffprobe() string {
	if a.FFprobe == "" {
		return "ffprobe"
	}
	return a.FFprobe
}

func (a *MediaActivities) preset() string {
	if a.Preset == "" {
		return "veryfast"
	}
	return a.Preset
}

// tempDir makes a fresh directory under WorkDir for one step; the step
// gives it back with releaseDir.
func (a *MediaActivities) tempDir(assetID, step string) (string, error) {
	base := a.WorkDir
	if base == "" {
		base = os.TempDir()
	}
	if err := os.MkdirAll(base, 0o750); err != nil {
		return "", fmt.Errorf("media work dir: %w", err)
	}
	a.dirsMu.Lock()
	defer a.dirsMu.Unlock()
	dir, err := os.MkdirTemp(base, mediaWorkPrefix+assetID+"-"+step+"-")
	if err != nil {
		return "", fmt.Errorf("media work dir: %w", err)
	}
	if a.inUse == nil {
		a.inUse = map[string]bool{}
	}
	a.inUse[dir] = true
	return dir, nil
}

// releaseDir removes a step's directory when the step ends.
func (a *MediaActivities) releaseDir(dir string) {
	a.dirsMu.Lock()
	defer a.dirsMu.Unlock()
	delete(a.inUse, dir)
	_ = os.RemoveAll(dir)
}

// mediaWorkPrefix starts the name of every step directory.
const mediaWorkPrefix = "media-"

// MediaWorkStaleAfter is how long a step directory must have gone without
// any write before SweepMediaWorkDir takes it for the leftover of a killed
// worker. A running transcode writes a segment every few seconds and the
// other steps write their files at once, so an hour without a write is a
// step no process is running, even a worker in another process sharing
// WorkDir.
const MediaWorkStaleAfter = time.Hour

// SweepMediaWorkDir removes the step directories under a.WorkDir that a
// worker killed mid-step (kill -9 skips its deferred cleanup) left behind:
// those no step of this process is using and in which nothing was written
// for olderThan. Nothing is swept when WorkDir is empty (os.TempDir is
// shared with other programs). It returns how many directories went.
// It is a function, not a method, so that registering the activities does
// not make it an activity.
func SweepMediaWorkDir(a *MediaActivities, olderThan time.Duration) (int, error) {
	if a.WorkDir == "" {
		return 0, nil
	}
	entries, err := os.ReadDir(a.WorkDir)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("media work dir: %w", err)
	}
	cutoff := time.Now().Add(-olderThan)
	// Held throughout, so no step can take a directory up while it is
	// being judged (tempDir makes and records its directory under it).
	a.dirsMu.Lock()
	defer a.dirsMu.Unlock()
	removed := 0
	var errs []error
	for _, e := range entries {
		dir := filepath.Join(a.WorkDir, e.Name())
		if !e.IsDir() || !strings.HasPrefix(e.Name(), mediaWorkPrefix) || a.inUse[dir] {
			continue
		}
		latest, err := newestWrite(dir)
		if err != nil || latest.After(cutoff) {
			continue
		}
		if err := os.RemoveAll(dir); err != nil {
			errs = append(errs, fmt.Errorf("remove leftover %s: %w", dir, err))
			continue
		}
		removed++
	}
	return removed, errors.Join(errs...)
}

// newestWrite is the latest modification time of dir and anything in it.
func newestWrite(dir string) (time.Time, error) {
	var latest time.Time
	err := filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if info.ModTime().After(latest) {
			latest = info.ModTime()
		}
		return nil
	})
	return latest, err
}

// ffmpegFailed is the error type of an ffmpeg run that failed; its
// message is ffmpeg's own last words, which make the stored reason useful.
const ffmpegFailed = "FFmpegFailed"

// ffmpegError gives an ffmpeg failure its own (retryable) error type.
func ffmpegError(err error) error {
	var fe *ffmpeg.ExitError
	if errors.As(err, &fe) {
		return temporal.NewApplicationErrorWithCause("ffmpeg: "+fe.Message, ffmpegFailed, err)
	}
	return err
}

// unreadable is the non-retryable error of a file that is not a video.
func unreadable(detail string) error {
	return temporal.NewNonRetryableApplicationError("O arquivo não pôde ser lido como vídeo ("+detail+").", mediaUnreadable, nil)
}

// refused is the non-retryable error of a video over the library's
// limits; reason is the pt-BR message the asset keeps.
func refused(reason string) error {
	return temporal.NewNonRetryableApplicationError(reason, mediaUnreadable, nil)
}

// outputLimit is the -t of an encode: the probed duration and a second of
// slack, so a file whose frames run past what its header declared is cut
// there instead of being encoded for as long as it goes on.
func outputLimit(durationSeconds float64) string {
	return strconv.FormatFloat(math.Min(durationSeconds, media.MaxVideoSeconds)+1, 'f', 3, 64)
}

// ProbeMedia reads the original with ffprobe and records what it holds.
func (a *MediaActivities) ProbeMedia(ctx context.Context, assetID string) (MediaPlan, error) {
	defer keepAlive(ctx)()
	src, err := a.Store.Source(ctx, assetID)
	if err != nil {
		return MediaPlan{}, fmt.Errorf("media source %s: %w", assetID, err)
	}
	info, err := ffmpeg.Probe(ctx, a.ffprobe(), src.Demuxer, src.Path)
	if errors.Is(err, ffmpeg.ErrUnreadable) || errors.Is(err, ffmpeg.ErrDemuxer) {
		activity.GetLogger(ctx).Warn("ffprobe cannot read the original", "asset", assetID, "error", err)
		return MediaPlan{}, unreadable("formato não reconhecido")
	}
	if err != nil {
		return MediaPlan{}, err
	}
	v, ok := info.Video()
	if !ok {
		return MediaPlan{}, unreadable("nenhuma faixa de vídeo encontrada")
	}
	w, h := v.DisplaySize()
	if w <= 0 || h <= 0 {
		return MediaPlan{}, unreadable("tamanho da imagem desconhecido")
	}
	if info.DurationSeconds <= 0 {
		return MediaPlan{}, unreadable("duração desconhecida")
	}
	p := media.Probe{DurationSeconds: info.DurationSeconds, Width: w, Height: h, HasAudio: info.HasAudio(), VideoCodec: v.CodecName,
		FrameRate: v.FrameRate}
	for _, s := range info.TextSubtitles() {
		p.SubtitleStreams = append(p.SubtitleStreams, s.Index)
	}
	// A file that claims more than the library takes is refused before
	// anything is encoded.
	if err := media.CheckProbe(p, src.SizeBytes); err != nil {
		activity.GetLogger(ctx).Warn("original refused after its probe", "asset", assetID, "error", err)
		return MediaPlan{}, refused(core.ErrorMessage(err))
	}
	if err := a.Store.SetProbe(ctx, assetID, p); err != nil {
		return MediaPlan{}, fmt.Errorf("record probe of %s: %w", assetID, err)
	}
	return MediaPlan{Probe: p, DoneRenditions: src.DoneRenditions}, nil
}

// progressEvery is how often a running transcode heartbeats and writes its
// percent to the store.
const progressEvery = time.Second

// TranscodeRendition encodes one HLS rendition (H.264, AAC when the source
// has sound, 4-second independent segments) in its own temporary
// directory, heartbeating and writing its percent every second or so, and
// hands the result to the store. ffmpeg is killed when the activity is
// cancelled or times out.
func (a *MediaActivities) TranscodeRendition(ctx context.Context, in TranscodeInput) (media.RenditionResult, error) {
	r := in.Rendition
	res := media.RenditionResult{Name: r.Name, Width: r.Width, Height: r.Height, Playlist: r.Name + "/index.m3u8"}
	src, err := a.Store.Source(ctx, in.AssetID)
	if err != nil {
		return res, fmt.Errorf("media source %s: %w", in.AssetID, err)
	}
	// A previous try may have saved the rendition and died before
	// reporting it: do not encode it again.
	if slices.Contains(src.DoneRenditions, r.Name) {
		return res, nil
	}
	dir, err := a.tempDir(in.AssetID, r.Name)
	if err != nil {
		return res, err
	}
	defer a.releaseDir(dir)
	out := filepath.Join(dir, r.Name)
	if err := os.Mkdir(out, 0o750); err != nil {
		return res, fmt.Errorf("rendition dir: %w", err)
	}

	input, err := ffmpeg.Input(src.Demuxer, src.Path)
	if err != nil {
		return res, unreadable("formato não reconhecido")
	}
	rep := newProgressReporter(ctx, a.Store, in.AssetID, r.Name)
	rep.write(0)
	stop := rep.run(progressEvery)
	args := append(input, "-map", "0:v:0")
	if in.HasAudio {
		args = append(args, "-map", "0:a:0")
	}
	args = append(args,
		"-vf", fmt.Sprintf("scale=%d:%d,setsar=1", r.Width, r.Height),
		"-c:v", "libx264", "-preset", a.preset(), "-profile:v", "high", "-pix_fmt", "yuv420p",
		"-b:v", fmt.Sprintf("%dk", r.VideoKbps), "-maxrate", fmt.Sprintf("%dk", r.VideoKbps*107/100),
		"-bufsize", fmt.Sprintf("%dk", r.VideoKbps*2),
		// A key frame at every segment boundary makes each segment start
		// decodable on its own (EXT-X-INDEPENDENT-SEGMENTS).
		"-force_key_frames", "expr:gte(t,n_forced*4)", "-sc_threshold", "0",
		// Never more frames per second than a player shows, nor more
		// seconds than the probe found.
		"-fpsmax", strconv.Itoa(media.OutputFrameRate), "-t", outputLimit(in.DurationSeconds),
	)
	if in.HasAudio {
		args = append(args, "-c:a", "aac", "-b:a", fmt.Sprintf("%dk", r.AudioKbps), "-ac", "2")
	}
	args = append(args,
		"-f", "hls", "-hls_time", "4", "-hls_playlist_type", "vod",
		"-hls_flags", "independent_segments", "-hls_segment_type", "mpegts",
		"-hls_segment_filename", filepath.Join(out, "seg_%05d.ts"),
		filepath.Join(out, "index.m3u8"),
	)
	total := time.Duration(in.DurationSeconds * float64(time.Second))
	err = ffmpeg.Run(ctx, a.ffmpeg(), args, func(t time.Duration) {
		if total > 0 {
			rep.set(min(99, int(100*t/total)))
		}
	})
	stop()
	if err != nil {
		return res, ffmpegError(fmt.Errorf("transcode %s of %s: %w", r.Name, in.AssetID, err))
	}
	res.BandwidthBps, err = peakBandwidth(filepath.Join(out, "index.m3u8"))
	if err != nil {
		return res, err
	}
	rep.write(100)
	if err := a.Store.SaveRendition(ctx, in.AssetID, res, out); err != nil {
		return res, fmt.Errorf("save rendition %s of %s: %w", r.Name, in.AssetID, err)
	}
	return res, nil
}

// peakBandwidth is the highest bit rate of any segment of a media
// playlist: what HLS's BANDWIDTH attribute means.
func peakBandwidth(playlist string) (int, error) {
	b, err := os.ReadFile(playlist)
	if err != nil {
		return 0, fmt.Errorf("read playlist: %w", err)
	}
	dir := filepath.Dir(playlist)
	var peak float64
	var dur float64
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "#EXTINF:"):
			v, _, _ := strings.Cut(strings.TrimPrefix(line, "#EXTINF:"), ",")
			dur, _ = strconv.ParseFloat(v, 64)
		case line != "" && !strings.HasPrefix(line, "#"):
			st, err := os.Stat(filepath.Join(dir, line))
			if err != nil {
				return 0, fmt.Errorf("segment of playlist: %w", err)
			}
			if dur > 0 {
				peak = max(peak, float64(st.Size())*8/dur)
			}
		}
	}
	if peak == 0 {
		return 0, fmt.Errorf("playlist %s has no segments", playlist)
	}
	return int(math.Ceil(peak)), nil
}

// progressReporter heartbeats a transcode's percent and writes it to the
// store: every tick, so the admin's poll sees the rendition move and the
// server sees the worker alive even when ffmpeg reports nothing new.
type progressReporter struct {
	ctx       context.Context
	store     media.ProcessingStore
	assetID   string
	rendition string
	percent   atomic.Int64
}

func newProgressReporter(ctx context.Context, store media.ProcessingStore, assetID, rendition string) *progressReporter {
	return &progressReporter{ctx: ctx, store: store, assetID: assetID, rendition: rendition}
}

func (p *progressReporter) set(percent int) { p.percent.Store(int64(percent)) }

func (p *progressReporter) write(percent int) {
	p.set(percent)
	activity.RecordHeartbeat(p.ctx, percent)
	// A failed progress write only delays what the admin sees; the
	// transcode goes on.
	wctx, cancel := context.WithTimeout(p.ctx, 5*time.Second)
	defer cancel()
	if err := p.store.SetProgress(wctx, p.assetID, p.rendition, percent); err != nil && p.ctx.Err() == nil {
		activity.GetLogger(p.ctx).Warn("media progress not recorded", "asset", p.assetID, "rendition", p.rendition, "error", err)
	}
}

// run writes the current percent every interval until the returned stop
// is called.
func (p *progressReporter) run(every time.Duration) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-p.ctx.Done():
				return
			case <-tick.C:
				p.write(int(p.percent.Load()))
			}
		}
	}()
	return func() { close(done); <-finished }
}

// keepAlive heartbeats every few seconds until stop is called, for steps
// with no progress of their own.
func keepAlive(ctx context.Context) (stop func()) {
	done := make(chan struct{})
	go func() {
		tick := time.NewTicker(5 * time.Second)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-tick.C:
				activity.RecordHeartbeat(ctx)
			}
		}
	}()
	return func() { close(done) }
}

// MakeMediaImages takes the poster (at 10 % of the duration, where a title
// card or a black first frame is usually over) and three thumbnails (at
// 25, 50 and 75 %), and hands them to the store.
func (a *MediaActivities) MakeMediaImages(ctx context.Context, in MediaImagesInput) error {
	defer keepAlive(ctx)()
	src, err := a.Store.Source(ctx, in.AssetID)
	if err != nil {
		return fmt.Errorf("media source %s: %w", in.AssetID, err)
	}
	dir, err := a.tempDir(in.AssetID, "img")
	if err != nil {
		return err
	}
	defer a.releaseDir(dir)
	frame := func(at float64, maxLines int, file string) error {
		input, err := ffmpeg.Input(src.Demuxer, src.Path)
		if err != nil {
			return unreadable("formato não reconhecido")
		}
		args := append([]string{"-ss", strconv.FormatFloat(at, 'f', 3, 64)}, input...)
		args = append(args, "-frames:v", "1", "-an", "-sn",
			"-vf", fmt.Sprintf("scale=-2:'min(%d,ih)'", maxLines), "-q:v", "3", "-update", "1", file)
		if err := ffmpeg.Run(ctx, a.ffmpeg(), args, nil); err != nil {
			return ffmpegError(fmt.Errorf("frame at %.1fs of %s: %w", at, in.AssetID, err))
		}
		if st, err := os.Stat(file); err != nil || st.Size() == 0 {
			return fmt.Errorf("no frame at %.1fs of %s", at, in.AssetID)
		}
		return nil
	}
	poster := filepath.Join(dir, "poster.jpg")
	if err := frame(in.DurationSeconds*0.10, 720, poster); err != nil {
		return err
	}
	var thumbs []string
	for i, f := range []float64{0.25, 0.50, 0.75} {
		file := filepath.Join(dir, fmt.Sprintf("thumb-%d.jpg", i+1))
		if err := frame(in.DurationSeconds*f, 360, file); err != nil {
			return err
		}
		thumbs = append(thumbs, file)
	}
	if err := a.Store.SaveImages(ctx, in.AssetID, poster, thumbs); err != nil {
		return fmt.Errorf("save images of %s: %w", in.AssetID, err)
	}
	return nil
}

// subtitleNames name a track by its language tag when it has no title.
var subtitleNames = map[string]string{
	"por": "Português", "pt": "Português", "eng": "English", "en": "English",
	"spa": "Español", "es": "Español", "fra": "Français", "fre": "Français", "fr": "Français",
}

// ExtractSubtitles converts the source's text subtitle streams to WebVTT
// and hands them to the store.
func (a *MediaActivities) ExtractSubtitles(ctx context.Context, in SubtitlesInput) error {
	defer keepAlive(ctx)()
	src, err := a.Store.Source(ctx, in.AssetID)
	if err != nil {
		return fmt.Errorf("media source %s: %w", in.AssetID, err)
	}
	info, err := ffmpeg.Probe(ctx, a.ffprobe(), src.Demuxer, src.Path)
	if err != nil {
		return fmt.Errorf("probe subtitles of %s: %w", in.AssetID, err)
	}
	dir, err := a.tempDir(in.AssetID, "subs")
	if err != nil {
		return err
	}
	defer a.releaseDir(dir)
	byIndex := map[int]ffmpeg.Stream{}
	for _, s := range info.TextSubtitles() {
		byIndex[s.Index] = s
	}
	args, err := ffmpeg.Input(src.Demuxer, src.Path)
	if err != nil {
		return unreadable("formato não reconhecido")
	}
	var tracks []media.SubtitleResult
	for n, idx := range in.Streams {
		s, ok := byIndex[idx]
		if !ok {
			return fmt.Errorf("subtitle stream %d of %s is gone", idx, in.AssetID)
		}
		lang := s.Language
		if lang == "" {
			lang = "und"
		}
		name := s.Title
		if name == "" {
			name = subtitleNames[lang]
		}
		if name == "" {
			name = fmt.Sprintf("Legenda %d", n+1)
		}
		file := fmt.Sprintf("sub-%d.vtt", idx)
		args = append(args, "-map", fmt.Sprintf("0:%d", idx), "-c:s", "webvtt", "-f", "webvtt", filepath.Join(dir, file))
		tracks = append(tracks, media.SubtitleResult{Language: lang, Name: name, File: file})
	}
	if err := ffmpeg.Run(ctx, a.ffmpeg(), args, nil); err != nil {
		return ffmpegError(fmt.Errorf("subtitles of %s: %w", in.AssetID, err))
	}
	if err := a.Store.SaveSubtitles(ctx, in.AssetID, tracks, dir); err != nil {
		return fmt.Errorf("save subtitles of %s: %w", in.AssetID, err)
	}
	return nil
}

// MarkMediaReady makes the asset pronto (the store writes the master
// playlist).
func (a *MediaActivities) MarkMediaReady(ctx context.Context, assetID string) error {
	return a.Store.Ready(ctx, assetID)
}

// MarkMediaFailed sets the asset erro with reason; the original stays.
func (a *MediaActivities) MarkMediaFailed(ctx context.Context, assetID, reason string) error {
	return a.Store.Failed(ctx, assetID, reason)
}
