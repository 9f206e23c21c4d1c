package profiles_test

import (
	"bytes"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/imaging"
	"github.com/vetclube/vetclube/core/imaging/imagingtest"
	"github.com/vetclube/vetclube/core/profiles"
)

func testImage(w, h int, alpha uint8) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.SetNRGBA(x, y, color.NRGBA{uint8(x), uint8(y), 120, alpha})
		}
	}
	return img
}

// jpegWithEXIF encodes img and splices an APP1 EXIF segment carrying a
// recognisable marker right after the SOI, as a phone camera would.
func jpegWithEXIF(t *testing.T, img image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, nil); err != nil {
		t.Fatal(err)
	}
	payload := append([]byte("Exif\x00\x00"), []byte("GPS-SECRET-LOCATION")...)
	seg := []byte{0xFF, 0xE1, byte((len(payload) + 2) >> 8), byte(len(payload) + 2)}
	seg = append(seg, payload...)
	b := buf.Bytes()
	return append(append(append([]byte{}, b[:2]...), seg...), b[2:]...)
}

func (f fixture) storedFile(t *testing.T, url string) []byte {
	t.Helper()
	key, ok := f.store.KeyFromURL(url)
	if !ok {
		t.Fatalf("%q is not a stored upload", url)
	}
	b, err := os.ReadFile(filepath.Join(f.dir, filepath.FromSlash(key)))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestAvatarJPEGIsResizedAndStripped(t *testing.T) {
	f := newFixture(t)
	id := f.newUser(t, "jpg@example.com", nil)
	raw := jpegWithEXIF(t, testImage(1600, 900, 255))
	if !bytes.Contains(raw, []byte("GPS-SECRET-LOCATION")) {
		t.Fatal("fixture lacks its EXIF marker")
	}
	url, err := f.svc.SetAvatar(f.ctx, id, bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(url, "/uploads/avatars/"+id+"/") || !strings.HasSuffix(url, ".jpg") {
		t.Errorf("url %q", url)
	}
	stored := f.storedFile(t, url)
	if bytes.Contains(stored, []byte("GPS-SECRET-LOCATION")) || bytes.Contains(stored, []byte("Exif")) {
		t.Error("stored avatar still carries EXIF")
	}
	img, format, err := image.Decode(bytes.NewReader(stored))
	if err != nil || format != "jpeg" {
		t.Fatalf("stored avatar does not decode as JPEG: %v %s", err, format)
	}
	if b := img.Bounds(); b.Dx() != 512 || b.Dy() != 288 {
		t.Errorf("stored size %v, want 512x288", b.Size())
	}
	p, err := f.svc.Get(f.ctx, id)
	if err != nil || p.AvatarURL != url {
		t.Errorf("profile avatar %q (%v), want %q", p.AvatarURL, err, url)
	}
}

func TestAvatarPNGKeepsTransparency(t *testing.T) {
	f := newFixture(t)
	id := f.newUser(t, "png@example.com", nil)
	var buf bytes.Buffer
	if err := png.Encode(&buf, testImage(300, 700, 128)); err != nil {
		t.Fatal(err)
	}
	url, err := f.svc.SetAvatar(f.ctx, id, &buf)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(f.storedFile(t, url)))
	if err != nil {
		t.Fatalf("stored avatar is not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 219 || b.Dy() != 512 {
		t.Errorf("stored size %v, want 219x512", b.Size())
	}
	if _, _, _, a := img.At(10, 10).RGBA(); a == 0xffff {
		t.Error("transparency lost")
	}
}

func TestAvatarWebPAndSmallImagesKeepTheirSize(t *testing.T) {
	f := newFixture(t)
	id := f.newUser(t, "webp@example.com", nil)
	raw, err := os.ReadFile("testdata/avatar.webp")
	if err != nil {
		t.Fatal(err)
	}
	url, err := f.svc.SetAvatar(f.ctx, id, bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	img, _, err := image.Decode(bytes.NewReader(f.storedFile(t, url)))
	if err != nil {
		t.Fatalf("stored avatar does not decode: %v", err)
	}
	if b := img.Bounds(); b.Dx() > 512 || b.Dy() > 512 || b.Dx() == 0 {
		t.Errorf("stored size %v", b.Size())
	}
}

func TestAvatarRejections(t *testing.T) {
	f := newFixture(t)
	id := f.newUser(t, "bad@example.com", nil)
	var gifBuf bytes.Buffer
	if err := gif.Encode(&gifBuf, testImage(20, 20, 255), nil); err != nil {
		t.Fatal(err)
	}
	var pngBuf bytes.Buffer
	if err := png.Encode(&pngBuf, testImage(64, 64, 255)); err != nil {
		t.Fatal(err)
	}
	truncatedPNG := pngBuf.Bytes()[:pngBuf.Len()/2]
	// A valid PNG padded past the limit: the size is checked before anything else.
	oversized := append(append([]byte{}, pngBuf.Bytes()...), make([]byte, profiles.MaxAvatarBytes)...)
	// A PNG header claiming 30000×30000 pixels in a tiny file.
	bomb := hugePNGHeader(t, 30000, 30000)

	cases := []struct {
		name string
		body []byte
		msg  string
	}{
		{"text file", []byte("isto não é uma imagem, é um texto qualquer"), "O arquivo enviado não é uma imagem válida."},
		{"pdf", []byte("%PDF-1.7\n1 0 obj\n<<>>\nendobj\n"), "O arquivo enviado não é uma imagem válida."},
		{"gif", gifBuf.Bytes(), "Formato de imagem não suportado. Envie uma imagem JPEG, PNG ou WebP."},
		{"corrupt png", truncatedPNG, "O arquivo enviado não é uma imagem válida."},
		{"over 5 MB", oversized, "A imagem deve ter no máximo 5 MB."},
		{"empty", nil, "Selecione uma imagem para enviar."},
		{"decompression bomb", bomb, imaging.DefaultLimits.MsgTooLarge()},
		// The probe's images: tiny files, enormous or deep canvases.
		{"png 50000000x1", imagingtest.PNG(50_000_000, 1, 8, imagingtest.Gray, -1), imaging.DefaultLimits.MsgTooLarge()},
		{"png 7071x7071 16-bit", imagingtest.PNG(7071, 7071, 16, imagingtest.RGBA, 64), imaging.DefaultLimits.MsgTooLarge()},
		{"png 9000x10", imagingtest.PNG(9000, 10, 8, imagingtest.RGB, -1), imaging.DefaultLimits.MsgTooLarge()},
		{"png 5000x5000 16-bit", imagingtest.PNG(5000, 5000, 16, imagingtest.RGBA, 4), imaging.MsgTooHeavy},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := f.svc.SetAvatar(f.ctx, id, bytes.NewReader(tc.body))
			e := wantCode(t, err, core.EINVALID, tc.msg)
			if e.Fields["avatar"] != tc.msg {
				t.Errorf("fields %v", e.Fields)
			}
		})
	}
	entries, _ := os.ReadDir(f.dir)
	if len(entries) != 0 {
		t.Errorf("refused uploads left %d entries in storage", len(entries))
	}
	if p, _ := f.svc.Get(f.ctx, id); p.AvatarURL != "" {
		t.Errorf("avatar set to %q by a refused upload", p.AvatarURL)
	}
}

// hugePNGHeader is a PNG whose IHDR promises w×h pixels but carries no data.
func hugePNGHeader(t *testing.T, w, h int) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewGray(image.Rect(0, 0, 1, 1))); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	// IHDR data starts at byte 16: width, height (big endian), then CRC at 29.
	put := func(off, v int) { b[off], b[off+1], b[off+2], b[off+3] = byte(v>>24), byte(v>>16), byte(v>>8), byte(v) }
	put(16, w)
	put(20, h)
	crc := crc32IEEE(b[12:29])
	put(29, int(crc))
	return b
}

