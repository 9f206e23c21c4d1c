package courses

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// A frame unlocked with VetCoins changes the printed certificate's border
// (the printable page); a revoked certificate keeps the plain grey one.
func TestCertificateFrame(t *testing.T) {
	c := Certificate{Code: "ABCD-1234", CourseTitle: "Emergência", LearnerName: "Ana", Hours: 10, IssuedAt: time.Now(), Status: "valid", VerifyURL: "/certificados/ABCD-1234"}
	var plain, gold bytes.Buffer
	if err := WriteHTML(&plain, c, "https://vetclube.test"); err != nil {
		t.Fatal(err)
	}
	c.Frame = "ouro"
	if err := WriteHTML(&gold, c, "https://vetclube.test"); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plain.String(), "#b8860b") || !strings.Contains(gold.String(), "7mm double #b8860b") || !strings.Contains(gold.String(), "Moldura Ouro") {
		t.Fatalf("gold frame not printed:\n%s", gold.String())
	}
	// The PDF draws the frame too (its output embeds a timestamp, so only
	// that it still renders is checked here).
	var pdf bytes.Buffer
	if err := WritePDF(&pdf, c, "https://vetclube.test"); err != nil || pdf.Len() == 0 {
		t.Fatalf("PDF with a frame: %v", err)
	}
	c.Status = CertRevoked
	var revoked bytes.Buffer
	if err := WriteHTML(&revoked, c, "https://vetclube.test"); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(revoked.String(), "#b8860b") {
		t.Fatal("a revoked certificate shows the frame")
	}
}
