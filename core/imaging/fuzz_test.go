package imaging

import (
	"bytes"
	"os"
	"testing"

	"github.com/vetclube/vetclube/core/imaging/imagingtest"
)

// fuzzLimits are small, so mutations land on both sides of every limit and
// accepted images are cheap enough to decode on each run.
var fuzzLimits = Limits{MaxSide: 64, MaxPixels: 2048, MaxDecodeBytes: 16 << 10}

// FuzzImageHeader: Inspect never panics, never accepts a header over the
// limits, and what it accepts decodes to exactly the size it announced (or
// fails as a corrupt file) within the memory it estimated.
func FuzzImageHeader(f *testing.F) {
	f.Add(imagingtest.PNG(50_000_000, 1, 8, imagingtest.Gray, 0))
	f.Add(imagingtest.PNG(7071, 7071, 16, imagingtest.RGBA, 0))
	f.Add(imagingtest.PNG(9000, 10, 8, imagingtest.RGB, 0))
	f.Add(imagingtest.PNG(40, 40, 16, imagingtest.GrayAlpha, -1))
	f.Add(imagingtest.PNG(32, 32, 8, imagingtest.RGBA, -1))
	f.Add(imagingtest.JPEG(9000, 10, false))
	f.Add(imagingtest.JPEG(40, 40, true))
	f.Add(imagingtest.JPEG(16, 16, false))
	f.Add(imagingtest.WebP(16384, 16384))
	f.Add(imagingtest.WebP(30, 30))
	f.Add(encodePNG(f, imagingtest.Photo(20, 30)))
	f.Add(encodeJPEG(f, imagingtest.Photo(24, 24)))
	if webp, err := os.ReadFile("../profiles/testdata/avatar.webp"); err == nil {
		f.Add(webp)
	}
	f.Add([]byte("GIF89a"))
	f.Add([]byte{})

	f.Fuzz(func(t *testing.T, raw []byte) {
		h, err := Inspect(raw, fuzzLimits)
		if err != nil {
			return
		}
		if h.Width <= 0 || h.Height <= 0 || h.Width > fuzzLimits.MaxSide || h.Height > fuzzLimits.MaxSide ||
			int64(h.Width)*int64(h.Height) > fuzzLimits.MaxPixels || h.DecodeBytes > fuzzLimits.MaxDecodeBytes {
			t.Fatalf("accepted over-limit header %+v", h)
		}
		img, err := decodePixels(h.Format, bytes.NewReader(raw))
		if err != nil {
			return
		}
		if b := img.Bounds(); b.Dx() != h.Width || b.Dy() != h.Height {
			t.Fatalf("header said %dx%d, decoded %v", h.Width, h.Height, img.Bounds())
		}
	})
}
