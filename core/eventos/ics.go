package eventos

import (
	"fmt"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"
)

// UID is an event's iCalendar UID: stable across edits and reschedules, so
// a calendar that imports the file again updates the same entry.
func UID(itemID string) string { return itemID + "@vetclube" }

// ICS is e as an RFC 5545 calendar with one VEVENT (times in UTC, so no
// VTIMEZONE is needed), lines folded at 75 octets and ended with CRLF.
// SEQUENCE is the published revision, so an updated file supersedes an
// older one; pageURL is the event's page.
func ICS(e Event, pageURL string, now time.Time) []byte {
	var b strings.Builder
	line := func(name, value string) { fold(&b, name+":"+value) }
	stamp := func(t time.Time) string { return t.UTC().Format("20060102T150405Z") }
	line("BEGIN", "VCALENDAR")
	line("VERSION", "2.0")
	line("PRODID", "-//VetClube//Eventos//PT-BR")
	line("CALSCALE", "GREGORIAN")
	line("METHOD", "PUBLISH")
	line("BEGIN", "VEVENT")
	line("UID", UID(e.ID))
	line("DTSTAMP", stamp(now))
	line("DTSTART", stamp(e.StartsAt))
	line("DTEND", stamp(e.EndsAt))
	line("SEQUENCE", fmt.Sprint(e.Revision))
	line("SUMMARY", escapeText(cleanLine(e.Title)))
	desc := e.Summary
	if e.Instructor != "" {
		desc = strings.TrimSpace(desc + "\n\nCom " + e.Instructor)
	}
	desc = strings.TrimSpace(desc + "\n\n" + pageURL)
	line("DESCRIPTION", escapeText(desc))
	line("LOCATION", escapeText(cleanLine(placeOf(e))))
	line("URL", pageURL)
	if !e.IsActive {
		line("STATUS", "CANCELLED")
	} else {
		line("STATUS", "CONFIRMED")
	}
	line("END", "VEVENT")
	line("END", "VCALENDAR")
	return []byte(b.String())
}

func placeOf(e Event) string {
	if e.Online {
		return "Online"
	}
	return e.Location
}

// escapeText escapes a TEXT value (RFC 5545 §3.3.11).
func escapeText(s string) string {
	r := strings.NewReplacer(`\`, `\\`, ";", `\;`, ",", `\,`, "\r\n", `\n`, "\n", `\n`, "\r", `\n`)
	return r.Replace(s)
}

// fold writes one content line, folded so no line passes 75 octets and no
// UTF-8 character is split (§3.1).
func fold(b *strings.Builder, s string) {
	limit := 75
	for len(s) > limit {
		cut := limit
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		b.WriteString(s[:cut])
		b.WriteString("\r\n ")
		s = s[cut:]
		limit = 74 // the leading space counts
	}
	b.WriteString(s)
	b.WriteString("\r\n")
}

// GoogleCalendarURL opens Google Calendar's new-event form filled with e.
func GoogleCalendarURL(e Event, pageURL string) string {
	stamp := func(t time.Time) string { return t.UTC().Format("20060102T150405Z") }
	q := url.Values{}
	q.Set("action", "TEMPLATE")
	q.Set("text", e.Title)
	q.Set("dates", stamp(e.StartsAt)+"/"+stamp(e.EndsAt))
	q.Set("details", strings.TrimSpace(e.Summary+"\n\n"+pageURL))
	q.Set("location", placeOf(e))
	q.Set("ctz", e.TimeZone)
	return "https://calendar.google.com/calendar/render?" + q.Encode()
}
