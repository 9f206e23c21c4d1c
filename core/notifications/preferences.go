package notifications

import (
	"context"
	"fmt"
	"regexp"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/profiles"
)

// Preferences is what one member wants to be told (notification_preferences).
type Preferences struct {
	PushEnabled        bool   `json:"push_enabled"`
	ConnectionsEnabled bool   `json:"connections_enabled"`
	CommentsEnabled    bool   `json:"comments_enabled"`
	LikesEnabled       bool   `json:"likes_enabled"`
	ChallengesEnabled  bool   `json:"challenges_enabled"`
	CoursesEnabled     bool   `json:"courses_enabled"`
	CommunityEnabled   bool   `json:"community_enabled"`
	MarketingEnabled   bool   `json:"marketing_enabled"`
	QuietHoursStart    string `json:"quiet_hours_start"` // "HH:MM" local time
	QuietHoursEnd      string `json:"quiet_hours_end"`
	TimeZone           string `json:"time_zone"`
}

// Allows reports whether a notification of type kind reaches the member at
// all. Types without a switch (check-in, trial, events, system, plugins)
// are always on.
func (p Preferences) Allows(kind string) bool {
	switch kind {
	case "connection":
		return p.ConnectionsEnabled
	case "comment":
		return p.CommentsEnabled
	case "like":
		return p.LikesEnabled
	case "challenge":
		return p.ChallengesEnabled
	case "course":
		return p.CoursesEnabled
	case "community", "post":
		return p.CommunityEnabled
	case "marketing":
		return p.MarketingEnabled
	default:
		return true
	}
}

func minutesOf(hhmm string) int {
	t, err := time.Parse("15:04", hhmm)
	if err != nil {
		return 0
	}
	return t.Hour()*60 + t.Minute()
}

// ReleaseAt is when a push created at now may go out: now outside quiet
// hours, else the end of the quiet hours in the member's zone. Quiet hours
// may span midnight (22:00–07:00); equal start and end mean none.
func (p Preferences) ReleaseAt(now time.Time) time.Time {
	start, end := minutesOf(p.QuietHoursStart), minutesOf(p.QuietHoursEnd)
	if start == end {
		return now
	}
	loc, err := time.LoadLocation(p.TimeZone)
	if err != nil {
		loc = time.UTC
	}
	local := now.In(loc)
	m := local.Hour()*60 + local.Minute()
	endOn := func(dayOffset int) time.Time {
		return time.Date(local.Year(), local.Month(), local.Day()+dayOffset, end/60, end%60, 0, 0, loc)
	}
	if start < end { // a window within one day, e.g. 13:00–15:00
		if m >= start && m < end {
			return endOn(0)
		}
		return now
	}
	switch { // a window across midnight
	case m >= start:
		return endOn(1)
	case m < end:
		return endOn(0)
	default:
		return now
	}
}

// DefaultTimeZone is the zone of a member who chose none.
const DefaultTimeZone = "America/Sao_Paulo"

// preferencesSelect reads the effective preferences of the users in $1: the
// stored row, or the defaults (everything on except marketing, which needs
// the member's own opt-in). The zone of a member without a row is the one
// chosen on the profile (a read-only join on profiles, which owns it).
const preferencesSelect = `SELECT u.id::text,
		coalesce(np.push_enabled, true), coalesce(np.connections_enabled, true), coalesce(np.comments_enabled, true),
		coalesce(np.likes_enabled, true), coalesce(np.challenges_enabled, true), coalesce(np.courses_enabled, true),
		coalesce(np.community_enabled, true), coalesce(np.marketing_enabled, false),
		to_char(coalesce(np.quiet_hours_start, '22:00'), 'HH24:MI'), to_char(coalesce(np.quiet_hours_end, '07:00'), 'HH24:MI'),
		coalesce(np.time_zone, nullif(pr.time_zone, ''), '` + DefaultTimeZone + `')
	FROM unnest($1::uuid[]) AS u(id)
	LEFT JOIN notification_preferences np ON np.user_id = u.id
	LEFT JOIN profiles pr ON pr.user_id = u.id`

// preferencesOf returns the effective preferences of each of userIDs.
func (s *Service) preferencesOf(ctx context.Context, userIDs []string) (map[string]Preferences, error) {
	rows, err := s.pool.Query(ctx, preferencesSelect, userIDs)
	if err != nil {
		return nil, fmt.Errorf("read notification preferences: %w", err)
	}
	defer rows.Close()
	out := make(map[string]Preferences, len(userIDs))
	for rows.Next() {
		var id string
		var p Preferences
		if err := rows.Scan(&id, &p.PushEnabled, &p.ConnectionsEnabled, &p.CommentsEnabled, &p.LikesEnabled,
			&p.ChallengesEnabled, &p.CoursesEnabled, &p.CommunityEnabled, &p.MarketingEnabled,
			&p.QuietHoursStart, &p.QuietHoursEnd, &p.TimeZone); err != nil {
			return nil, fmt.Errorf("read notification preferences: %w", err)
		}
		out[id] = p
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read notification preferences: %w", err)
	}
	return out, nil
}

