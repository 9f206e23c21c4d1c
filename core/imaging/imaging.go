// Package imaging is the one gate every uploaded image passes through
// (avatars today; course thumbnails and community pictures later). A small
// file can promise an enormous canvas, so the header is read and judged
// before any pixel is decoded: each side, the pixel count and the memory the
// decoder would allocate for that format and colour depth all have a ceiling.
// Decoding then runs in a bounded number of slots, and resizing costs the
// same whatever the aspect ratio.
package imaging

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	stddraw "image/draw"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"
	"net/http"
	"strings"

	"golang.org/x/image/webp"

	"github.com/vetclube/vetclube/core"
)

// Format is an image format this package decodes, identified from the
// file's bytes, never from its name or declared Content-Type.
type Format string

// Supported formats.
const (
	JPEG Format = "jpeg"
	PNG  Format = "png"
	WebP Format = "webp"
	// GIF is decoded only by limits that allow it (Limits.AllowGIF), as its
	// first frame: a still image.
	GIF Format = "gif"
)

// Limits bounds what an image may cost to decode.
type Limits struct {
	// MaxSide is the largest width or height accepted, in pixels.
	MaxSide int
	// MaxPixels is the largest width × height accepted.
	MaxPixels int64
	// MaxDecodeBytes is the memory one decode may allocate, estimated from
	// the header: pixels × bytes per pixel of the decoded image, plus the
	// decoder's own working buffers (progressive JPEG coefficients,
	// interlaced PNG passes, lossless WebP transforms).
	MaxDecodeBytes int64
	// AllowGIF accepts GIF, decoded to its first frame (animation is not
	// kept). Off in DefaultLimits: avatars refuse GIF; community pictures
	// accept it.
	AllowGIF bool
}

// DefaultLimits fit any photo a phone takes (12–24 MP, 8-bit) while keeping
// one decode under ~160 MiB.
var DefaultLimits = Limits{MaxSide: 8192, MaxPixels: 25_000_000, MaxDecodeBytes: 160 << 20}

// Header is what the file says about itself, read without decoding pixels.
type Header struct {
	Format Format
	Width  int
	Height int
	// DecodeBytes is the estimated memory decoding allocates.
	DecodeBytes int64
}

// User-facing messages (pt-BR).
const (
	MsgNotImage    = "O arquivo enviado não é uma imagem válida."
	MsgUnsupported = "Formato de imagem não suportado. Envie uma imagem JPEG, PNG ou WebP."
	MsgTooHeavy    = "A imagem é pesada demais para processar (resolução ou profundidade de cor muito altas). Envie uma foto menor, em JPEG ou PNG de 8 bits."
	MsgBusy        = "Muitas imagens estão sendo processadas agora. Tente novamente em instantes."
)

// MsgTooLarge is the refusal of a side or pixel count over the limits.
func (l Limits) MsgTooLarge() string {
	return fmt.Sprintf("A imagem tem dimensões grandes demais. Envie uma imagem com até %d pixels de largura e de altura e até %d megapixels.",
		l.MaxSide, l.MaxPixels/1_000_000)
}

func invalid(msg string) error { return core.Errorf(core.EINVALID, "%s", msg) }

// Sniff identifies the format from the leading bytes. ok is false for
// anything else; other is true when the bytes are some other image format
// (GIF, BMP, ...), so the caller can say "unsupported" rather than "not an
// image".
func Sniff(raw []byte) (f Format, ok, other bool) {
	switch sniffed := http.DetectContentType(raw); sniffed {
	case "image/jpeg":
		return JPEG, true, false
	case "image/png":
		return PNG, true, false
	case "image/webp":
		return WebP, true, false
	default:
		return "", false, strings.HasPrefix(sniffed, "image/")
	}
}

// Inspect reads only the header of raw and refuses, with a pt-BR EINVALID
// error, anything that is not a supported image or that would exceed lim
// when decoded. It never decodes pixels.
func Inspect(raw []byte, lim Limits) (Header, error) {
	format, ok, other := Sniff(raw)
	if !ok && lim.AllowGIF && http.DetectContentType(raw) == "image/gif" {
		format, ok = GIF, true
	}
	if !ok {
		if other {
			return Header{}, invalid(MsgUnsupported)
		}
		return Header{}, invalid(MsgNotImage)
	}
	var cfg image.Config
	var err error
	switch format {
	case JPEG:
		cfg, err = jpeg.DecodeConfig(bytes.NewReader(raw))
	case PNG:
		cfg, err = png.DecodeConfig(bytes.NewReader(raw))
	case WebP:
		cfg, err = webp.DecodeConfig(bytes.NewReader(raw))
	case GIF:
		cfg, err = gif.DecodeConfig(bytes.NewReader(raw))
	}
	if err != nil || cfg.Width <= 0 || cfg.Height <= 0 {
		return Header{}, invalid(MsgNotImage)
	}
	w, h := int64(cfg.Width), int64(cfg.Height)
	if w > int64(lim.MaxSide) || h > int64(lim.MaxSide) || w*h > lim.MaxPixels {
		return Header{}, invalid(lim.MsgTooLarge())
	}
	hdr := Header{Format: format, Width: cfg.Width, Height: cfg.Height}
	hdr.DecodeBytes = decodeBytes(format, raw, cfg)
	if hdr.DecodeBytes > lim.MaxDecodeBytes {
		return Header{}, invalid(MsgTooHeavy)
	}
	return hdr, nil
}

