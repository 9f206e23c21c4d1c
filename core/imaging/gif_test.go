package imaging

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/imaging/imagingtest"
)

// GIF is refused by the default limits (avatars) and accepted, as its first
// frame on the full screen, by limits that allow it; the decoder made with
// WithLimits shares the original's slots.
func TestGIFOnlyWhereAllowed(t *testing.T) {
	screen := image.Rect(0, 0, 60, 40)
	pal := color.Palette{color.Black, color.White}
	first := image.NewPaletted(image.Rect(10, 5, 30, 25), pal) // smaller than the screen
	first.SetColorIndex(12, 6, 1)
	second := image.NewPaletted(screen, pal)
	var g bytes.Buffer
	if err := gif.EncodeAll(&g, &gif.GIF{Image: []*image.Paletted{first, second}, Delay: []int{5, 5},
		Config: image.Config{ColorModel: pal, Width: 60, Height: 40}}); err != nil {
		t.Fatal(err)
	}
	if _, err := Inspect(g.Bytes(), DefaultLimits); err == nil {
		t.Fatal("default limits accepted a GIF")
	} else {
		wantError(t, err, core.EINVALID, MsgUnsupported)
	}
	lim := DefaultLimits
	lim.AllowGIF = true
	base := NewDecoder(DefaultLimits, 1, 50*time.Millisecond)
	d := base.WithLimits(lim)
	img, hdr, err := d.Decode(context.Background(), g.Bytes())
	if err != nil || hdr.Format != GIF || img.Bounds() != screen {
		t.Fatalf("gif: %v %+v %v", img.Bounds(), hdr, err)
	}
	if r, _, _, _ := img.At(12, 6).RGBA(); r != 0xffff {
		t.Fatal("first frame not placed at its offset")
	}
	// Shared slots: while base holds its only slot, d waits and gives up.
	release, err := base.acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = d.Decode(context.Background(), g.Bytes())
	release()
	wantError(t, err, core.EUNAVAILABLE, MsgBusy)
	// A screen over the limits is refused from the header.
	huge := append([]byte("GIF89a"), 0x40, 0x9c, 0x40, 0x9c, 0, 0, 0) // 40000 × 40000
	huge = append(huge, 0x3b)
	if _, err := Inspect(huge, lim); err == nil {
		t.Fatal("huge gif accepted")
	}
}

func TestEncodeWritesPixelsOnly(t *testing.T) {
	opaque := imagingtest.Photo(30, 20)
	enc, err := Encode(opaque)
	if err != nil || enc.ContentType != "image/jpeg" || enc.Ext != ".jpg" {
		t.Fatalf("opaque: %+v %v", enc.ContentType, err)
	}
	if _, err := jpeg.Decode(bytes.NewReader(enc.Data)); err != nil {
		t.Fatal(err)
	}
	clear := image.NewNRGBA(image.Rect(0, 0, 10, 10))
	clear.Set(1, 1, color.NRGBA{10, 20, 30, 40})
	enc, err = Encode(clear)
	if err != nil || enc.ContentType != "image/png" || enc.Ext != ".png" {
		t.Fatalf("transparent: %+v %v", enc.ContentType, err)
	}
	if _, err := png.Decode(bytes.NewReader(enc.Data)); err != nil {
		t.Fatal(err)
	}
}
