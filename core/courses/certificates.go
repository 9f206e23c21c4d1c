package courses

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"errors"
	"fmt"
	"html/template"
	"io"
	"strings"
	"time"

	"github.com/go-pdf/fpdf"
	"github.com/jackc/pgx/v5"

	"github.com/vetclube/vetclube/core"
)

// Certificate statuses.
const (
	CertValid   = "valid"
	CertRevoked = "revoked"
)

// Certificate is a course certificate as its owner sees it.
type Certificate struct {
	Code        string `json:"code"`
	CourseID    string `json:"course_id"`
	CourseTitle string `json:"course_title"`
	LearnerName string `json:"learner_name"`
	// Who taught the course when the certificate was issued ("" when the
	// course had no instructor then).
	InstructorName  string     `json:"instructor_name"`
	InstructorTitle string     `json:"instructor_title"`
	Hours           int        `json:"hours"`
	IssuedAt        time.Time  `json:"issued_at"`
	Status          string     `json:"status"`
	RevokedAt       *time.Time `json:"revoked_at"`
	VerifyURL       string     `json:"verify_url"`
	HTMLURL         string     `json:"html_url"`
	PDFURL          string     `json:"pdf_url"`
	// Frame is the certificate frame the learner unlocked with VetCoins
	// (ouro, prata, esmeralda; "" = the standard border), set when printing.
	Frame  string `json:"frame,omitempty"`
	userID string
}

// Verification is what anyone may learn about a code.
type Verification struct {
	Status         string    `json:"status"`
	LearnerName    string    `json:"learner_name"`
	CourseTitle    string    `json:"course_title"`
	InstructorName string    `json:"instructor_name"`
	Hours          int       `json:"hours"`
	IssuedAt       time.Time `json:"issued_at"`
}

// crockford is Crockford's base32 alphabet (no I, L, O, U: codes are read
// aloud and typed).
var crockford = base32.NewEncoding("0123456789ABCDEFGHJKMNPQRSTVWXYZ").WithPadding(base32.NoPadding)

// NewCode is a verification code: 128 random bits, 26 characters.
func NewCode() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b) // crypto/rand never fails on supported platforms
	return crockford.EncodeToString(b)
}

// NormalizeCode accepts a typed code in any case, with spaces or dashes, and
// Crockford's look-alikes (O→0, I/L→1).
func NormalizeCode(s string) string {
	s = strings.ToUpper(strings.NewReplacer(" ", "", "-", "").Replace(strings.TrimSpace(s)))
	return strings.NewReplacer("O", "0", "I", "1", "L", "1").Replace(s)
}

// learnerName is the name printed on a certificate.
func (s *Service) learnerName(ctx context.Context, userID string) string {
	if s.profiles != nil {
		if p, err := s.profiles.Get(ctx, userID); err == nil {
			if n := strings.TrimSpace(p.FirstName + " " + p.LastName); n != "" {
				return n
			}
		}
	}
	return "Usuário VetClube"
}

// issueTx writes the certificate of a completion inside its transaction;
// hours are the course's certificate hours, or its duration rounded to whole
// hours (at least 1).
func (s *Service) issueTx(ctx context.Context, tx pgx.Tx, courseID, userID, learner string, at time.Time) error {
	_, err := tx.Exec(ctx, `INSERT INTO course_certificates (code, course_id, user_id, learner_name, course_title, hours, issued_at, instructor_name, instructor_title)
		SELECT $1, l.item_id, $3, $4, l.title,
			coalesce(l.certificate_hours, CASE WHEN l.duration_minutes > 0 THEN greatest(1, round(l.duration_minutes / 60.0)::int) ELSE 0 END), $5,
			coalesce(i.name, ''), coalesce(i.professional_title, '')
		FROM course_listings l LEFT JOIN course_instructors i ON i.item_id = l.instructor_id
		WHERE l.item_id = $2
		ON CONFLICT ON CONSTRAINT course_certificates_once DO NOTHING`, NewCode(), courseID, userID, learner, at)
	return err
}

