package pdf_test

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"io"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/text/encoding/charmap"

	"github.com/vetclube/vetclube/plugins/sdk/pdf"
)

// contentText inflates every FlateDecode stream of a PDF and returns the
// text shown by its Tj operators, decoded from cp1252 (WinAnsiEncoding).
func contentText(t *testing.T, b []byte) string {
	t.Helper()
	var shown strings.Builder
	streams := regexp.MustCompile(`(?s)stream\r?\n(.*?)\r?\nendstream`).FindAllSubmatch(b, -1)
	if len(streams) == 0 {
		t.Fatal("no streams")
	}
	tj := regexp.MustCompile(`\(((?:\\.|[^\\)])*)\) ?Tj`)
	for _, s := range streams {
		r, err := zlib.NewReader(bytes.NewReader(s[1]))
		if err != nil {
			continue // not a content stream (a font file is stored raw)
		}
		plain, err := io.ReadAll(r)
		if err != nil {
			continue
		}
		for _, m := range tj.FindAllSubmatch(plain, -1) {
			raw := regexp.MustCompile(`\\(.)`).ReplaceAll(m[1], []byte("$1"))
			text, err := charmap.Windows1252.NewDecoder().Bytes(raw)
			if err != nil {
				t.Fatal(err)
			}
			shown.Write(text)
			shown.WriteByte('\n')
		}
	}
	return shown.String()
}

func TestDocumentRendersPortuguese(t *testing.T) {
	at := time.Date(2026, 3, 4, 9, 7, 0, 0, time.FixedZone("BRT", -3*3600))
	doc := pdf.New("Prontuário de Rex", pdf.GeneratedAt(at))
	doc.Title("Prontuário clínico")
	doc.Subtitle("Rex — canino, 4 anos")
	doc.KeyValues([][2]string{{"Tutor", "Ana Conceição"}, {"Peso", "12,4 kg"}, {"Observação", "Vacinação em dia (V10, antirrábica)"}})
	rows := [][]string{}
	for i := 1; i <= 60; i++ {
		rows = append(rows, []string{fmt.Sprintf("%02d/01/2026", i%28+1), "Consulta nº " + fmt.Sprint(i), "Ração hipoalergênica; reavaliação"})
	}
	doc.Table([]string{"Data", "Atendimento", "Conduta"}, rows)
	doc.Paragraph("Orientações ao tutor: manter hidratação e retornar em 15 dias.\x00\x1b")
	b, err := doc.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b, []byte("%PDF-")) || !bytes.Contains(b, []byte("%%EOF")) {
		t.Fatalf("not a PDF: %q", b[:20])
	}
	if !bytes.Contains(b, []byte("/WinAnsiEncoding")) {
		t.Error("fonts are not WinAnsi (cp1252) encoded")
	}
	text := contentText(t, b)
	for _, want := range []string{
		"Prontuário clínico", "Rex — canino, 4 anos", "Ana Conceição", "Observação", "Vacinação em dia (V10, antirrábica)",
		"Atendimento", "Consulta nº 60", "Ração hipoalergênica; reavaliação",
		"Orientações ao tutor: manter hidratação e retornar em 15 dias.",
		"Página 1 de 2", "Página 2 de 2", "Gerado pelo VetClube em 04/03/2026 às 09:07",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %q in:\n%s", want, text)
		}
	}
	// The header repeats on the pages a long table continues on.
	if n := strings.Count(text, "Atendimento\n"); n < 2 {
		t.Errorf("table header shown %d times", n)
	}
}

func TestWriteAndSafeFilename(t *testing.T) {
	rec := httptest.NewRecorder()
	pdf.Write(rec, `Prontuário "Rex"/../\r\nSet-Cookie: a=b.pdf`, []byte("%PDF-1.3"))
	if ct := rec.Header().Get("Content-Type"); ct != "application/pdf" {
		t.Errorf("content type %q", ct)
	}
	if cd := rec.Header().Get("Content-Disposition"); cd != `attachment; filename="prontuario-rex-r-nset-cookie-a-b.pdf"` {
		t.Errorf("disposition %q", cd)
	}
	for in, want := range map[string]string{"": "documento.pdf", "...": "documento.pdf", "Exame ção.PDF": "exame-cao.pdf", strings.Repeat("a", 200): strings.Repeat("a", 76) + ".pdf"} {
		if got := pdf.SafeFilename(in); got != want {
			t.Errorf("SafeFilename(%q) = %q, want %q", in, got, want)
		}
	}
}
