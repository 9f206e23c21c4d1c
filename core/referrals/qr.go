package referrals

import (
	"fmt"
	"net/http"
	"strings"

	qrcode "github.com/skip2/go-qrcode"

	"github.com/vetclube/vetclube/core/httpx"
)

// QRSVG draws text as a QR code (error correction M) in SVG: one path of
// unit squares, crisp at any size.
func QRSVG(text string) (string, error) {
	q, err := qrcode.New(text, qrcode.Medium)
	if err != nil {
		return "", err
	}
	q.DisableBorder = false
	bits := q.Bitmap()
	n := len(bits)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" shape-rendering="crispEdges" role="img" aria-label="QR code do seu link de indicação">`, n, n)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="#fff"/><path fill="#000" d="`, n, n)
	for y, row := range bits {
		for x, on := range row {
			if on {
				fmt.Fprintf(&b, "M%d %dh1v1h-1z", x, y)
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