// Preferences returns userID's effective preferences.
func (s *Service) Preferences(ctx context.Context, userID string) (Preferences, error) {
	m, err := s.preferencesOf(ctx, []string{userID})
	if err != nil {
		return Preferences{}, err
	}
	p, ok := m[userID]
	if !ok {
		return Preferences{}, fmt.Errorf("read notification preferences: no row for %s", userID)
	}
	return p, nil
}

// PreferencesPatch is a partial update: nil fields are kept.
type PreferencesPatch struct {
	PushEnabled        *bool   `json:"push_enabled"`
	ConnectionsEnabled *bool   `json:"connections_enabled"`
	CommentsEnabled    *bool   `json:"comments_enabled"`
	LikesEnabled       *bool   `json:"likes_enabled"`
	ChallengesEnabled  *bool   `json:"challenges_enabled"`
	CoursesEnabled     *bool   `json:"courses_enabled"`
	CommunityEnabled   *bool   `json:"community_enabled"`
	MarketingEnabled   *bool   `json:"marketing_enabled"`
	QuietHoursStart    *string `json:"quiet_hours_start"`
	QuietHoursEnd      *string `json:"quiet_hours_end"`
	TimeZone           *string `json:"time_zone"`
}

var hhmm = regexp.MustCompile(`^([01][0-9]|2[0-3]):[0-5][0-9]$`)

func (p PreferencesPatch) validate() error {
	bad := map[string]string{}
	if p.QuietHoursStart != nil && !hhmm.MatchString(*p.QuietHoursStart) {
		bad["quiet_hours_start"] = "Informe o horário no formato HH:MM (ex.: 22:00)."
	}
	if p.QuietHoursEnd != nil && !hhmm.MatchString(*p.QuietHoursEnd) {
		bad["quiet_hours_end"] = "Informe o horário no formato HH:MM (ex.: 07:00)."
	}
	if p.TimeZone != nil && !profiles.ValidTimeZone(*p.TimeZone) {
		bad["time_zone"] = "Fuso horário desconhecido."
	}
	if len(bad) > 0 {
		return core.Invalid("Preferências de notificação inválidas.", bad)
	}
	return nil
}

func pick[T any](v *T, def T) T {
	if v != nil {
		return *v
	}
	return def
}

// UpdatePreferences applies patch to userID's preferences and returns them
// whole. Fields absent from patch keep their stored value even when another
// update commits in between (each column is merged in the upsert).
func (s *Service) UpdatePreferences(ctx context.Context, userID string, patch PreferencesPatch) (Preferences, error) {
	if err := patch.validate(); err != nil {
		return Preferences{}, err
	}
	cur, err := s.Preferences(ctx, userID)
	if err != nil {
		return Preferences{}, err
	}
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO notification_preferences AS np (user_id, push_enabled, connections_enabled,
				comments_enabled, likes_enabled, challenges_enabled, courses_enabled, community_enabled, marketing_enabled,
				quiet_hours_start, quiet_hours_end, time_zone)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::time, $11::time, $12)
			ON CONFLICT (user_id) DO UPDATE SET
				push_enabled = coalesce($13, np.push_enabled),
				connections_enabled = coalesce($14, np.connections_enabled),
				comments_enabled = coalesce($15, np.comments_enabled),
				likes_enabled = coalesce($16, np.likes_enabled),
				challenges_enabled = coalesce($17, np.challenges_enabled),
				courses_enabled = coalesce($18, np.courses_enabled),
				community_enabled = coalesce($19, np.community_enabled),
				marketing_enabled = coalesce($20, np.marketing_enabled),
				quiet_hours_start = coalesce($21::time, np.quiet_hours_start),
				quiet_hours_end = coalesce($22::time, np.quiet_hours_end),
				time_zone = coalesce($23, np.time_zone),
				updated_at = now()`,
			userID,
			pick(patch.PushEnabled, cur.PushEnabled), pick(patch.ConnectionsEnabled, cur.ConnectionsEnabled),
			pick(patch.CommentsEnabled, cur.CommentsEnabled), pick(patch.LikesEnabled, cur.LikesEnabled),
			pick(patch.ChallengesEnabled, cur.ChallengesEnabled), pick(patch.CoursesEnabled, cur.CoursesEnabled),
			pick(patch.CommunityEnabled, cur.CommunityEnabled), pick(patch.MarketingEnabled, cur.MarketingEnabled),
			pick(patch.QuietHoursStart, cur.QuietHoursStart), pick(patch.QuietHoursEnd, cur.QuietHoursEnd),
			pick(patch.TimeZone, cur.TimeZone),
			patch.PushEnabled, patch.ConnectionsEnabled, patch.CommentsEnabled, patch.LikesEnabled,
			patch.ChallengesEnabled, patch.CoursesEnabled, patch.CommunityEnabled, patch.MarketingEnabled,
			patch.QuietHoursStart, patch.QuietHoursEnd, patch.TimeZone)
		return err
	})
	if err != nil {
		return Preferences{}, fmt.Errorf("update notification preferences: %w", err)
	}
	return s.Preferences(ctx, userID)
}
