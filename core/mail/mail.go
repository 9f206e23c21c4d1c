// Package mail sends VetClube's email: through SMTP when SMTP_URL is set,
// otherwise into the development mailbox kept in PostgreSQL (mailbox.go),
// which /dev/mailbox and GET /api/dev/mailbox show.
package mail

import (
	"context"
	"regexp"
	"strings"
)

// Message is one email with a plain-text and an HTML body.
type Message struct {
	To      string
	Subject string
	Text    string
	HTML    string
}

// Mailer sends email.
type Mailer interface {
	Send(ctx context.Context, m Message) error
}

var linkPattern = regexp.MustCompile(`https?://[^\s"'<>]+`)

// Links returns the distinct URLs found in the bodies, in order of appearance.
func Links(bodies ...string) []string {
	seen := map[string]bool{}
	links := []string{}
	for _, b := range bodies {
		for _, l := range linkPattern.FindAllString(b, -1) {
			l = unescapeAmp(l)
			if !seen[l] {
				seen[l] = true
				links = append(links, l)
			}
		}
	}
	return links
}

// unescapeAmp undoes HTML escaping of query separators in links found in HTML bodies.
func unescapeAmp(s string) string {
	return strings.ReplaceAll(s, "&amp;", "&")
}
