package profiles_test

import (
	"bytes"
	"image/jpeg"
	"testing"
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
