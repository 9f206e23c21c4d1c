package referrals

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/boombuler/barcode/qr"

	"github.com/vetclube/vetclube/core/httpx"
)

// quietZone is the blank margin a QR code needs around it, in modules.
const quietZone = 4

// QRSVG draws text as a QR code (error correction M) in SVG: one path of
// unit squares, crisp at any size. The encoder is boombuler/barcode, the one
// two-step verification's enrolment image already uses.
func QRSVG(text string) (string, error) {
	code, err := qr.Encode(text, qr.M, qr.Auto)
	if err != nil {
		return "", err
	}
	side := code.Bounds().Dx()
	n := side + 2*quietZone
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" shape-rendering="crispEdges" role="img" aria-label="QR code do seu link de indicação">`, n, n)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="#fff"/><path fill="#000" d="`, n, n)
	for y := range side {
		for x := range side {
			if r, _, _, _ := code.At(x, y).RGBA(); r == 0 {
				fmt.Fprintf(&b, "M%d %dh1v1h-1z", x+quietZone, y+quietZone)
			}
		}
	}
	b.WriteString(`"/></svg>`)
	return b.String(), nil
}

// QR serves GET /api/referrals/me/qr.svg: the signed-in member's link as a QR code.
func (h HTTP) QR() http.Handler {
	return httpx.SignedIn(h.Log, func(w http.ResponseWriter, r *http.Request, userID string) error {
		code, err := h.Service.Code(r.Context(), userID)
		if err != nil {
			return err
		}
		svg, err := QRSVG(h.Service.Link(code))
		if err != nil {
			return err
		}
		w.Header().Set("Content-Type", "image/svg+xml")
		w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
		w.WriteHeader(http.StatusOK)
		_, err = w.Write([]byte(svg))
		return err
	})
}
