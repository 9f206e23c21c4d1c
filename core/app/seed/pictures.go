package seed

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
)

// coverWidth and coverHeight are a course card's 16:9 picture.
const (
	coverWidth  = 960
	coverHeight = 540
)

// coverPalettes are the demo courses' picture colours, by category: a
// diagonal gradient from the first colour to the second.
var coverPalettes = map[string][2]color.RGBA{
	"emergencia":   {{R: 0xb9, G: 0x1c, B: 0x1c, A: 0xff}, {R: 0xf9, G: 0x73, B: 0x16, A: 0xff}},
	"dermatologia": {{R: 0x0f, G: 0x76, B: 0x6e, A: 0xff}, {R: 0x65, G: 0xa3, B: 0x0d, A: 0xff}},
	"gestao":       {{R: 0x37, G: 0x30, B: 0xa3, A: 0xff}, {R: 0x02, G: 0x84, B: 0xc7, A: 0xff}},
}

// ellipse is a filled ellipse centred at (cx, cy) with radii rx, ry.
type ellipse struct{ cx, cy, rx, ry float64 }

func (e ellipse) has(x, y float64) bool {
	dx, dy := (x-e.cx)/e.rx, (y-e.cy)/e.ry
	return dx*dx+dy*dy <= 1
}

// pawPrint is the VetClube paw (the logo's shape), centred on the picture's
// right third: a pad and four toes.
var pawPrint = []ellipse{
	{cx: 690, cy: 330, rx: 110, ry: 90},
	{cx: 570, cy: 215, rx: 42, ry: 56},
	{cx: 645, cy: 150, rx: 42, ry: 58},
	{cx: 735, cy: 150, rx: 42, ry: 58},
	{cx: 810, cy: 215, rx: 42, ry: 56},
}

// coursePicture draws a course's cover, made here so the demo needs no
// downloaded image: its category's gradient with a translucent paw print.
func coursePicture(category string) ([]byte, error) {
	p, ok := coverPalettes[category]
	if !ok {
		return nil, fmt.Errorf("course picture: no colours for category %q", category)
	}
	img := image.NewRGBA(image.Rect(0, 0, coverWidth, coverHeight))
	mix := func(a, b uint8, t float64) uint8 { return uint8(float64(a) + (float64(b)-float64(a))*t) }
	for y := 0; y < coverHeight; y++ {
		for x := 0; x < coverWidth; x++ {
			t := (float64(x)/coverWidth + float64(y)/coverHeight) / 2
			c := color.RGBA{R: mix(p[0].R, p[1].R, t), G: mix(p[0].G, p[1].G, t), B: mix(p[0].B, p[1].B, t), A: 0xff}
			for _, e := range pawPrint {
				if e.has(float64(x), float64(y)) {
					// White at 30 %: the paw shows without hiding the colour.
					c = color.RGBA{R: mix(c.R, 0xff, 0.3), G: mix(c.G, 0xff, 0.3), B: mix(c.B, 0xff, 0.3), A: 0xff}
					break
				}
			}
			img.SetRGBA(x, y, c)
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, fmt.Errorf("course picture: %w", err)
	}
	return buf.Bytes(), nil
}
