package imaging

import (
	"bytes"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
)

// JPEGQuality is the quality stored photos are encoded at.
const JPEGQuality = 85

// Encoded is an image written back out for storage.
type Encoded struct {
	Data        []byte
	ContentType string // image/jpeg or image/png
	Ext         string // .jpg or .png
}

// Encode writes img for storage: an opaque image as JPEG, one with
// transparency as PNG. What comes out is pixels only: no EXIF (camera,
// position), no comment, no trailing payload of the uploaded file.
func Encode(img image.Image) (Encoded, error) {
	var out bytes.Buffer
	if o, ok := img.(interface{ Opaque() bool }); ok && o.Opaque() {
		if err := jpeg.Encode(&out, img, &jpeg.Options{Quality: JPEGQuality}); err != nil {
			return Encoded{}, fmt.Errorf("encode image: %w", err)
		}
		return Encoded{Data: out.Bytes(), ContentType: "image/jpeg", Ext: ".jpg"}, nil
	}
	if err := png.Encode(&out, img); err != nil {
		return Encoded{}, fmt.Errorf("encode image: %w", err)
	}
	return Encoded{Data: out.Bytes(), ContentType: "image/png", Ext: ".png"}, nil
}