const certColumns = `code, course_id, course_title, learner_name, instructor_name, instructor_title, hours, issued_at, revoked_at, user_id`

func scanCert(row pgx.Row) (Certificate, error) {
	var c Certificate
	err := row.Scan(&c.Code, &c.CourseID, &c.CourseTitle, &c.LearnerName, &c.InstructorName, &c.InstructorTitle, &c.Hours, &c.IssuedAt, &c.RevokedAt, &c.userID)
	if err != nil {
		return c, err
	}
	c.Status = CertValid
	if c.RevokedAt != nil {
		c.Status = CertRevoked
	}
	c.VerifyURL = certificatePrefix + c.Code
	c.HTMLURL = "/api/certificados/" + c.Code + "/imprimir"
	c.PDFURL = "/api/certificados/" + c.Code + "/pdf"
	return c, nil
}

func (s *Service) certificateOf(ctx context.Context, courseID, userID string) (*Certificate, error) {
	c, err := scanCert(s.pool.QueryRow(ctx, `SELECT `+certColumns+` FROM course_certificates WHERE course_id = $1 AND user_id = $2`, courseID, userID))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, wrap("certificate", err)
	}
	return &c, nil
}

func (s *Service) byCode(ctx context.Context, code string) (Certificate, error) {
	code = NormalizeCode(code)
	if len(code) != 26 {
		return Certificate{}, core.Errorf(core.ENOTFOUND, MsgCertNotFound)
	}
	c, err := scanCert(s.pool.QueryRow(ctx, `SELECT `+certColumns+` FROM course_certificates WHERE code = $1`, code))
	if errors.Is(err, pgx.ErrNoRows) {
		return c, core.Errorf(core.ENOTFOUND, MsgCertNotFound)
	}
	return c, wrap("certificate", err)
}

// Verify is the public check of a code: valid or revoked, and only name,
// course, hours and date.
func (s *Service) Verify(ctx context.Context, code string) (Verification, error) {
	c, err := s.byCode(ctx, code)
	if err != nil {
		return Verification{}, err
	}
	return Verification{Status: c.Status, LearnerName: c.LearnerName, CourseTitle: c.CourseTitle, InstructorName: c.InstructorName, Hours: c.Hours, IssuedAt: c.IssuedAt}, nil
}

// Own returns the certificate code names when userID owns it (404 otherwise,
// so nobody learns which codes exist from this route).
func (s *Service) Own(ctx context.Context, code, userID string) (Certificate, error) {
	c, err := s.byCode(ctx, code)
	if err != nil {
		return c, err
	}
	if c.userID != userID {
		return Certificate{}, core.Errorf(core.ENOTFOUND, MsgCertNotFound)
	}
	return c, nil
}

// YearHours are a year's continuing-education hours.
type YearHours struct {
	Year  int `json:"year"`
	Hours int `json:"hours"`
}

// MyCertificates is the learner's certificates and hours per year.
type MyCertificates struct {
	Certificates []Certificate `json:"certificates"`
	HoursByYear  []YearHours   `json:"hours_by_year"`
}

// Mine lists userID's certificates, newest first, with the hours of valid
// ones per year (of issue, São Paulo time).
func (s *Service) Mine(ctx context.Context, userID string) (MyCertificates, error) {
	out := MyCertificates{Certificates: []Certificate{}, HoursByYear: []YearHours{}}
	rows, err := s.pool.Query(ctx, `SELECT `+certColumns+` FROM course_certificates WHERE user_id = $1 ORDER BY issued_at DESC, code`, userID)
	if err != nil {
		return out, wrap("certificates", err)
	}
	if out.Certificates, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (Certificate, error) { return scanCert(r) }); err != nil {
		return out, wrap("certificates", err)
	}
	rows, err = s.pool.Query(ctx, `SELECT extract(year FROM issued_at AT TIME ZONE 'America/Sao_Paulo')::int, sum(hours)::int
		FROM course_certificates WHERE user_id = $1 AND revoked_at IS NULL GROUP BY 1 ORDER BY 1 DESC`, userID)
	if err != nil {
		return out, wrap("certificate hours", err)
	}
	out.HoursByYear, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (YearHours, error) {
		var y YearHours
		return y, r.Scan(&y.Year, &y.Hours)
	})
	return out, wrap("certificate hours", err)
}

