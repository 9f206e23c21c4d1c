// Package pdf builds simple A4 documents for plugins (a patient's record, an
// exam's result) with go-pdf/fpdf and its core fonts, whose cp1252 encoding
// covers Portuguese: every text is passed through the cp1252 translator, so
// "Prontuário", "ção" and "º" render correctly.
//
//	doc := pdf.New("Prontuário de Rex")
//	doc.Title("Prontuário")
//	doc.Subtitle("Rex — canino, 4 anos")
//	doc.KeyValues([][2]string{{"Tutor", "Ana"}, {"Peso", "12,4 kg"}})
//	doc.Table([]string{"Data", "Vacina"}, [][]string{{"01/02/2026", "V10"}})
//	doc.Paragraph("Observações …")
//	b, err := doc.Bytes()
//	pdf.Write(w, "prontuario-rex.pdf", b)
//
// Every page ends with "Página N de M" and the line "Gerado pelo VetClube em
// dd/mm/aaaa às hh:mm".
package pdf

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode"

	"github.com/go-pdf/fpdf"
)

// Layout figures, in millimetres.
const (
	margin    = 15.0
	pageWidth = 210.0
	bodyWidth = pageWidth - 2*margin
)

// Document is a PDF being built, top to bottom.
type Document struct {
	f   *fpdf.Fpdf
	tr  func(string) string
	loc *time.Location
	at  time.Time
}

// Option configures New.
type Option func(*Document)

// GeneratedAt sets the instant the footer states (default: now), in the
// time zone of t.
func GeneratedAt(t time.Time) Option { return func(d *Document) { d.at = t } }

// New starts an A4 portrait document whose metadata title is title.
func New(title string, opts ...Option) *Document {
	loc, err := time.LoadLocation("America/Sao_Paulo")
	if err != nil {
		loc = time.FixedZone("BRT", -3*3600)
	}
	d := &Document{f: fpdf.New("P", "mm", "A4", ""), loc: loc, at: time.Now().In(loc)}
	for _, o := range opts {
		o(d)
	}
	d.tr = d.f.UnicodeTranslatorFromDescriptor("")
	d.f.SetTitle(d.tr(title), false)
	d.f.SetAuthor("VetClube", false)
	d.f.SetCreator("VetClube", false)
	d.f.SetCreationDate(d.at)
	d.f.SetModificationDate(d.at)
	d.f.SetMargins(margin, margin, margin)
	d.f.SetAutoPageBreak(true, 22)
	d.f.AliasNbPages("{nb}")
	generated := fmt.Sprintf("Gerado pelo VetClube em %s às %s", d.at.Format("02/01/2006"), d.at.Format("15:04"))
	d.f.SetFooterFunc(func() {
		d.f.SetY(-16)
		d.f.SetFont("Helvetica", "", 8)
		d.f.SetTextColor(107, 114, 128)
		d.f.CellFormat(bodyWidth/2, 5, d.tr(generated), "", 0, "L", false, 0, "")
		d.f.CellFormat(bodyWidth/2, 5, d.tr(fmt.Sprintf("Página %d de {nb}", d.f.PageNo())), "", 0, "R", false, 0, "")
	})
	d.f.AddPage()
	return d
}

// clean keeps text printable: control characters (other than new lines)
// become spaces, so a member's input cannot break the layout.
func clean(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' {
			return r
		}
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
}

func (d *Document) text(s string) string { return d.tr(clean(s)) }

// Title writes a large heading.
func (d *Document) Title(s string) {
	d.f.SetFont("Helvetica", "B", 18)
	d.f.SetTextColor(15, 118, 110)
	d.f.MultiCell(bodyWidth, 8, d.text(s), "", "L", false)
	d.f.Ln(2)
}

// Subtitle writes a section heading.
func (d *Document) Subtitle(s string) {
	d.f.Ln(2)
	d.f.SetFont("Helvetica", "B", 13)
	d.f.SetTextColor(31, 41, 55)
	d.f.MultiCell(bodyWidth, 6.5, d.text(s), "", "L", false)
	d.f.Ln(1)
}

// Paragraph writes wrapped body text; blank lines separate paragraphs.
func (d *Document) Paragraph(s string) {
	d.f.SetFont("Helvetica", "", 11)
	d.f.SetTextColor(31, 41, 55)
	d.f.MultiCell(bodyWidth, 5.5, d.text(s), "", "L", false)
	d.f.Ln(2)
}

// KeyValues writes a two-column table of labels and values ("Peso",
// "12,4 kg"), the labels in bold.
func (d *Document) KeyValues(rows [][2]string) {
	d.f.SetTextColor(31, 41, 55)
	keyWidth := bodyWidth * 0.35
	for _, kv := range rows {
		d.f.SetFont("Helvetica", "B", 10)
		y := d.f.GetY()
		d.f.MultiCell(keyWidth, 5.5, d.text(kv[0]), "", "L", false)
		keyEnd := d.f.GetY()
		d.f.SetXY(margin+keyWidth, y)
		d.f.SetFont("Helvetica", "", 10)
		d.f.MultiCell(bodyWidth-keyWidth, 5.5, d.text(kv[1]), "", "L", false)
		if keyEnd > d.f.GetY() {
			d.f.SetY(keyEnd)
		}
	}
	d.f.Ln(2)
}