func TestAvatarReplacementDeletesOldFile(t *testing.T) {
	f := newFixture(t)
	id := f.newUser(t, "swap@example.com", map[string]any{"picture": "https://lh3.googleusercontent.com/a/me"})
	if p, _ := f.svc.Get(f.ctx, id); p.AvatarURL != "https://lh3.googleusercontent.com/a/me" {
		t.Fatalf("google picture not used: %q", p.AvatarURL)
	}
	upload := func() string {
		var buf bytes.Buffer
		_ = jpeg.Encode(&buf, testImage(40, 40, 255), nil)
		url, err := f.svc.SetAvatar(f.ctx, id, &buf)
		if err != nil {
			t.Fatal(err)
		}
		return url
	}
	first := upload()
	firstPath := filepath.Join(f.dir, strings.TrimPrefix(first, "/uploads/"))
	if _, err := os.Stat(firstPath); err != nil {
		t.Fatal(err)
	}
	second := upload()
	if second == first {
		t.Fatal("a new upload reused the old name, breaking long-lived caches")
	}
	if _, err := os.Stat(firstPath); !os.IsNotExist(err) {
		t.Errorf("replaced avatar still on disk: %v", err)
	}

	// Concurrent uploads: exactly one file survives, the one the profile names.
	var wg sync.WaitGroup
	for range 6 {
		wg.Add(1)
		go func() { defer wg.Done(); upload() }()
	}
	wg.Wait()
	p, _ := f.svc.Get(f.ctx, id)
	files, _ := filepath.Glob(filepath.Join(f.dir, "avatars", id, "*"))
	if len(files) != 1 || "/uploads/avatars/"+id+"/"+filepath.Base(files[0]) != p.AvatarURL {
		t.Errorf("after concurrent uploads: files %v, profile %q", files, p.AvatarURL)
	}
}

func crc32IEEE(b []byte) uint32 { return crc32.ChecksumIEEE(b) }

// Refusing a hostile avatar costs the server almost nothing: the canvas is
// judged from the header, so a 50,000,000×1 PNG (which used to take 47 s and
// ~3 GiB) and a 7071×7071 16-bit PNG (~500 MB) allocate next to nothing.
func TestHostileAvatarsCostNothing(t *testing.T) {
	f := newFixture(t)
	id := f.newUser(t, "bomb@example.com", nil)
	for name, raw := range map[string][]byte{
		"50000000x1":   imagingtest.PNG(50_000_000, 1, 8, imagingtest.Gray, -1),
		"7071x7071x16": imagingtest.PNG(7071, 7071, 16, imagingtest.RGBA, 64),
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := f.svc.SetAvatar(f.ctx, id, bytes.NewReader(raw))
		runtime.ReadMemStats(&after)
		if core.ErrorCode(err) != core.EINVALID {
			t.Fatalf("%s: %v", name, err)
		}
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 8<<20 {
			t.Errorf("%s: refusing allocated %d MB", name, grew>>20)
		}
	}
}
