package media

import (
	"fmt"
	"math"

	"github.com/vetclube/vetclube/core"
)

// What a video must keep to be processed. A few kilobytes may declare
// hours of video at any size and frame rate: encoding what they claim would
// hold the machine's cores and fill its disk for hours while every other
// upload waits, so the probe's findings are judged before any encoding.
const (
	// MaxVideoSeconds is the longest video accepted (4 hours).
	MaxVideoSeconds = 4 * 60 * 60
	// MaxFrameRate is the highest frame rate a source may declare.
	MaxFrameRate = 120
	// MaxVideoLongSide and MaxVideoShortSide bound the picture (8K).
	MaxVideoLongSide  = 7680
	MaxVideoShortSide = 4320
	// MinBytesPerSecond is the fewest bytes a second of real video takes
	// (16 kbit/s, far below any watchable encoding): a file with fewer
	// claims a duration its bytes cannot hold.
	MinBytesPerSecond = 2000
	// OutputFrameRate caps the renditions' frame rate.
	OutputFrameRate = 60
)

// Reasons a video is refused after its probe; the asset keeps them in erro.
const (
	MsgVideoTooLong   = "O vídeo passa do limite de 4 horas de duração."
	MsgVideoFrameRate = "A taxa de quadros do vídeo (%s por segundo) passa do limite de 120."
	MsgVideoTooBig    = "A resolução do vídeo (%d×%d) passa do limite de 7680×4320."
	MsgVideoTooSparse = "O arquivo é pequeno demais para a duração que declara (%s): ele parece corrompido ou adulterado."
)

// CheckProbe judges what the probe found in an original of sizeBytes (0:
// unknown) against the limits above; the refusal is an EINVALID
// *core.Error whose message is the pt-BR reason.
func CheckProbe(p Probe, sizeBytes int64) error {
	switch {
	case p.DurationSeconds > MaxVideoSeconds:
		return core.Errorf(core.EINVALID, MsgVideoTooLong)
	case p.FrameRate > MaxFrameRate:
		return core.Errorf(core.EINVALID, MsgVideoFrameRate, formatRate(p.FrameRate))
	case max(p.Width, p.Height) > MaxVideoLongSide || min(p.Width, p.Height) > MaxVideoShortSide:
		return core.Errorf(core.EINVALID, MsgVideoTooBig, p.Width, p.Height)
	case sizeBytes > 0 && float64(sizeBytes) < MinBytesPerSecond*p.DurationSeconds:
		return core.Errorf(core.EINVALID, MsgVideoTooSparse, formatDuration(p.DurationSeconds))
	}
	return nil
}

func formatRate(f float64) string {
	if f == math.Trunc(f) {
		return fmt.Sprintf("%.0f", f)
	}
	return fmt.Sprintf("%.2f", f)
}

// formatDuration writes seconds as "1h05min", "12min" or "40s".
func formatDuration(seconds float64) string {
	s := int(math.Round(seconds))
	switch {
	case s >= 3600:
		return fmt.Sprintf("%dh%02dmin", s/3600, s%3600/60)
	case s >= 60:
		return fmt.Sprintf("%dmin", s/60)
	}
	return fmt.Sprintf("%ds", s)
}
