package media_test

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"testing"

	"github.com/vetclube/vetclube/core/imaging"
	"github.com/vetclube/vetclube/core/media"
)

// Library images are kept as pixels only, like the content fields' images:
// what rides along in the file (text chunks, bytes after its end) is never
// served, and a picture larger than ImageMaxSide is scaled down.
func TestLibraryImagesAreReencoded(t *testing.T) {
	e := newEnv(t)
	img := image.NewNRGBA(image.Rect(0, 0, 3000, 1500))
	for i := range img.Pix {
		img.Pix[i] = uint8(i)
	}
	img.Set(0, 0, color.NRGBA{R: 1, G: 2, B: 3, A: 10}) // transparency: kept as PNG
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	raw := append(buf.Bytes(), []byte("<script>SEGREDO-ANEXADO</script>")...)
	id, res := e.upload("capa.png", "image/png", raw)
	if res.Status != http.StatusNoContent {
		t.Fatalf("upload: %d %s", res.Status, res.Body)
	}
	a := e.get(id)
	if a.State != media.StateReady || a.Width != media.ImageMaxSide || a.Height != media.ImageMaxSide/2 || a.MIMEType != "image/png" {
		t.Fatalf("asset: %+v", a)
	}
	got := e.staff.Do("GET", a.URL, nil)
	if got.Status != http.StatusOK || bytes.Contains(got.Body, []byte("SEGREDO")) || bytes.Equal(got.Body, raw) {
		t.Fatalf("served image: %d, %d bytes, payload kept: %v", got.Status, len(got.Body), bytes.Contains(got.Body, []byte("SEGREDO")))
	}
	if cfg, err := png.DecodeConfig(bytes.NewReader(got.Body)); err != nil || cfg.Width != media.ImageMaxSide {
		t.Errorf("served PNG: %+v %v", cfg, err)
	}
}

// A 29-byte GIF declaring 65535×65535 is refused from its header, with
// the image limits' pt-BR reason, and nothing is stored.
func TestLibraryRefusesImagesOverTheLimits(t *testing.T) {
	e := newEnv(t)
	gif := []byte("GIF89a")
	gif = binary.LittleEndian.AppendUint16(gif, 65535)
	gif = binary.LittleEndian.AppendUint16(gif, 65535)
	gif = append(gif, 0x00, 0x00, 0x00, ',')
	gif = append(gif, 0, 0, 0, 0)
	gif = binary.LittleEndian.AppendUint16(gif, 65535)
	gif = binary.LittleEndian.AppendUint16(gif, 65535)
	gif = append(gif, 0x00, 0x02, 0x02, 0x44, 0x01, 0x00, ';')
	if len(gif) != 29 {
		t.Fatalf("the GIF has %d bytes", len(gif))
	}
	id, res := e.upload("bomba.gif", "image/gif", gif)
	lim := imaging.DefaultLimits
	lim.AllowGIF = true
	want := lim.MsgTooLarge()
	if res.Status != http.StatusBadRequest && res.Status != http.StatusUnprocessableEntity || res.ErrorMessage() != want {
		t.Fatalf("upload of the GIF: %d %s", res.Status, res.Body)
	}
	if a := e.get(id); a.State != media.StateFailed || a.Error != want || a.URL != "" {
		t.Fatalf("asset: %s %q %q", a.State, a.Error, a.URL)
	}
}