// Revoke marks a certificate revoked (idempotent: the first revocation's
// moment and reason stay).
func (s *Service) Revoke(ctx context.Context, code, byUserID, reason string) (Certificate, error) {
	c, err := s.byCode(ctx, code)
	if err != nil {
		return c, err
	}
	if _, err := s.pool.Exec(ctx, `UPDATE course_certificates SET revoked_at = $2, revoked_by = $3, revoke_reason = $4
		WHERE code = $1 AND revoked_at IS NULL`, c.Code, s.now(), byUserID, strings.TrimSpace(reason)); err != nil {
		return c, wrap("revoke certificate", err)
	}
	return s.byCode(ctx, c.Code)
}

var months = []string{"janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro", "novembro", "dezembro"}

// dateBR is "5 de março de 2026" in São Paulo time.
func dateBR(t time.Time) string {
	if loc, err := time.LoadLocation("America/Sao_Paulo"); err == nil {
		t = t.In(loc)
	}
	return fmt.Sprintf("%d de %s de %d", t.Day(), months[t.Month()-1], t.Year())
}

// instructorText is the instructor's name with their professional title, as
// the certificate prints it ("" when none was recorded).
func instructorText(c Certificate) string {
	name, title := strings.TrimSpace(c.InstructorName), strings.TrimSpace(c.InstructorTitle)
	switch {
	case name == "":
		return ""
	case title == "":
		return name
	}
	return name + " — " + title
}

func hoursText(h int) string {
	if h == 1 {
		return "1 hora"
	}
	return fmt.Sprintf("%d horas", h)
}

var printable = template.Must(template.New("cert").Parse(`<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8"><title>Certificado — {{.CourseTitle}}</title>
<meta name="robots" content="noindex">
<style>
@page { size: A4 landscape; margin: 0 }
body { margin: 0; font-family: Georgia, "Times New Roman", serif; color: #1f2937; background: #f3f4f6 }
.page { box-sizing: border-box; width: 297mm; height: 210mm; margin: 0 auto; padding: 22mm 26mm; background: #fff;
  border: 6mm solid #0f766e; display: flex; flex-direction: column; justify-content: space-between; text-align: center }
{{with .FrameColor}}.page { border: 7mm double {{.}}; outline: 1.5mm solid {{.}}; outline-offset: -12mm } h1 { color: {{.}} }{{end}}
h1 { font-size: 34pt; letter-spacing: .08em; margin: 0; color: #0f766e }
.name { font-size: 28pt; margin: 8mm 0 4mm; font-weight: bold }
.course { font-size: 20pt; font-style: italic }
.small { font-size: 11pt; color: #4b5563 }
{{if .Revoked}}.page { border-color: #9ca3af } .revoked { color: #b91c1c; font-weight: bold; font-size: 14pt }{{end}}
@media print { body { background: #fff } .noprint { display: none } }
</style></head><body>
<div class="page">
<div><div class="small">VetClube{{with .FrameName}} · Moldura {{.}}{{end}}</div><h1>CERTIFICADO DE CONCLUSÃO</h1></div>
<div>
<p>Certificamos que</p>
<p class="name">{{.LearnerName}}</p>
<p>concluiu o curso</p>
<p class="course">{{.CourseTitle}}</p>
<p>com carga horária de {{.HoursText}}, em {{.Date}}.</p>
{{with .Instructor}}<p class="small">Instrutor(a): {{.}}</p>{{end}}
{{if .Revoked}}<p class="revoked">Certificado revogado.</p>{{end}}
</div>
<div class="small">Código de verificação: <strong>{{.Code}}</strong><br>Verifique em {{.VerifyURL}}</div>
</div>
<p class="noprint small" style="text-align:center"><button onclick="window.print()">Imprimir</button></p>
</body></html>
`))

