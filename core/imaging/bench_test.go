package imaging

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core/imaging/imagingtest"
)

// BenchmarkFit measures resizing to an avatar across aspect ratios: the
// cost should follow the source's pixel count, not its shape.
func BenchmarkFit(b *testing.B) {
	for _, size := range [][2]int{{4000, 3000}, {8192, 3000}, {8192, 1}, {1, 8192}, {3000, 8192}} {
		src := imagingtest.Photo(size[0], size[1])
		b.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = Fit(src, 512)
			}
		})
	}
}

// BenchmarkRefuseHostile measures refusing the probe's 50,000,000×1 PNG.
func BenchmarkRefuseHostile(b *testing.B) {
	raw := imagingtest.PNG(50_000_000, 1, 8, imagingtest.Gray, -1)
	d := NewDecoder(DefaultLimits, 1, time.Second)
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := d.Decode(context.Background(), raw); err == nil {
			b.Fatal("accepted")
		}
	}
}
