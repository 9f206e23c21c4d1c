package checkin

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/events"
	"github.com/vetclube/vetclube/core/points"
	"github.com/vetclube/vetclube/core/postgres"
)

// MsgAlreadyToday refuses a second check-in on one local day.
const MsgAlreadyToday = "Você já fez check-in hoje!"

// Workflows starts the durable work a check-in triggers. The Temporal
// implementation lives in workflows/; Direct is used when no Temporal
// cluster is configured. Check-ins never call it on the request path: they
// write outbox rows that a Relay delivers after the commit (see outbox.go).
type Workflows interface {
	// StartStreakBonus starts the bonus of a completed streak (tx is nil
	// then); it must be idempotent per user and streak date, because the
	// relay delivers a row again when it died between the start and the
	// row's deletion. An implementation that credits inside the
	// transaction instead (Direct) says so with InTransaction and receives
	// the check-in's transaction.
	StartStreakBonus(ctx context.Context, tx points.Querier, userID string, streakDate Date) error
}

// ZoneLookup returns the user's IANA time zone from the profile; ok is false
// when the user has none yet.
type ZoneLookup func(ctx context.Context, userID string) (zone string, ok bool, err error)

// Service performs check-ins.
type Service struct {
	pool      *pgxpool.Pool
	wf        Workflows
	zone      ZoneLookup
	zoneQuery string
	now       func() time.Time
	log       *slog.Logger
}

// Options configures a Service; Now and Zone may be nil.
type Options struct {
	Workflows Workflows
	Zone      ZoneLookup
	// ZoneQuery, when set, is used instead of Zone inside check-ins: one
	// SQL statement taking the user id as $1 and returning the profile's
	// chosen zone (no row or "" for none), sent in the check-in's first
	// round trip.
	ZoneQuery string
	Now       func() time.Time
	Log       *slog.Logger
}

