package imaging

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/imaging/imagingtest"
)

func wantError(t *testing.T, err error, code, msg string) {
	t.Helper()
	var e *core.Error
	if !errors.As(err, &e) || e.Code != code || e.Message != msg {
		t.Fatalf("got %v, want %s %q", err, code, msg)
	}
}

// countingDecoder is a Decoder whose pixel decoder counts its calls.
func countingDecoder(lim Limits) (*Decoder, *atomic.Int32) {
	d := NewDecoder(lim, 2, time.Minute)
	var calls atomic.Int32
	real := d.decode
	d.decode = func(f Format, r io.Reader) (image.Image, error) {
		calls.Add(1)
		return real(f, r)
	}
	return d, &calls
}

func encodePNG(t testing.TB, img image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func encodeJPEG(t testing.TB, img image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, nil); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// The hostile images of the security probe are refused from their header:
// the pixel decoder is never called and almost nothing is allocated.
func TestHostileImagesRefusedBeforeDecoding(t *testing.T) {
	tooLarge := DefaultLimits.MsgTooLarge()
	cases := []struct {
		name string
		raw  []byte
		msg  string
	}{
		// 50,000,000×1, with its real (compressed) pixel data: ~50 KB.
		{"png 50000000x1", imagingtest.PNG(50_000_000, 1, 8, imagingtest.Gray, -1), tooLarge},
		{"png 1x50000000", imagingtest.PNG(1, 50_000_000, 8, imagingtest.Gray, 0), tooLarge},
		{"png 7071x7071 16-bit RGBA", imagingtest.PNG(7071, 7071, 16, imagingtest.RGBA, 16), tooLarge},
		{"png 9000x10", imagingtest.PNG(9000, 10, 8, imagingtest.RGB, -1), tooLarge},
		{"png 10x9000", imagingtest.PNG(10, 9000, 8, imagingtest.RGB, -1), tooLarge},
		{"png 8192x8192", imagingtest.PNG(8192, 8192, 8, imagingtest.Gray, 0), tooLarge},
		{"png 2^31 wide", imagingtest.PNG(1<<31-1, 1<<31-1, 8, imagingtest.Gray, 0), MsgNotImage},
		// Inside the side and pixel caps, but 8 bytes a pixel: 200 MB.
		{"png 5000x5000 16-bit RGBA", imagingtest.PNG(5000, 5000, 16, imagingtest.RGBA, 4), MsgTooHeavy},
		{"jpeg 9000x100", imagingtest.JPEG(9000, 100, false), tooLarge},
		{"jpeg 65535x65535", imagingtest.JPEG(65535, 65535, false), tooLarge},
		// 24 MP progressive: 1.5 samples a pixel, each kept as an int32
		// coefficient until the last scan.
		{"jpeg 6000x4000 progressive", imagingtest.JPEG(6000, 4000, true), MsgTooHeavy},
		{"webp 16384x16384", imagingtest.WebP(16384, 16384), tooLarge},
		{"webp 9000x2", imagingtest.WebP(9000, 2), tooLarge},
		{"webp 5000x5000", imagingtest.WebP(5000, 5000), MsgTooHeavy},
	}
	d, calls := countingDecoder(DefaultLimits)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, _, err := d.Decode(context.Background(), tc.raw)
			runtime.ReadMemStats(&after)
			wantError(t, err, core.EINVALID, tc.msg)
			if calls.Load() != 0 {
				t.Fatalf("the pixel decoder ran %d times", calls.Load())
			}
			// The header check reads a few hundred bytes; 4 MB leaves room
			// for the runtime's own bookkeeping, not for any canvas.
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 4<<20 {
				t.Errorf("refusing allocated %d bytes", grew)
			}
		})
	}
}

func TestInspectAcceptsOrdinaryImages(t *testing.T) {
	cases := []struct {
		name   string
		raw    []byte
		format Format
		w, h   int
	}{
		{"png", encodePNG(t, imagingtest.Photo(300, 200)), PNG, 300, 200},
		{"jpeg", encodeJPEG(t, imagingtest.Photo(64, 48)), JPEG, 64, 48},
		// A 12 MP camera photo, baseline and progressive: the headers only.
		{"jpeg 4000x3000", imagingtest.JPEG(4000, 3000, false), JPEG, 4000, 3000},
		{"jpeg 4000x3000 progressive", imagingtest.JPEG(4000, 3000, true), JPEG, 4000, 3000},
		{"jpeg 8192x3000", imagingtest.JPEG(8192, 3000, false), JPEG, 8192, 3000},
		{"png 5000x5000 8-bit RGBA", imagingtest.PNG(5000, 5000, 8, imagingtest.RGBA, 0), PNG, 5000, 5000},
		{"webp 4000x3000", imagingtest.WebP(4000, 3000), WebP, 4000, 3000},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h, err := Inspect(tc.raw, DefaultLimits)
			if err != nil {
				t.Fatal(err)
			}
			if h.Format != tc.format || h.Width != tc.w || h.Height != tc.h {
				t.Errorf("header %+v", h)
			}
		})
	}
}

