package text

import "fmt"

// Duration is how a reader sees a length of media or of a course: seconds
// under a minute ('6s', '59s'), then whole minutes rounded to the nearest
// ('12min'), then hours and minutes ('1h05', '2h'); empty when unknown
// (zero or less). Every list, detail page and module total uses it, so a
// course and a video of the same length read the same.
func Duration(seconds int) string {
	if seconds <= 0 {
		return ""
	}
	if seconds < 60 {
		return fmt.Sprintf("%ds", seconds)
	}
	m := (seconds + 30) / 60
	switch {
	case m < 60:
		return fmt.Sprintf("%dmin", m)
	case m%60 == 0:
		return fmt.Sprintf("%dh", m/60)
	default:
		return fmt.Sprintf("%dh%02d", m/60, m%60)
	}
}