// WriteHTML writes the printable certificate page; origin prefixes the
// verification address shown on it.
func WriteHTML(w io.Writer, c Certificate, origin string) error {
	return printable.Execute(w, map[string]any{
		"CourseTitle": c.CourseTitle, "LearnerName": c.LearnerName, "HoursText": hoursText(c.Hours), "Date": dateBR(c.IssuedAt),
		"Code": c.Code, "VerifyURL": strings.TrimRight(origin, "/") + c.VerifyURL, "Revoked": c.Status == CertRevoked,
		"Instructor": instructorText(c), "FrameColor": frameCSS(c), "FrameName": frameName(c),
	})
}

// Frames unlocked with VetCoins: their colour (CSS and RGB for the PDF)
// and name. A revoked certificate keeps its grey border.
var frames = map[string]struct {
	css     string
	r, g, b int
	name    string
}{
	"ouro":      {"#b8860b", 184, 134, 11, "Ouro"},
	"prata":     {"#8a939e", 138, 147, 158, "Prata"},
	"esmeralda": {"#047857", 4, 120, 87, "Esmeralda"},
}

func frameCSS(c Certificate) template.CSS {
	if f, ok := frames[c.Frame]; ok && c.Status != CertRevoked {
		return template.CSS(f.css)
	}
	return ""
}

func frameName(c Certificate) string {
	if f, ok := frames[c.Frame]; ok && c.Status != CertRevoked {
		return f.name
	}
	return ""
}

// WritePDF writes the certificate as an A4 landscape PDF (go-pdf/fpdf with
// its core fonts, whose cp1252 encoding covers Portuguese).
func WritePDF(w io.Writer, c Certificate, origin string) error {
	pdf := fpdf.New("L", "mm", "A4", "")
	pdf.SetTitle("Certificado — "+c.CourseTitle, true)
	pdf.SetAuthor("VetClube", true)
	pdf.SetCreationDate(c.IssuedAt)
	pdf.SetModificationDate(c.IssuedAt)
	tr := pdf.UnicodeTranslatorFromDescriptor("")
	pdf.AddPage()
	pdf.SetDrawColor(15, 118, 110)
	pdf.SetLineWidth(4)
	if f, ok := frames[c.Frame]; ok && c.Status != CertRevoked {
		// The unlocked frame: its colour, and a second, inner line.
		pdf.SetDrawColor(f.r, f.g, f.b)
		pdf.SetLineWidth(1)
		pdf.Rect(14, 14, 269, 182, "D")
		pdf.SetLineWidth(4)
	}
	pdf.Rect(8, 8, 281, 194, "D")
	line := func(y float64, style string, size float64, text string) {
		pdf.SetFont("Helvetica", style, size)
		pdf.SetXY(20, y)
		pdf.MultiCell(257, size*0.5, tr(text), "", "C", false)
	}
	pdf.SetTextColor(75, 85, 99)
	line(24, "", 12, "VetClube")
	pdf.SetTextColor(15, 118, 110)
	line(34, "B", 28, "CERTIFICADO DE CONCLUSÃO")
	pdf.SetTextColor(31, 41, 55)
	line(62, "", 14, "Certificamos que")
	line(76, "B", 24, c.LearnerName)
	line(98, "", 14, "concluiu o curso")
	line(110, "I", 18, c.CourseTitle)
	line(134, "", 14, "com carga horária de "+hoursText(c.Hours)+", em "+dateBR(c.IssuedAt)+".")
	if who := instructorText(c); who != "" {
		pdf.SetTextColor(75, 85, 99)
		line(143, "", 12, "Instrutor(a): "+who)
		pdf.SetTextColor(31, 41, 55)
	}
	if c.Status == CertRevoked {
		pdf.SetTextColor(185, 28, 28)
		line(156, "B", 14, "Certificado revogado.")
		pdf.SetTextColor(31, 41, 55)
	}
	pdf.SetTextColor(75, 85, 99)
	line(172, "", 10, "Código de verificação: "+c.Code)
	line(179, "", 10, "Verifique em "+strings.TrimRight(origin, "/")+c.VerifyURL)
	return pdf.Output(w)
}
