package imaging

import (
	"bytes"
	"context"
	"image"
	"io"
	"runtime"
	"sync"
	"time"

	"golang.org/x/image/draw"

	"github.com/vetclube/vetclube/core"
)

// DefaultMaxWait is how long a request waits for a decoding slot when its
// own deadline is later or absent: past it the server is saturated, and
// saying so beats an upload spinner that never ends.
const DefaultMaxWait = 10 * time.Second

// Decoder decodes vetted images in a bounded number of concurrent slots, so
// the memory in use for images is at most slots × Limits.MaxDecodeBytes.
type Decoder struct {
	lim     Limits
	slots   chan struct{}
	maxWait time.Duration
	// decode is the pixel decoder; tests replace it to prove refused
	// images never reach it and to hold slots.
	decode func(Format, io.Reader) (image.Image, error)
}

// NewDecoder returns a Decoder applying lim with at most concurrent decodes
// at a time; a request waits at most maxWait (or until its context ends)
// for a slot.
func NewDecoder(lim Limits, concurrent int, maxWait time.Duration) *Decoder {
	return &Decoder{lim: lim, slots: make(chan struct{}, max(1, concurrent)), maxWait: maxWait, decode: decodePixels}
}

// Shared is the process-wide decoder: one pool of slots for every feature
// that accepts images, because they share one machine's memory.
var Shared = sync.OnceValue(func() *Decoder {
	return NewDecoder(DefaultLimits, runtime.GOMAXPROCS(0), DefaultMaxWait)
})

// WithLimits returns a decoder applying lim that shares d's slots (and so
// its memory budget): a feature with other limits, such as GIF allowed, still
// waits its turn with every other image.
func (d *Decoder) WithLimits(lim Limits) *Decoder {
	return &Decoder{lim: lim, slots: d.slots, maxWait: d.maxWait, decode: d.decode}
}

// Limits returns the limits d applies.
func (d *Decoder) Limits() Limits { return d.lim }

// acquire takes a slot, giving up with a pt-BR EUNAVAILABLE (503) when ctx
// ends or maxWait passes first.
func (d *Decoder) acquire(ctx context.Context) (release func(), err error) {
	select {
	case d.slots <- struct{}{}:
		return func() { <-d.slots }, nil
	default:
	}
	timer := time.NewTimer(d.maxWait)
	defer timer.Stop()
	select {
	case d.slots <- struct{}{}:
		return func() { <-d.slots }, nil
	case <-ctx.Done():
		return nil, &core.Error{Code: core.EUNAVAILABLE, Message: MsgBusy, Err: ctx.Err()}
	case <-timer.C:
		return nil, &core.Error{Code: core.EUNAVAILABLE, Message: MsgBusy, Err: context.DeadlineExceeded}
	}
}

// Decode checks raw's header against the limits (refusing without decoding
// anything) and then decodes it in a slot. Errors are *core.Error with a
// pt-BR message: EINVALID for the file, EUNAVAILABLE when no slot frees up.
func (d *Decoder) Decode(ctx context.Context, raw []byte) (image.Image, Header, error) {
	hdr, err := Inspect(raw, d.lim)
	if err != nil {
		return nil, Header{}, err
	}
	release, err := d.acquire(ctx)
	if err != nil {
		return nil, Header{}, err
	}
	defer release()
	img, err := d.pixels(hdr, raw)
	return img, hdr, err
}

// Thumbnail is Decode followed by Fit(maxSide), both inside the slot: the
// resize costs memory and CPU too.
func (d *Decoder) Thumbnail(ctx context.Context, raw []byte, maxSide int) (*image.NRGBA, Header, error) {
	hdr, err := Inspect(raw, d.lim)
	if err != nil {
		return nil, Header{}, err
	}
	release, err := d.acquire(ctx)
	if err != nil {
		return nil, Header{}, err
	}
	defer release()
	img, err := d.pixels(hdr, raw)
	if err != nil {
		return nil, Header{}, err
	}
	return Fit(img, maxSide), hdr, nil
}

func (d *Decoder) pixels(hdr Header, raw []byte) (image.Image, error) {
	img, err := d.decode(hdr.Format, bytes.NewReader(raw))
	if err != nil {
		return nil, &core.Error{Code: core.EINVALID, Message: MsgNotImage, Err: err}
	}
	// The decoders size their buffers from the header Inspect judged; a
	// different result means a file this package does not understand.
	if b := img.Bounds(); b.Dx() != hdr.Width || b.Dy() != hdr.Height {
		return nil, invalid(MsgNotImage)
	}
	return img, nil
}

// Fit scales src down to fit maxSide × maxSide, keeping its aspect ratio
// (an image already inside is copied at its size). The cost is bounded by
// the output, not the input: a cheap sampling pass first brings src to at
// most twice the output on each axis, and the Catmull-Rom pass that gives
// the quality then works on that. A direct Catmull-Rom pass would allocate
// an output-width × source-height float buffer, which explodes on tall or
// wide images.
func Fit(src image.Image, maxSide int) *image.NRGBA {
	b := src.Bounds()
	sw, sh := b.Dx(), b.Dy()
	w, h := sw, sh
	if w > maxSide || h > maxSide {
		if w >= h {
			w, h = maxSide, max(1, int(int64(sh)*int64(maxSide)/int64(sw)))
		} else {
			w, h = max(1, int(int64(sw)*int64(maxSide)/int64(sh))), maxSide
		}
	}
	dst := image.NewNRGBA(image.Rect(0, 0, w, h))
	if w == sw && h == sh {
		draw.Draw(dst, dst.Bounds(), src, b.Min, draw.Src)
		return dst
	}
	mid, midBounds := src, b
	if iw, ih := min(sw, 2*w), min(sh, 2*h); iw < sw || ih < sh {
		small := image.NewRGBA(image.Rect(0, 0, iw, ih))
		draw.ApproxBiLinear.Scale(small, small.Bounds(), src, b, draw.Src, nil)
		mid, midBounds = small, small.Bounds()
	}
	draw.CatmullRom.Scale(dst, dst.Bounds(), mid, midBounds, draw.Src, nil)
	return dst
}