// The format comes from the bytes: a name or Content-Type plays no part,
// and other image formats are told apart from non-images.
func TestInspectFormatFromBytes(t *testing.T) {
	var g bytes.Buffer
	if err := gif.Encode(&g, imagingtest.Photo(8, 8), nil); err != nil {
		t.Fatal(err)
	}
	png := encodePNG(t, imagingtest.Photo(8, 8))
	cases := []struct {
		name string
		raw  []byte
		msg  string
	}{
		{"gif", g.Bytes(), MsgUnsupported},
		{"text", []byte("isto não é uma imagem"), MsgNotImage},
		{"html named .png", []byte("<html><body>oi</body></html>"), MsgNotImage},
		{"png signature only", png[:8], MsgNotImage},
		{"png with broken header", append(append([]byte{}, png[:20]...), 0, 0), MsgNotImage},
		{"empty", nil, MsgNotImage},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Inspect(tc.raw, DefaultLimits)
			wantError(t, err, core.EINVALID, tc.msg)
		})
	}
}

func TestDecodeRefusesCorruptPixelsWithInvalid(t *testing.T) {
	d := NewDecoder(DefaultLimits, 1, time.Minute)
	raw := encodePNG(t, imagingtest.Photo(64, 64))
	_, _, err := d.Decode(context.Background(), raw[:len(raw)/2])
	wantError(t, err, core.EINVALID, MsgNotImage)
	// A header promising more rows than the data holds.
	_, _, err = d.Decode(context.Background(), imagingtest.PNG(100, 100, 8, imagingtest.Gray, 3))
	wantError(t, err, core.EINVALID, MsgNotImage)
}

// At most `slots` decodes run at once; the rest wait, and a waiting request
// whose context ends, or that waits past maxWait, is answered 503 in pt-BR.
func TestDecoderBoundsConcurrency(t *testing.T) {
	const slots, requests = 2, 6
	d := NewDecoder(DefaultLimits, slots, time.Minute)
	var running, peak atomic.Int32
	entered := make(chan struct{}, requests)
	release := make(chan struct{})
	real := d.decode
	d.decode = func(f Format, r io.Reader) (image.Image, error) {
		n := running.Add(1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		entered <- struct{}{}
		<-release
		running.Add(-1)
		return real(f, r)
	}
	raw := encodePNG(t, imagingtest.Photo(16, 16))

	var wg sync.WaitGroup
	errs := make(chan error, requests)
	for range requests {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _, err := d.Decode(context.Background(), raw)
			errs <- err
		}()
	}
	for range slots {
		<-entered
	}

	// Both slots are held: a request whose context is cancelled gives up.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _, err := d.Decode(ctx, raw)
	wantError(t, err, core.EUNAVAILABLE, MsgBusy)
	// So does one whose own deadline passes while it waits.
	ctx, cancel = context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	_, _, err = d.Decode(ctx, raw)
	wantError(t, err, core.EUNAVAILABLE, MsgBusy)
	// And one without a deadline, after maxWait.
	impatient := &Decoder{lim: d.lim, slots: d.slots, maxWait: time.Millisecond, decode: d.decode}
	_, _, err = impatient.Decode(context.Background(), raw)
	wantError(t, err, core.EUNAVAILABLE, MsgBusy)

	// Let the queue drain one decode at a time.
	for range requests {
		release <- struct{}{}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if p := peak.Load(); p != slots {
		t.Errorf("peak concurrent decodes %d, want %d", p, slots)
	}
}

// Fit keeps the aspect ratio, and its working memory depends on the output
// only: a direct Catmull-Rom pass over an 8192×3 strip would allocate a
// 512×3 float buffer, but a 3×8192 one a 1×8192 buffer, and a 25 MP source
// an output-width × source-height buffer of 32-byte cells (~100 MB).
func TestFitSizesAndBoundedWork(t *testing.T) {
	cases := []struct{ w, h, ww, wh int }{
		{1600, 900, 512, 288},
		{300, 700, 219, 512},
		{100, 50, 100, 50},
		{8192, 3, 512, 1},
		{3, 8192, 1, 512},
		{5000, 5000, 512, 512},
	}
	for _, tc := range cases {
		src := image.NewGray(image.Rect(0, 0, tc.w, tc.h))
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		dst := Fit(src, 512)
		runtime.ReadMemStats(&after)
		if b := dst.Bounds(); b.Dx() != tc.ww || b.Dy() != tc.wh {
			t.Errorf("%dx%d → %v, want %dx%d", tc.w, tc.h, b.Size(), tc.ww, tc.wh)
		}
		// Output (1 MB) + intermediate (4 MB) + the Catmull-Rom buffer
		// (512×1024×32 B = 16 MB) at most.
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 24<<20 {
			t.Errorf("%dx%d: resizing allocated %d MB", tc.w, tc.h, grew>>20)
		}
	}
}

func TestDecodeOrdinaryFormats(t *testing.T) {
	d := NewDecoder(DefaultLimits, 1, time.Minute)
	webp, err := os.ReadFile("../profiles/testdata/avatar.webp")
	if err != nil {
		t.Fatal(err)
	}
	for name, raw := range map[string][]byte{
		"png":  encodePNG(t, imagingtest.Photo(700, 300)),
		"jpeg": encodeJPEG(t, imagingtest.Photo(700, 300)),
		"webp": webp,
	} {
		img, h, err := d.Thumbnail(context.Background(), raw, 512)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if b := img.Bounds(); max(b.Dx(), b.Dy()) > 512 || b.Dx() == 0 || h.Width == 0 {
			t.Errorf("%s: thumbnail %v, header %+v", name, b.Size(), h)
		}
	}
}