// decodeBytes estimates what the standard decoders allocate for cfg. It is
// deliberately on the high side: refusing a borderline image costs a retry,
// admitting a heavy one costs the server.
func decodeBytes(format Format, raw []byte, cfg image.Config) int64 {
	pixels := int64(cfg.Width) * int64(cfg.Height)
	switch format {
	case PNG:
		n := pixels * int64(bytesPerPixel(cfg.ColorModel))
		// Interlaced (Adam7) images are decoded pass by pass into separate
		// images and then merged: about twice the memory.
		if len(raw) > 28 && raw[28] == 1 {
			n *= 2
		}
		return n
	case JPEG:
		sof, ok := jpegFrame(raw)
		if !ok {
			// DecodeConfig found a frame; the scan did not. Assume the
			// worst case: four full-resolution progressive components.
			return pixels * 4 * 5
		}
		var samples int64 // component samples, after chroma subsampling
		for _, c := range sof.comps {
			samples += pixels * int64(c.h*c.v) / int64(sof.hMax*sof.vMax)
		}
		n := samples // one byte per sample in image.Gray, YCbCr or CMYK
		if sof.progressive {
			// Progressive decoding keeps every DCT coefficient (int32) of
			// every component until the last scan.
			n += samples * 4
		}
		if len(sof.comps) == 4 || len(sof.comps) == 3 && sof.hMax == 1 && sof.vMax == 1 {
			// CMYK/YCCK and possibly-RGB frames are converted into a second,
			// 4-byte-per-pixel image after decoding.
			n += pixels * 4
		}
		return n
	case WebP:
		// A VP8X header does not say whether the bitstream inside is lossy
		// (YCbCr + alpha, 2.5 bytes) or lossless (NRGBA plus an ARGB copy
		// for its transforms, 8 bytes): count the heavier.
		return pixels * 8
	case GIF:
		// The first frame is paletted (1 byte per pixel, within the logical
		// screen); a frame smaller than the screen is drawn onto a second
		// screen-sized canvas.
		return pixels * 2
	}
	return pixels * 8
}

// bytesPerPixel is the size of one pixel of the image type a PNG with this
// colour model decodes into.
func bytesPerPixel(m color.Model) int {
	if _, ok := m.(color.Palette); ok {
		return 1
	}
	switch m {
	case color.GrayModel, color.AlphaModel:
		return 1
	case color.Gray16Model, color.Alpha16Model:
		return 2
	case color.RGBAModel, color.NRGBAModel, color.CMYKModel:
		return 4
	default: // RGBA64, NRGBA64 and anything unknown
		return 8
	}
}

type jpegComponent struct{ h, v int }

type jpegSOF struct {
	progressive bool
	hMax, vMax  int
	comps       []jpegComponent
}

// jpegFrame walks the JPEG marker segments up to the first frame header
// (SOFn), the one the standard decoder uses, and returns its sampling
// factors and whether it is progressive.
func jpegFrame(raw []byte) (jpegSOF, bool) {
	i := 2 // after SOI
	for i+4 <= len(raw) {
		if raw[i] != 0xFF {
			return jpegSOF{}, false
		}
		marker := raw[i+1]
		if marker == 0xFF { // fill byte
			i++
			continue
		}
		if marker == 0xD8 || (marker >= 0xD0 && marker <= 0xD7) || marker == 0x01 {
			i += 2 // markers without a length
			continue
		}
		n := int(binary.BigEndian.Uint16(raw[i+2:]))
		if n < 2 || i+2+n > len(raw) {
			return jpegSOF{}, false
		}
		seg := raw[i+4 : i+2+n]
		switch marker {
		case 0xC0, 0xC1, 0xC2:
			if len(seg) < 6 {
				return jpegSOF{}, false
			}
			nc := int(seg[5])
			if nc == 0 || len(seg) < 6+3*nc {
				return jpegSOF{}, false
			}
			sof := jpegSOF{progressive: marker == 0xC2, hMax: 1, vMax: 1}
			for c := range nc {
				hv := seg[6+3*c+1]
				h, v := max(1, int(hv>>4)), max(1, int(hv&0x0F))
				sof.comps = append(sof.comps, jpegComponent{h, v})
				sof.hMax, sof.vMax = max(sof.hMax, h), max(sof.vMax, v)
			}
			return sof, true
		case 0xDA, 0xD9: // start of scan or end of image before any frame
			return jpegSOF{}, false
		}
		i += 2 + n
	}
	return jpegSOF{}, false
}

// decodePixels decodes raw, already vetted by Inspect, with the standard
// decoder for format.
func decodePixels(format Format, r io.Reader) (image.Image, error) {
	switch format {
	case JPEG:
		return jpeg.Decode(r)
	case PNG:
		return png.Decode(r)
	case WebP:
		return webp.Decode(r)
	case GIF:
		return decodeGIF(r)
	}
	return nil, fmt.Errorf("imaging: unknown format %q", format)
}

// decodeGIF decodes the first frame of a GIF onto its logical screen, so the
// result has the size the header promised (a first frame may cover only part
// of the screen).
func decodeGIF(r io.Reader) (image.Image, error) {
	raw, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	cfg, err := gif.DecodeConfig(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	frame, err := gif.Decode(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	screen := image.Rect(0, 0, cfg.Width, cfg.Height)
	if frame.Bounds() == screen {
		return frame, nil
	}
	if !frame.Bounds().In(screen) {
		return nil, fmt.Errorf("imaging: gif frame %v outside the screen %v", frame.Bounds(), screen)
	}
	canvas := image.NewNRGBA(screen)
	stddraw.Draw(canvas, frame.Bounds(), frame, frame.Bounds().Min, stddraw.Src)
	return canvas, nil
}
