package profiles_test

import (
	"bytes"
	"image/jpeg"
	"testing"

	"github.com/vetclube/vetclube/core/app/apptest"
)

// BenchmarkGetProfile measures reading one's own profile (the call every
// page load makes) against the real database.
func BenchmarkGetProfile(b *testing.B) {
	f := newFixture(b)
	id := f.newUser(b, "bench@example.com", map[string]any{"first_name": "Bia"})
	if _, err := f.svc.Get(f.ctx, id); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := f.svc.Get(f.ctx, id); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSetAvatar measures a full avatar upload: decode a 12-megapixel
// camera JPEG, resize to 512 px, re-encode, store, save, delete the old one.
func BenchmarkSetAvatar(b *testing.B) {
	f := newFixture(b)
	id := f.newUser(b, "bench@example.com", nil)
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, testImage(4000, 3000, 255), &jpeg.Options{Quality: 90}); err != nil {
		b.Fatal(err)
	}
	raw := buf.Bytes()
	b.SetBytes(int64(len(raw)))
	b.ResetTimer()
	for b.Loop() {
		if _, err := f.svc.SetAvatar(f.ctx, id, bytes.NewReader(raw)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGetProfileHTTP measures GET /api/profile through the whole server
// (authentication, policy, handler, database) over loopback, in parallel.
func BenchmarkGetProfileHTTP(b *testing.B) {
	srv := apptest.Start(b, nil)
	c, _ := srv.SignedIn(b, "bench@example.com")
	if res := c.Do("GET", "/api/profile", nil); res.Status != 200 {
		b.Fatalf("%d %s", res.Status, res.Body)
	}
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if res := c.Do("GET", "/api/profile", nil); res.Status != 200 {
				b.Errorf("%d", res.Status)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
}
