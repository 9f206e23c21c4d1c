// Package imagingtest builds hostile images for tests: small files whose
// headers promise huge, deep or oddly shaped canvases.
package imagingtest

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
)

// PNG colour types.
const (
	Gray      = 0
	RGB       = 2
	GrayAlpha = 4
	RGBA      = 6
)

// PNG returns a well-formed PNG of w×h pixels with the given bit depth (8 or
// 16) and colour type, whose pixel data is all zero. rows limits how many
// rows of data the IDAT chunk carries (negative: all of them); a header
// check never reads them, and a decoder would allocate the whole canvas
// before noticing they are missing.
func PNG(w, h int, depth, colorType byte, rows int) []byte {
	var out bytes.Buffer
	out.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = depth, colorType
	chunk(&out, "IHDR", ihdr)

	channels := map[byte]int{Gray: 1, RGB: 3, GrayAlpha: 2, RGBA: 4}[colorType]
	rowBytes := 1 + (w*channels*int(depth)+7)/8
	if rows < 0 || rows > h {
		rows = h
	}
	var data bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&data, zlib.BestSpeed)
	zeros := make([]byte, 64<<10)
	for left := rows * rowBytes; left > 0; {
		n := min(left, len(zeros))
		_, _ = zw.Write(zeros[:n])
		left -= n
	}
	_ = zw.Close()
	chunk(&out, "IDAT", data.Bytes())
	chunk(&out, "IEND", nil)
	return out.Bytes()
}

func chunk(out *bytes.Buffer, typ string, data []byte) {
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(data)))
	out.Write(n[:])
	body := append([]byte(typ), data...)
	out.Write(body)
	binary.BigEndian.PutUint32(n[:], crc32.ChecksumIEEE(body))
	out.Write(n[:])
}

// JPEG returns a small real JPEG whose frame header is patched to claim w×h
// pixels, progressive when asked (the scans stay baseline, so a decoder
// would allocate and then fail).
func JPEG(w, h int, progressive bool) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 16, 16))
	for i := range img.Pix {
		img.Pix[i] = byte(i)
	}
	var buf bytes.Buffer
	_ = jpeg.Encode(&buf, img, nil)
	b := buf.Bytes()
	i := bytes.Index(b, []byte{0xFF, 0xC0})
	if progressive {
		b[i+1] = 0xC2
	}
	binary.BigEndian.PutUint16(b[i+5:], uint16(h))
	binary.BigEndian.PutUint16(b[i+7:], uint16(w))
	return b
}

// WebP returns an extended-format (VP8X) WebP header claiming a w×h canvas
// (each side at most 16384), followed by no image data.
func WebP(w, h int) []byte {
	vp8x := make([]byte, 10)
	put24 := func(b []byte, v int) { b[0], b[1], b[2] = byte(v), byte(v>>8), byte(v>>16) }
	put24(vp8x[4:], w-1)
	put24(vp8x[7:], h-1)
	var body bytes.Buffer
	body.WriteString("WEBPVP8X")
	_ = binary.Write(&body, binary.LittleEndian, uint32(len(vp8x)))
	body.Write(vp8x)
	var out bytes.Buffer
	out.WriteString("RIFF")
	_ = binary.Write(&out, binary.LittleEndian, uint32(body.Len()))
	out.Write(body.Bytes())
	return out.Bytes()
}

// Photo is an opaque w×h gradient, a stand-in for an ordinary picture.
func Photo(w, h int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.SetNRGBA(x, y, color.NRGBA{uint8(x), uint8(y), 120, 255})
		}
	}
	return img
}