// New returns a check-in service.
func New(pool *pgxpool.Pool, o Options) *Service {
	s := &Service{pool: pool, wf: o.Workflows, zone: o.Zone, zoneQuery: o.ZoneQuery, now: o.Now, log: o.Log}
	if s.now == nil {
		s.now = time.Now
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.wf == nil {
		s.wf = Direct{}
	}
	return s
}

// State is the check-in card's view of a user.
type State struct {
	LastCheckin        *string    `json:"last_checkin"`
	SequenceCount      int        `json:"sequence_count"`
	TotalCheckins      int        `json:"total_checkins"`
	TotalCheckinPoints int        `json:"total_checkin_points"`
	LastBonusAt        *time.Time `json:"last_bonus_at"`
	TimeZone           string     `json:"time_zone"`
	Today              string     `json:"today"`
	CheckedInToday     bool       `json:"checked_in_today"`
	CanCheckIn         bool       `json:"can_check_in"`
	Broken             bool       `json:"broken"`
	// NextMidnight is when the next check-in opens: the next local
	// midnight, or, after a time-zone change, the end of the last check-in's
	// day in the zone it was made in, if that is later (see dayEndsAt).
	NextMidnight time.Time `json:"next_midnight"`
}

// Result is the outcome of a successful check-in.
type Result struct {
	State
	Sequence        int  `json:"sequence"`
	PointsAwarded   int  `json:"points_awarded"`
	CompletedStreak bool `json:"completed_streak"`
	BonusPoints     int  `json:"bonus_points"`
}

type row struct {
	last               *time.Time
	seq                int
	total, totalPoints int
	lastBonusAt        *time.Time
	zone               string
	// dayEndsAt is when the last check-in's day ended in the zone it was
	// made in (nil before the first check-in).
	dayEndsAt *time.Time
}

// waitingForDayEnd states the rule that stops a time-zone change from paying twice
// on one real day: a check-in's day ends at midnight in the zone it was made
// in, and the next check-in needs both a later local date in the current
// zone and that instant to have passed. A zone change therefore applies from
// the next day. Without a zone change both conditions coincide, so ordinary
// daily check-ins are unaffected.
func (r row) waitingForDayEnd(now time.Time) bool {
	return r.dayEndsAt != nil && now.Before(*r.dayEndsAt)
}

func (r row) lastDate() *Date {
	if r.last == nil {
		return nil
	}
	d := DateOf(*r.last, time.UTC)
	return &d
}

// profileZone is the zone chosen on the profile, "" when none. It is read
// before any transaction: a lookup on the pool from inside one would hold
// two connections per check-in and can exhaust the pool under load.
func (s *Service) profileZone(ctx context.Context, userID string) (string, error) {
	if s.zone == nil {
		return "", nil
	}
	z, ok, err := s.zone(ctx, userID)
	if err != nil {
		return "", fmt.Errorf("read user time zone: %w", err)
	}
	if !ok {
		return "", nil
	}
	return z, nil
}

func (s *Service) location(userID, profile, stored string) (*time.Location, error) {
	name := stored
	if profile != "" {
		name = profile
	}
	if name == "" {
		name = DefaultTimeZone
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		// A zone the server's tzdata does not know falls back to the default
		// rather than blocking check-ins.
		s.log.Warn("unknown time zone; using default", "zone", name, "user", userID)
		return time.LoadLocation(DefaultTimeZone)
	}
	return loc, nil
}

// ValidZone reports whether name is an IANA zone this server knows.
func ValidZone(name string) bool {
	if name == "" || name == "Local" {
		return false
	}
	_, err := time.LoadLocation(name)
	return err == nil
}

func (s *Service) view(r row, loc *time.Location, now time.Time) State {
	today := DateOf(now, loc)
	st := State{
		SequenceCount:      r.seq,
		TotalCheckins:      r.total,
		TotalCheckinPoints: r.totalPoints,
		LastBonusAt:        r.lastBonusAt,
		TimeZone:           loc.String(),
		Today:              today.String(),
		NextMidnight:       NextMidnight(now, loc),
	}
	last := r.lastDate()
	if last != nil {
		v := last.String()
		st.LastCheckin = &v
	}
	_, st.CanCheckIn = Next(last, r.seq, today)
	st.CheckedInToday = last != nil && *last == today
	if r.waitingForDayEnd(now) {
		// The real day of the last check-in is not over: its credit was paid.
		if st.CanCheckIn {
			// Moved to a zone already on a later day: the check-in opens
			// when the old day ends, before the new zone's midnight.
			st.NextMidnight = *r.dayEndsAt
		}
		st.CanCheckIn, st.CheckedInToday = false, true
	}
	st.Broken = Broken(last, r.seq, today)
	return st
}

// Get returns userID's check-in state.
func (s *Service) Get(ctx context.Context, userID string) (State, error) {
	r := row{zone: ""}
	err := s.pool.QueryRow(ctx, `SELECT last_checkin, sequence_count, total_checkins, total_checkin_points, last_bonus_at, time_zone, last_day_ends_at
		FROM user_daily_checkin WHERE user_id = $1`, userID).
		Scan(&r.last, &r.seq, &r.total, &r.totalPoints, &r.lastBonusAt, &r.zone, &r.dayEndsAt)
	if err != nil && !postgres.IsNoRows(err) {
		return State{}, fmt.Errorf("read check-in state: %w", err)
	}
	profile, err := s.profileZone(ctx, userID)
	if err != nil {
		return State{}, err
	}
	loc, err := s.location(userID, profile, r.zone)
	if err != nil {
		return State{}, err
	}
	return s.view(r, loc, s.now()), nil
}

// CheckIn records today's check-in for userID and credits +5 VetCoins. The
// primary key (user_id, local_date) of checkins and the ledger's idempotency
// key make one check-in and one credit per user-day certain under any
// concurrency; the row lock on user_daily_checkin orders the sequence.
// clientZone is the browser's IANA zone, kept when the user has none yet.
func (s *Service) CheckIn(ctx context.Context, userID, clientZone string) (Result, error) {
	if clientZone != "" && !ValidZone(clientZone) {
		return Result{}, core.Invalid("Fuso horário inválido.", map[string]string{"time_zone": "Fuso horário desconhecido."})
	}
	initialZone := clientZone
	if initialZone == "" {
		initialZone = DefaultTimeZone
	}
	return s.checkIn(ctx, userID, initialZone)
}

// ReminderHour is the local hour of the streak reminder: 20:00 on the day
// after a check-in, in the zone that check-in was made in.
const ReminderHour = 20

// remindAt is when a streak still running after a check-in on today (in
// loc) is reminded of: ReminderHour the next day. time.Date normalises the
// day past a month's end and places the hour correctly across DST changes.
func remindAt(today Date, loc *time.Location) time.Time {
	return time.Date(today.Year, today.Month, today.Day+1, ReminderHour, 0, 0, 0, loc)
}

// checkIn is the check-in transaction in two round trips: BEGIN, the
// profile zone, the user's state (locked) and the balance event's id in the
// first; the day's row, the new state (with its reminder moment), the
// credit, the outbox row of a completed streak's bonus (see outbox.go),
// COMMIT and the balance event's announcement in the second. Nothing waits
// for the workflow engine. Because COMMIT travels with the writes, every
// refusal is raised by PostgreSQL itself: the day's primary key and the
// credit's idempotency key (FailOnUsedKey) abort the transaction, and
// COMMIT in an aborted transaction commits nothing.
func (s *Service) checkIn(ctx context.Context, userID, initialZone string) (res Result, err error) {
	var profile string
	if s.zoneQuery == "" {
		// Looked up before taking a connection: a second pool acquisition
		// while holding one can exhaust the pool under load.
		if profile, err = s.profileZone(ctx, userID); err != nil {
			return Result{}, err
		}
	}
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return Result{}, fmt.Errorf("check-in connection: %w", err)
	}
	// pgxpool destroys a connection released inside a transaction, so a
	// failed ROLLBACK cannot hand an open transaction to the next user.
	defer conn.Release()
	open := true
	defer func() {
		if open {
			_, _ = conn.Exec(context.WithoutCancel(ctx), "ROLLBACK")
		}
	}()

	var r row
	first := &pgx.Batch{}
	first.Queue("BEGIN")
	if s.zoneQuery != "" {
		first.Queue(s.zoneQuery, userID).QueryRow(func(row pgx.Row) error {
			if err := row.Scan(&profile); err != nil && !postgres.IsNoRows(err) {
				return fmt.Errorf("read user time zone: %w", err)
			}
			return nil
		})
	}
	// The state row is locked to order the user's check-ins. On first use
	// there is none: the second batch inserts it, and a concurrent first
	// check-in loses on its primary key.
	exists := true
	first.Queue(`SELECT last_checkin, sequence_count, total_checkins, total_checkin_points, last_bonus_at, time_zone, last_day_ends_at
		FROM user_daily_checkin WHERE user_id = $1 FOR UPDATE`, userID).QueryRow(func(row pgx.Row) error {
		err := row.Scan(&r.last, &r.seq, &r.total, &r.totalPoints, &r.lastBonusAt, &r.zone, &r.dayEndsAt)
		if postgres.IsNoRows(err) {
			exists, r.zone = false, initialZone
			return nil
		}
		return err
	})
	// The credit's balance event is announced after the COMMIT
	// (events.ReserveIDSQL says why), so its id is taken now.
	var eventID int64
	first.Queue(events.ReserveIDSQL).QueryRow(func(row pgx.Row) error { return row.Scan(&eventID) })
	if err := conn.SendBatch(ctx, first).Close(); err != nil {
		return Result{}, fmt.Errorf("lock check-in state: %w", err)
	}
	loc, err := s.location(userID, profile, r.zone)
	if err != nil {
		return Result{}, err
	}
	now := s.now()
	today := DateOf(now, loc)
	step, ok := Next(r.lastDate(), r.seq, today)
	if !ok || r.waitingForDayEnd(now) {
		return Result{}, core.Errorf(core.ECONFLICT, MsgAlreadyToday)
	}
	todayUTC := today.utc()
	dayEnds := NextMidnight(now, loc)
	r.last, r.seq, r.dayEndsAt = &todayUTC, step.Stored, &dayEnds
	r.total++
	r.totalPoints += Points
	if step.CompletesStreak {
		t := now.UTC()
		r.lastBonusAt = &t
	}
	// A completed streak starts again from zero: nothing to remind of.
	var remind *time.Time
	if r.seq > 0 {
		t := remindAt(today, loc)
		remind = &t
	}
	award, err := points.NewAward(userID, Points, points.KindCheckin, "checkin:"+userID+":"+today.String(),
		map[string]any{"date": today.String(), "sequence": step.Sequence})
	if err != nil {
		return Result{}, err
	}
	award = award.FailOnUsedKey().WithReservedEvent(eventID)
	second := &pgx.Batch{}
	second.Queue(`INSERT INTO checkins (user_id, local_date, time_zone, sequence, points, completed_streak)
		VALUES ($1, $2, $3, $4, $5, $6)`, userID, today.String(), loc.String(), step.Sequence, Points, step.CompletesStreak)
	if exists {
		second.Queue(`UPDATE user_daily_checkin SET last_checkin = $2, sequence_count = $3,
			total_checkins = $4, total_checkin_points = $5, last_bonus_at = $6, last_day_ends_at = $7, remind_at = $8, updated_at = now()
			WHERE user_id = $1`,
			userID, today.String(), r.seq, r.total, r.totalPoints, r.lastBonusAt, dayEnds, remind)
	} else {
		second.Queue(`INSERT INTO user_daily_checkin (user_id, last_checkin, sequence_count, total_checkins, total_checkin_points,
			last_bonus_at, last_day_ends_at, remind_at, time_zone) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
			userID, today.String(), r.seq, r.total, r.totalPoints, r.lastBonusAt, dayEnds, remind, r.zone)
	}
	durable := !inTransaction(s.wf)
	if durable && step.CompletesStreak {
		queueBonus(second, userID, today)
	}
	second.Queue(award.SQL, award.Args...).QueryRow(func(row pgx.Row) error {
		_, _, err := award.Scan(row)
		return err
	})
	// An engine that credits inside the transaction (Direct) needs it open
	// after the batch.
	inline := step.CompletesStreak && !durable
	if !inline {
		second.Queue("COMMIT")
		// Skipped by PostgreSQL when anything before failed.
		second.Queue(events.AnnounceSQL, eventID, userID)
		if step.CompletesStreak {
			second.Queue(wakeRelaysSQL)
		}
	}
	err = conn.SendBatch(ctx, second).Close()
	if postgres.IsUniqueViolation(err, "") {
		return Result{}, core.Errorf(core.ECONFLICT, MsgAlreadyToday)
	}
	if err != nil {
		return Result{}, fmt.Errorf("record check-in: %w", err)
	}
	// COMMIT travelled with the batch unless the bonus is credited inline.
	open = inline
	if inline {
		if err := s.wf.StartStreakBonus(ctx, conn, userID, today); err != nil {
			return Result{}, fmt.Errorf("credit streak bonus: %w", err)
		}
		if _, err := conn.Exec(ctx, "COMMIT"); err != nil {
			return Result{}, fmt.Errorf("commit check-in: %w", err)
		}
		open = false
		if _, err := conn.Exec(ctx, events.AnnounceSQL, eventID, userID); err != nil {
			// Committed: the stored event reaches the stream on its next
			// resume.
			s.log.Warn("announce check-in balance event", "user", userID, "err", err)
		}
	}
	res = Result{
		State:           s.view(r, loc, now),
		Sequence:        step.Sequence,
		PointsAwarded:   Points,
		CompletedStreak: step.CompletesStreak,
	}
	if step.CompletesStreak {
		res.BonusPoints = BonusPoints
	}
	return res, nil
}

// inTransaction reports whether wf credits the bonus inside the check-in's
// transaction (Direct) rather than starting durable work after the commit.
func inTransaction(wf Workflows) bool {
	t, ok := wf.(interface{ InTransaction() bool })
	return ok && t.InTransaction()
}

// ResumeWindow is how far back ResumeStreakBonuses looks for completed
// streaks whose bonus is neither credited nor known to be started.
const ResumeWindow = 8 * 24 * time.Hour

// ResumeStreakBonuses starts again the bonus of every streak completed within
// ResumeWindow whose credit is not in the ledger yet: starts are idempotent
// (one workflow id per user and streak), so bonuses already under way are
// not paid twice. It returns how many it started.
func (s *Service) ResumeStreakBonuses(ctx context.Context, ledger *points.Ledger) (int, error) {
	if inTransaction(s.wf) {
		return 0, nil
	}
	rows, err := s.pool.Query(ctx, `SELECT user_id::text, local_date::text FROM checkins
		WHERE completed_streak AND created_at > $1`, s.now().Add(-ResumeWindow))
	if err != nil {
		return 0, fmt.Errorf("completed streaks: %w", err)
	}
	type due struct{ user, date string }
	var all []due
	for rows.Next() {
		var d due
		if err := rows.Scan(&d.user, &d.date); err != nil {
			rows.Close()
			return 0, fmt.Errorf("completed streaks: %w", err)
		}
		all = append(all, d)
	}
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("completed streaks: %w", err)
	}
	keys := make([]string, len(all))
	dates := make([]Date, len(all))
	for i, d := range all {
		if dates[i], err = ParseDate(d.date); err != nil {
			return 0, err
		}
		keys[i] = BonusKey(d.user, dates[i])
	}
	credited, err := ledger.Credited(ctx, keys)
	if err != nil {
		return 0, err
	}
	started := 0
	for i, d := range all {
		if credited[keys[i]] {
			continue
		}
		if err := s.wf.StartStreakBonus(ctx, nil, d.user, dates[i]); err != nil {
			return started, fmt.Errorf("resume streak bonus: %w", err)
		}
		started++
	}
	return started, nil
}

// ResetBroken sets a broken streak's sequence to 0; on a streak
// that is not broken it changes nothing.
func (s *Service) ResetBroken(ctx context.Context, userID string) (State, error) {
	profile, err := s.profileZone(ctx, userID)
	if err != nil {
		return State{}, err
	}
	err = postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		var r row
		err := tx.QueryRow(ctx, `SELECT last_checkin, sequence_count, time_zone FROM user_daily_checkin
			WHERE user_id = $1 FOR UPDATE`, userID).Scan(&r.last, &r.seq, &r.zone)
		if postgres.IsNoRows(err) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("lock check-in state: %w", err)
		}
		loc, err := s.location(userID, profile, r.zone)
		if err != nil {
			return err
		}
		if !Broken(r.lastDate(), r.seq, DateOf(s.now(), loc)) {
			return nil
		}
		_, err = tx.Exec(ctx, `UPDATE user_daily_checkin SET sequence_count = 0, remind_at = NULL, updated_at = now() WHERE user_id = $1`, userID)
		return err
	})
	if err != nil {
		return State{}, err
	}
	return s.Get(ctx, userID)
}

// ErrStreakNotCommitted means the check-in that completed a streak is not
// (yet) visible: the crediting activity retries, and gives up if the
// check-in's transaction rolled back.
var ErrStreakNotCommitted = errors.New("streak check-in not committed")

// CreditStreakBonus credits the +100 bonus for the streak completed on
// streakDate, once: the ledger's idempotency key absorbs retries.
func CreditStreakBonus(ctx context.Context, pool *pgxpool.Pool, userID string, streakDate Date) (created bool, err error) {
	err = postgres.InTx(ctx, pool, func(tx pgx.Tx) error {
		var completed bool
		err := tx.QueryRow(ctx, `SELECT completed_streak FROM checkins WHERE user_id = $1 AND local_date = $2`,
			userID, streakDate.String()).Scan(&completed)
		if postgres.IsNoRows(err) || (err == nil && !completed) {
			return ErrStreakNotCommitted
		}
		if err != nil {
			return fmt.Errorf("read streak check-in: %w", err)
		}
		created, err = creditBonusTx(ctx, tx, userID, streakDate)
		return err
	})
	return created, err
}

func creditBonusTx(ctx context.Context, tx points.Querier, userID string, streakDate Date) (bool, error) {
	_, created, err := points.AwardTx(ctx, tx, userID, BonusPoints, points.KindCheckinBonus,
		BonusKey(userID, streakDate), map[string]any{"streak_completed_on": streakDate.String()})
	if err != nil || !created {
		return false, err
	}
	_, err = tx.Exec(ctx, `UPDATE user_daily_checkin SET total_checkin_points = total_checkin_points + $2, updated_at = now()
		WHERE user_id = $1`, userID, BonusPoints)
	if err != nil {
		return false, fmt.Errorf("count bonus in check-in totals: %w", err)
	}
	return true, nil
}

// BonusKey is the ledger idempotency key of one streak's bonus.
func BonusKey(userID string, streakDate Date) string {
	return "checkin_bonus:" + userID + ":" + streakDate.String()
}

// Direct credits the bonus inside the check-in transaction: the mode used
// when no Temporal cluster is configured.
type Direct struct{}

// InTransaction tells the check-in to pass its transaction.
func (Direct) InTransaction() bool { return true }

// StartStreakBonus credits the bonus in the same transaction.
func (Direct) StartStreakBonus(ctx context.Context, tx points.Querier, userID string, streakDate Date) error {
	_, err := creditBonusTx(ctx, tx, userID, streakDate)
	return err
}
