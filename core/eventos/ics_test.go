package eventos_test

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	ics "github.com/arran4/golang-ical"

	"github.com/vetclube/vetclube/core/eventos"
)

// Long values with accents and RFC 5545 special characters survive the
// folding at 75 octets and the TEXT escaping: a real iCalendar parser reads
// back exactly what was written, and no physical line passes 75 octets or
// splits a UTF-8 character.
func TestCalendarFileFoldsAndEscapesLongValues(t *testing.T) {
	sp, err := time.LoadLocation("America/Sao_Paulo")
	if err != nil {
		t.Fatal(err)
	}
	start := time.Date(2031, 1, 15, 8, 30, 0, 0, sp)
	title := "Congresso de anestesiologia, analgesia e cuidados intensivos em cães, gatos; e animais silvestres — edição ç/ã/é/ü 2031"
	e := eventos.Event{ID: "0b6d2c51-7f0e-4d8e-9d36-3c2f4f4c2a10", Slug: "congresso", Title: title,
		Summary: "Linha um\nLinha dois, com vírgula; e ponto e vírgula \\ barra", Instructor: "Dra. Conceição Araújo",
		StartsAt: start, EndsAt: start.Add(9 * time.Hour), TimeZone: "America/Sao_Paulo", IsActive: false, Revision: 7,
		Location: "Centro de Convenções — Av. Paulista, 1000; 3º andar, São Paulo (SP)"}
	raw := string(eventos.ICS(e, "https://vetclube.example/eventos/congresso", start.Add(-48*time.Hour)))
	for _, l := range strings.Split(strings.TrimSuffix(raw, "\r\n"), "\r\n") {
		if len(l) > 75 {
			t.Errorf("line of %d octets: %q", len(l), l)
		}
		if !utf8.ValidString(l) {
			t.Errorf("line splits a UTF-8 character: %q", l)
		}
	}
	cal, err := ics.ParseCalendar(strings.NewReader(raw))
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, raw)
	}
	evs := cal.Events()
	if len(evs) != 1 {
		t.Fatalf("%d events", len(evs))
	}
	ev := evs[0]
	unescape := strings.NewReplacer(`\n`, "\n", `\,`, ",", `\;`, ";", `\\`, `\`)
	if got := unescape.Replace(ev.GetProperty(ics.ComponentPropertySummary).Value); got != title {
		t.Errorf("summary %q", got)
	}
	desc := unescape.Replace(ev.GetProperty(ics.ComponentPropertyDescription).Value)
	if !strings.HasPrefix(desc, e.Summary+"\n\nCom Dra. Conceição Araújo") || !strings.HasSuffix(desc, "https://vetclube.example/eventos/congresso") {
		t.Errorf("description %q", desc)
	}
	if got := unescape.Replace(ev.GetProperty(ics.ComponentPropertyLocation).Value); got != e.Location {
		t.Errorf("location %q", got)
	}
	if s, err := ev.GetStartAt(); err != nil || !s.Equal(start) {
		t.Errorf("start %v %v", s, err)
	}
	if st := ev.GetProperty(ics.ComponentPropertyStatus); st == nil || st.Value != "CANCELLED" {
		t.Errorf("a cancelled event's status: %+v", st)
	}
	if seq := ev.GetProperty(ics.ComponentPropertySequence); seq == nil || seq.Value != "7" {
		t.Errorf("sequence %+v", seq)
	}
	if ev.Id() != eventos.UID(e.ID) {
		t.Errorf("uid %q", ev.Id())
	}
}