// Table writes a table with a header row and equal-width columns; long
// cells wrap and the header repeats on a new page.
func (d *Document) Table(header []string, rows [][]string) {
	if len(header) == 0 {
		return
	}
	w := bodyWidth / float64(len(header))
	const lh = 5.0
	drawRow := func(cells []string, bold bool) {
		style := ""
		if bold {
			style = "B"
		}
		d.f.SetFont("Helvetica", style, 9.5)
		lines := 1
		texts := make([]string, len(header))
		for i := range header {
			if i < len(cells) {
				texts[i] = d.text(cells[i])
			}
			if n := len(d.f.SplitLines([]byte(texts[i]), w-2)); n > lines {
				lines = n
			}
		}
		h := float64(lines)*lh + 2
		if d.f.GetY()+h > 297-22 {
			d.f.AddPage()
			if !bold {
				drawHeader(d, header, w, lh)
				d.f.SetFont("Helvetica", style, 9.5)
			}
		}
		y := d.f.GetY()
		for i, t := range texts {
			x := margin + float64(i)*w
			if bold {
				d.f.SetFillColor(240, 253, 250)
				d.f.Rect(x, y, w, h, "FD")
			} else {
				d.f.Rect(x, y, w, h, "D")
			}
			d.f.SetXY(x+1, y+1)
			d.f.MultiCell(w-2, lh, t, "", "L", false)
		}
		d.f.SetXY(margin, y+h)
	}
	d.f.SetDrawColor(209, 213, 219)
	d.f.SetTextColor(31, 41, 55)
	drawRow(header, true)
	for _, r := range rows {
		drawRow(r, false)
	}
	d.f.Ln(3)
}

func drawHeader(d *Document, header []string, w, lh float64) {
	d.f.SetFont("Helvetica", "B", 9.5)
	y := d.f.GetY()
	for i, h := range header {
		x := margin + float64(i)*w
		d.f.SetFillColor(240, 253, 250)
		d.f.Rect(x, y, w, lh+2, "FD")
		d.f.SetXY(x+1, y+1)
		d.f.CellFormat(w-2, lh, d.text(h), "", 0, "L", false, 0, "")
	}
	d.f.SetXY(margin, y+lh+2)
}

// Bytes finishes the document and returns it.
func (d *Document) Bytes() ([]byte, error) {
	var buf bytes.Buffer
	if err := d.f.Output(&buf); err != nil {
		return nil, fmt.Errorf("pdf: %w", err)
	}
	return buf.Bytes(), nil
}

// Write answers b as a PDF download named filename (the host keeps
// Content-Type application/pdf and an attachment's Content-Disposition).
// The name is reduced to letters, digits, dots, dashes and underscores,
// accents dropped, ending in .pdf.
func Write(w http.ResponseWriter, filename string, b []byte) {
	w.Header().Set("Content-Type", "application/pdf")
	w.Header().Set("Content-Disposition", `attachment; filename="`+SafeFilename(filename)+`"`)
	w.Header().Set("Cache-Control", "private, no-store")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b)
}

// SafeFilename is name reduced to ASCII letters, digits, '.', '-' and '_'
// (accented letters lose their accent, anything else becomes '-'), at most
// 80 characters, ending in .pdf; "documento.pdf" when nothing is left.
func SafeFilename(name string) string {
	var b strings.Builder
	for _, r := range strings.TrimSuffix(strings.ToLower(name), ".pdf") {
		if base, ok := unaccent[r]; ok {
			r = base
		}
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		case r == '.' && b.Len() > 0:
			b.WriteRune('-')
		default:
			b.WriteRune('-')
		}
	}
	s := strings.Trim(b.String(), "-_")
	for strings.Contains(s, "--") {
		s = strings.ReplaceAll(s, "--", "-")
	}
	if len(s) > 76 {
		s = strings.Trim(s[:76], "-_")
	}
	if s == "" {
		s = "documento"
	}
	return s + ".pdf"
}

var unaccent = map[rune]rune{
	'á': 'a', 'à': 'a', 'â': 'a', 'ã': 'a', 'ä': 'a', 'é': 'e', 'ê': 'e', 'è': 'e', 'ë': 'e',
	'í': 'i', 'î': 'i', 'ì': 'i', 'ï': 'i', 'ó': 'o', 'ô': 'o', 'õ': 'o', 'ò': 'o', 'ö': 'o',
	'ú': 'u', 'û': 'u', 'ù': 'u', 'ü': 'u', 'ç': 'c', 'ñ': 'n',
}
