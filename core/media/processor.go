package media

import "context"

// Processing starts and stops the processing of a video asset; the
// composition root wires it to the workflow engine, which this package
// never sees. Starting the same attempt twice runs it once; cancelling an
// attempt that is not running is not an error.
type Processing interface {
	Start(ctx context.Context, assetID string, attempt int) error
	Cancel(ctx context.Context, assetID string, attempt int) error
}

// ProcessingStore is what the video processing needs from the library
// (the Service implements it); the processing never reads its tables.
type ProcessingStore interface {
	// Source returns a local file path to read the original from (for the
	// disk store the file itself; other stores may download to a temp file)
	// and the rendition names already done.
	Source(ctx context.Context, assetID string) (Source, error)
	// SetProbe records duration, width, height, audio and subtitle streams.
	SetProbe(ctx context.Context, assetID string, p Probe) error
	// SetProgress records one rendition's percent; it also updates the
	// asset's overall progress_percent.
	SetProgress(ctx context.Context, assetID, rendition string, percent int) error
	// SaveRendition moves a finished rendition directory (index.m3u8 +
	// segments) into storage and records it done.
	SaveRendition(ctx context.Context, assetID string, r RenditionResult, dir string) error
	// SaveImages stores the poster and thumbnails (local jpg paths).
	SaveImages(ctx context.Context, assetID string, poster string, thumbnails []string) error
	// SaveSubtitles stores WebVTT tracks whose File names are relative to dir.
	SaveSubtitles(ctx context.Context, assetID string, tracks []SubtitleResult, dir string) error
	// Ready writes master.m3u8 from the recorded renditions and subtitles
	// and sets the asset pronto.
	Ready(ctx context.Context, assetID string) error
	// Failed sets the asset erro with a pt-BR reason; the original is kept.
	Failed(ctx context.Context, assetID, reason string) error
}

// The Service is the store the video processing writes through.
var _ ProcessingStore = (*Service)(nil)

// Source is where an asset's original is and what is done already.
type Source struct {
	Path           string
	HLSPrefix      string
	DoneRenditions []string
	// Demuxer is the ffmpeg demuxer of the container the original's bytes
	// were recognised as when uploaded ("mov" for mp4 and mov, "matroska"
	// for webm and mkv): ffprobe and ffmpeg read it as that and nothing else.
	Demuxer string
	// SizeBytes is the original's size.
	SizeBytes int64
}

// Probe is what ffprobe found in the original.
type Probe struct {
	DurationSeconds float64
	Width, Height   int
	HasAudio        bool
	SubtitleStreams []int
	VideoCodec      string
	// FrameRate is the video stream's frames per second (0 when unknown).
	FrameRate float64
}

// RenditionResult is one finished HLS rendition.
type RenditionResult struct {
	Name                        string
	Width, Height, BandwidthBps int
	Playlist                    string // relative name, e.g. "720p/index.m3u8"
}

// SubtitleResult is one WebVTT track.
type SubtitleResult struct {
	Language, Name, File string
}
