package sdk

import (
	"errors"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Limits of a scheduled notification (host.ScheduleNotification), checked
// alike by the SDK's test host and the core.
const (
	ScheduleKeyMax     = 200
	ScheduleTitleMax   = 120
	ScheduleBodyMax    = 500
	ScheduleLinkMax    = 300
	ScheduleHorizonMax = 5 * 366 * 24 * time.Hour
)

// CheckScheduledNotification says what is wrong with a scheduled
// notification's parts, or nil: a key of 1–200 printable characters, a
// title (≤ 120) and body (≤ 500) without control characters, and a link
// that is empty or an in-app path ("/…", never "//…").
func CheckScheduledNotification(key, title, body, link string) error {
	switch {
	case !printable(key, ScheduleKeyMax) || strings.TrimSpace(key) == "":
		return errors.New("key must be 1-200 printable characters")
	case strings.TrimSpace(title) == "" || !printable(title, ScheduleTitleMax):
		return errors.New("title must be 1-120 printable characters")
	case !printable(body, ScheduleBodyMax):
		return errors.New("body must be at most 500 printable characters")
	case link != "" && (!strings.HasPrefix(link, "/") || strings.HasPrefix(link, "//") ||
		strings.ContainsAny(link, "\\ ") || !printable(link, ScheduleLinkMax)):
		return errors.New("link must be an in-app path starting with a single /")
	}
	return nil
}

// CheckScheduleKeyPrefix accepts what CancelScheduledNotification with a
// prefix takes: the empty prefix (every key) or a valid key.
func CheckScheduleKeyPrefix(prefix string) error {
	if prefix == "" || printable(prefix, ScheduleKeyMax) {
		return nil
	}
	return errors.New("key must be at most 200 printable characters")
}

func printable(s string, max int) bool {
	if !utf8.ValidString(s) || utf8.RuneCountInString(s) > max {
		return false
	}
	for _, r := range s {
		if unicode.IsControl(r) {
			return false
		}
	}
	return true
}
