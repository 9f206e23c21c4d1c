// Package eventos is the core side of the events content type (plugin
// plugins/eventos): the events' reading model (event_listings, typed from
// each published snapshot by a trigger), the upcoming and past lists, the
// next-event card, the event page with the reader's seat (core/signups),
// the .ics file and Google Calendar link, and the hand-over of every
// schedule change to the durable timers (reminders 24 h and 1 h before the
// start, cancellation notices, seat offers, the automatic unpublish 24 h
// after the end).
//
// The database is the source of truth: a change to an event queues its id
// in event_sync_queue in the publishing transaction, and KeepSynced passes
// it to the timers; a fired reminder re-reads the event and sends nothing
// for a start that is no longer current.
package eventos

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"
	_ "time/tzdata" // the events' zones must load on any machine

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/notifications"
	"github.com/vetclube/vetclube/core/postgres"
	"github.com/vetclube/vetclube/core/search"
	"github.com/vetclube/vetclube/core/signups"
)

// TypeID is the events content type (plugins/eventos).
const TypeID = "eventos"

// DefaultZone is the events' time zone when an event names none, and the
// zone whose "today" decides what is upcoming.
const DefaultZone = "America/Sao_Paulo"

// MeetingLinkLead is how long before the start a participant sees the
// meeting link.
const MeetingLinkLead = 30 * time.Minute

// AutoUnpublishAfter is how long after its end an event goes offline (and
// stays among past events).
const AutoUnpublishAfter = 24 * time.Hour

// Messages readers see.
const (
	MsgNotFound     = "Evento não encontrado."
	MsgCancelled    = "Este evento foi cancelado."
	MsgClosed       = "As inscrições para este evento estão encerradas."
	MsgBadMonth     = "Informe o mês no formato AAAA-MM."
	MsgBadWhen      = "Escolha próximos ou passados."
	MsgNoOfferToUse = "Esta oferta de vaga não está mais disponível."
)

// Event is an event as readers see it.
type Event struct {
	ID          string    `json:"id"`
	Slug        string    `json:"slug"`
	Title       string    `json:"title"`
	Summary     string    `json:"summary"`
	Description string    `json:"description,omitempty"`
	Type        string    `json:"event_type"`
	Icon        string    `json:"icon"`
	Date        string    `json:"event_date"` // local date in TimeZone, 2026-12-01
	Time        string    `json:"event_time"` // local start, HH:mm
	EndTime     string    `json:"end_time,omitempty"`
	TimeZone    string    `json:"time_zone"`
	StartsAt    time.Time `json:"starts_at"`
	EndsAt      time.Time `json:"ends_at"`
	Online      bool      `json:"online"`
	Location    string    `json:"location"`
	Instructor  string    `json:"instructor"`
	PriceText   string    `json:"price_text"`
	IsActive    bool      `json:"is_active"`
	Published   bool      `json:"published"`
	Max         *int      `json:"max_participants"`
	Current     int       `json:"current_participants"`
	// SeatsLeft is what anyone may take now (nil: unlimited); seats held
	// for pending offers are not free.
	SeatsLeft *int `json:"seats_left"`
	Full      bool `json:"full"`
	// MeetingURL is set only for a participant, from MeetingLinkLead before
	// the start; MeetingOpensAt says when it will be.
	MeetingURL     string         `json:"meeting_url,omitempty"`
	MeetingOpensAt *time.Time     `json:"meeting_opens_at,omitempty"`
	Me             *signups.State `json:"me,omitempty"`
	Revision       int            `json:"revision"`

	meetingURL string
	held       int
}

// Timers are the events' durable timers (workflows.EventTimers on Temporal).
type Timers interface {
	// Schedule sets or moves the reminders of item itemID to its start and
	// its automatic unpublish to AutoUnpublishAfter past its end.
	Schedule(ctx context.Context, itemID string, startsAt, endsAt time.Time) error
	// Cancel drops the reminders and tells everyone with a place in the
	// event (NotifyCancelled) that, cancelled at cancelledAt, it will not
	// happen.
	Cancel(ctx context.Context, itemID string, cancelledAt time.Time) error
	// StartOffer runs an offer's timer: notify now, expire at ExpiresAt.
	StartOffer(ctx context.Context, o signups.Offer) error
}

// AutoUnpublish takes item itemID offline through the editorial workflow
// (the events' timer calls it AutoUnpublishAfter past the end). It runs
// only then, so it never bumps the version of an event an editor is
// working on around its publication.
type AutoUnpublish func(ctx context.Context, itemID string) error

// Service serves events.
type Service struct {
	pool      *pgxpool.Pool
	signups   *signups.Service
	notify    notifications.Sender
	timers    Timers
	unpublish AutoUnpublish
	zone      *time.Location
	now       func() time.Time
	log       *slog.Logger
}

// Options configures a Service.
type Options struct {
	Signups *signups.Service
	Notify  notifications.Sender
	// Timers nil: no reminders or offer expiry (no Temporal).
	Timers        Timers
	AutoUnpublish AutoUnpublish
	Now           func() time.Time
	Log           *slog.Logger
}

// New returns a service on pool.
func New(pool *pgxpool.Pool, opts Options) (*Service, error) {
	zone, err := time.LoadLocation(DefaultZone)
	if err != nil {
		return nil, fmt.Errorf("events: zone: %w", err)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	return &Service{pool: pool, signups: opts.Signups, notify: opts.Notify, timers: opts.Timers, unpublish: opts.AutoUnpublish,
		zone: zone, now: opts.Now, log: opts.Log}, nil
}

// Signups is the seats service the events use.
func (s *Service) Signups() *signups.Service { return s.signups }

// SetTimers sets the durable timers once they exist (the worker is built
// after the service).
func (s *Service) SetTimers(t Timers) { s.timers = t }

// Today is the current date in DefaultZone.
func (s *Service) Today() string { return s.now().In(s.zone).Format(time.DateOnly) }

const eventColumns = `l.item_id, l.slug, l.title, l.summary, l.description, l.event_type, l.icon,
	to_char(l.event_date, 'YYYY-MM-DD'), to_char(l.event_time, 'HH24:MI'), coalesce(to_char(l.end_time, 'HH24:MI'), ''),
	l.time_zone, l.starts_at, l.ends_at, l.online, l.location, l.meeting_url, l.instructor, l.price_text, l.is_active,
	l.published, l.max_participants, coalesce(c.participants, 0), coalesce(c.held, 0), l.revision`

const eventFrom = ` FROM event_listings l LEFT JOIN signup_counts c ON c.item_id = l.item_id `

func scanEvent(row pgx.Row) (Event, error) {
	var e Event
	err := row.Scan(&e.ID, &e.Slug, &e.Title, &e.Summary, &e.Description, &e.Type, &e.Icon, &e.Date, &e.Time, &e.EndTime,
		&e.TimeZone, &e.StartsAt, &e.EndsAt, &e.Online, &e.Location, &e.meetingURL, &e.Instructor, &e.PriceText, &e.IsActive,
		&e.Published, &e.Max, &e.Current, &e.held, &e.Revision)
	if err != nil {
		return e, err
	}
	if e.Max != nil {
		left := max(*e.Max-e.Current-e.held, 0)
		e.SeatsLeft, e.Full = &left, left == 0
	}
	return e, nil
}

// When picks upcoming or past events.
type When string

const (
	Upcoming When = "upcoming"
	Past     When = "past"
)

// Filter narrows a list.
type Filter struct {
	When   When
	Type   string // event_type ("" for all)
	Month  string // YYYY-MM ("" for all)
	Search string // the reader's words, matched as core/search matches them
}

// MaxList bounds a list answer.
const MaxList = 200

// upcomingCondition: published, active, dated today or later (the
// next-event rule). pastCondition: active, dated before today, and still
// published or taken offline only after its end (the automatic unpublish).
const (
	upcomingCondition = `l.published AND l.is_active AND l.event_date >= $1::date`
	pastCondition     = `l.is_active AND l.event_date < $1::date AND (l.published OR l.kept_as_past)`
)

// List returns the events f asks for: upcoming by date then time, past
// newest first.
func (s *Service) List(ctx context.Context, f Filter) ([]Event, error) {
	cond, order := upcomingCondition, `l.event_date, l.event_time, l.title`
	switch f.When {
	case Upcoming, "":
	case Past:
		cond, order = pastCondition, `l.event_date DESC, l.event_time DESC, l.title`
	default:
		return nil, core.Invalid(MsgBadWhen, map[string]string{"when": MsgBadWhen})
	}
	args := []any{s.Today()}
	if f.Type != "" {
		args = append(args, f.Type)
		cond += fmt.Sprintf(` AND l.event_type = $%d`, len(args))
	}
	if f.Month != "" {
		first, err := time.Parse("2006-01", f.Month)
		if err != nil {
			return nil, core.Invalid(MsgBadMonth, map[string]string{"month": MsgBadMonth})
		}
		args = append(args, first.Format(time.DateOnly), first.AddDate(0, 1, 0).Format(time.DateOnly))
		cond += fmt.Sprintf(` AND l.event_date >= $%d::date AND l.event_date < $%d::date`, len(args)-1, len(args))
	}
	if search.TooLong(f.Search) {
		return nil, core.Invalid(search.MsgTooLong, map[string]string{"q": search.MsgTooLong})
	}
	if q := search.Parse(f.Search); q.Given() {
		arg := func(v any) string { args = append(args, v); return fmt.Sprintf("$%d", len(args)) }
		cond += " AND " + q.SQL(arg, search.Target{Alias: "l", Table: "event_listings", Vector: "search", Title: "title",
			Scope: "is_active AND (published OR kept_as_past)"}).Where
	}
	rows, err := s.pool.Query(ctx, `SELECT `+eventColumns+eventFrom+` WHERE `+cond+` ORDER BY `+order+fmt.Sprintf(` LIMIT %d`, MaxList), args...)
	if err != nil {
		return nil, fmt.Errorf("list events: %w", err)
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Event, error) { return scanEvent(r) })
	if err != nil {
		return nil, fmt.Errorf("list events: %w", err)
	}
	return list, nil
}

// Months are the months (YYYY-MM) that hold at least one event of f's
// period and type, in the list's order: the month filter offers only these.
// f.Month and f.Search are ignored.
func (s *Service) Months(ctx context.Context, f Filter) ([]string, error) {
	cond, order := upcomingCondition, "1"
	switch f.When {
	case Upcoming, "":
	case Past:
		cond, order = pastCondition, "1 DESC"
	default:
		return nil, core.Invalid(MsgBadWhen, map[string]string{"when": MsgBadWhen})
	}
	args := []any{s.Today()}
	if f.Type != "" {
		args = append(args, f.Type)
		cond += fmt.Sprintf(` AND l.event_type = $%d`, len(args))
	}
	rows, err := s.pool.Query(ctx, `SELECT DISTINCT to_char(l.event_date, 'YYYY-MM') FROM event_listings l WHERE `+cond+` ORDER BY `+order, args...)
	if err != nil {
		return nil, fmt.Errorf("event months: %w", err)
	}
	months, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("event months: %w", err)
	}
	return months, nil
}

// Next is the home card's event: the first active event dated today or
// later, by date then time; nil when there is none.
func (s *Service) Next(ctx context.Context) (*Event, error) {
	e, err := scanEvent(s.pool.QueryRow(ctx, `SELECT `+eventColumns+eventFrom+` WHERE `+upcomingCondition+`
		ORDER BY l.event_date, l.event_time, l.title LIMIT 1`, s.Today()))
	if postgres.IsNoRows(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("next event: %w", err)
	}
	return &e, nil
}

// Get returns the event named by idOrSlug as readerID sees it ("" for a
// visitor): published ones, and past ones taken offline after their end.
func (s *Service) Get(ctx context.Context, idOrSlug, readerID string) (Event, error) {
	cond := `l.slug = $1`
	if uuid.Validate(idOrSlug) == nil {
		cond = `l.item_id = $1::uuid`
	}
	e, err := scanEvent(s.pool.QueryRow(ctx, `SELECT `+eventColumns+eventFrom+` WHERE `+cond+`
		AND (l.published OR l.kept_as_past) ORDER BY l.published DESC LIMIT 1`, idOrSlug))
	if postgres.IsNoRows(err) {
		return Event{}, core.Errorf(core.ENOTFOUND, MsgNotFound)
	}
	if err != nil {
		return Event{}, fmt.Errorf("read event: %w", err)
	}
	if readerID == "" || !e.Published {
		return e, nil
	}
	st, err := s.signups.StateOf(ctx, e.ID, readerID)
	if err != nil {
		return Event{}, err
	}
	e.Me = &st
	if e.Online && e.meetingURL != "" && st.Status == signups.StatusParticipant {
		opens := e.StartsAt.Add(-MeetingLinkLead)
		e.MeetingOpensAt = &opens
		if !s.now().Before(opens) {
			e.MeetingURL = e.meetingURL
		}
	}
	return e, nil
}

// open checks that readers may still sign up for e.
func (s *Service) open(e Event) error {
	switch {
	case !e.Published:
		return core.Errorf(core.ENOTFOUND, MsgNotFound)
	case !e.IsActive:
		return core.Errorf(core.ECONFLICT, MsgCancelled)
	case !s.now().Before(e.StartsAt):
		return core.Errorf(core.ECONFLICT, MsgClosed)
	}
	return nil
}

// Join takes a seat for userID (or the seat their offer holds).
func (s *Service) Join(ctx context.Context, idOrSlug, userID string) (Event, error) {
	e, err := s.Get(ctx, idOrSlug, "")
	if err != nil {
		return Event{}, err
	}
	if err := s.open(e); err != nil {
		return Event{}, err
	}
	if err := s.signups.Join(ctx, e.ID, userID); err != nil {
		return Event{}, err
	}
	return s.Get(ctx, e.ID, userID)
}

// Leave gives up userID's seat, offer or place in line; a freed seat goes
// at once to the first person waiting, whose offer timer starts here. Once
// the event is cancelled or has started the seats are settled: leaving then
// would offer a seat nobody can take.
func (s *Service) Leave(ctx context.Context, idOrSlug, userID string) (Event, error) {
	e, err := s.Get(ctx, idOrSlug, "")
	if err != nil {
		return Event{}, err
	}
	if err := s.open(e); err != nil {
		return Event{}, err
	}
	offers, err := s.signups.Leave(ctx, e.ID, userID)
	if err != nil {
		return Event{}, err
	}
	s.startOffers(ctx, offers)
	return s.Get(ctx, e.ID, userID)
}

// Wait puts userID on the waiting list of a full event.
func (s *Service) Wait(ctx context.Context, idOrSlug, userID string) (Event, error) {
	e, err := s.Get(ctx, idOrSlug, "")
	if err != nil {
		return Event{}, err
	}
	if err := s.open(e); err != nil {
		return Event{}, err
	}
	if err := s.signups.Wait(ctx, e.ID, userID); err != nil {
		return Event{}, err
	}
	return s.Get(ctx, e.ID, userID)
}

// startOffers starts the timers of offers made by a committed change; a
// failure is logged (the offer is stored, and KeepSynced's catch-up starts
// any pending offer without a timer).
func (s *Service) startOffers(ctx context.Context, offers []signups.Offer) {
	if s.timers == nil {
		return
	}
	for _, o := range offers {
		if err := s.timers.StartOffer(ctx, o); err != nil {
			s.log.Warn("events: offer timer not started", "offer", o.ID, "err", err)
		}
	}
}

// ExpireOffer ends an offer whose time has come and starts the timer of
// the offer that takes its seat (the offer timer's activity).
func (s *Service) ExpireOffer(ctx context.Context, offerID string) (later *time.Time, err error) {
	// An offer on a cancelled event passes its seat to nobody: the event's
	// offers are released instead (the cancellation's sync does it too; this
	// covers a timer that fires first).
	var cancelled bool
	if uuid.Validate(offerID) == nil {
		err = s.pool.QueryRow(ctx, `SELECT NOT l.is_active AND l.cancelled_at IS NOT NULL
			FROM signup_offers o JOIN event_listings l ON l.item_id = o.item_id WHERE o.id = $1`, offerID).Scan(&cancelled)
	}
	if err != nil && !postgres.IsNoRows(err) {
		return nil, fmt.Errorf("read offer's event: %w", err)
	}
	if cancelled {
		o, err := s.signups.GetOffer(ctx, offerID)
		if err != nil {
			return nil, err
		}
		_, err = s.signups.ReleaseOffers(ctx, o.ItemID)
		return nil, err
	}
	later, next, err := s.signups.Expire(ctx, offerID)
	if core.ErrorCode(err) == core.ENOTFOUND {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	s.startOffers(ctx, next)
	return later, nil
}

// Link is an event's page in the PWA.
func Link(slug string) string { return "/eventos/" + slug }

// NotifyOffer tells the person offered a seat, once per offer; an offer no
// longer pending is not announced.
func (s *Service) NotifyOffer(ctx context.Context, offerID string) error {
	o, err := s.signups.GetOffer(ctx, offerID)
	if core.ErrorCode(err) == core.ENOTFOUND {
		return nil
	}
	if err != nil {
		return err
	}
	if o.Status != "pending" || o.Slug == "" {
		return nil
	}
	e, err := s.Get(ctx, o.ItemID, "")
	if core.ErrorCode(err) == core.ENOTFOUND {
		return nil // unpublished meanwhile
	}
	if err != nil {
		return err
	}
	// A seat of a cancelled or started event cannot be claimed: announcing
	// it would only disappoint.
	if s.open(e) != nil {
		return nil
	}
	zone := s.readerZone(ctx, o.UserID, s.zoneOf(e))
	until := o.ExpiresAt.In(zone).Format("02/01 às 15:04") + zoneNote(zone, s.zoneOf(e))
	_, err = s.notify.Send(ctx, notifications.Notice{
		UserID: o.UserID, Type: "event", Title: "Vaga disponível",
		Message: fmt.Sprintf("Abriu uma vaga em \u201c%s\u201d. Confirme sua participação até %s.", e.Title, until),
		Link:    Link(e.Slug), Data: map[string]string{"event_id": e.ID, "offer_id": o.ID},
		IdempotencyKey: "event-offer:" + o.ID,
	})
	return err
}

// UnpublishEnded takes an event offline once AutoUnpublishAfter has passed
// since its end; it stays among past events. An event moved later returns
// its new moment in later; one already offline or cancelled is left alone.
func (s *Service) UnpublishEnded(ctx context.Context, itemID string) (later *time.Time, err error) {
	var published, active bool
	var endsAt time.Time
	err = s.pool.QueryRow(ctx, `SELECT published, is_active, ends_at FROM event_listings WHERE item_id = $1`, itemID).
		Scan(&published, &active, &endsAt)
	if postgres.IsNoRows(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read event: %w", err)
	}
	at := endsAt.Add(AutoUnpublishAfter)
	switch {
	case !published || !active || s.unpublish == nil:
		return nil, nil
	case at.After(s.now()):
		return &at, nil
	}
	// Kept among past events before it leaves the published ones.
	if _, err := s.pool.Exec(ctx, `UPDATE event_listings SET kept_as_past = true WHERE item_id = $1`, itemID); err != nil {
		return nil, fmt.Errorf("keep past event: %w", err)
	}
	return nil, s.unpublish(ctx, itemID)
}

// ReminderKind names a reminder by how long before the start it fires.
type ReminderKind string

const (
	Reminder24h ReminderKind = "24h"
	Reminder1h  ReminderKind = "1h"
)

// SendReminder tells every participant that the event starts soon, once per
// (event, participant, kind, start). It sends nothing when the event is no
// longer published and active, when startsAt is no longer its start (the
// event moved: that reminder is stale), or when at (the moment the timer
// fired) is not before the start. It returns how many participants it told.
func (s *Service) SendReminder(ctx context.Context, itemID string, kind ReminderKind, startsAt, at time.Time) (int, error) {
	e, err := s.Get(ctx, itemID, "")
	if core.ErrorCode(err) == core.ENOTFOUND {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	if !e.Published || !e.IsActive || !e.StartsAt.Equal(startsAt) || !at.Before(e.StartsAt) {
		return 0, nil
	}
	when := "amanhã"
	if kind == Reminder1h {
		when = "em 1 hora"
	}
	eventZone := s.zoneOf(e)
	return s.tellParticipants(ctx, e, func(userID string) notifications.Notice {
		// The start in the participant's own zone, named when it is not the event's.
		zone := s.readerZone(ctx, userID, eventZone)
		local, note := e.StartsAt.In(zone), zoneNote(zone, eventZone)
		msg := fmt.Sprintf("\u201c%s\u201d começa %s, às %s%s.", e.Title, when, local.Format("15:04"), note)
		if kind == Reminder24h {
			msg = fmt.Sprintf("\u201c%s\u201d é %s, %s às %s%s.", e.Title, when, DateLabel(local), local.Format("15:04"), note)
		}
		return notifications.Notice{UserID: userID, Type: "event", Title: "Lembrete de evento", Message: msg, Link: Link(e.Slug),
			Data:           map[string]string{"event_id": e.ID, "reminder": string(kind)},
			IdempotencyKey: fmt.Sprintf("event-reminder:%s:%s:%s:%d", e.ID, userID, kind, startsAt.Unix())}
	})
}

// NotifyCancelled tells everyone with a place in the event that it was
// cancelled, once per person and cancellation (cancelledAt): participants,
// the people waiting, and those a seat was being held for (their offers are
// released first). An event active again by now is not announced.
//
// The waiting list stays as it was: should the event be on again, the
// people waiting keep their places, the released offers' holders first.
func (s *Service) NotifyCancelled(ctx context.Context, itemID string, cancelledAt time.Time) (int, error) {
	var e Event
	var cancelled *time.Time
	err := s.pool.QueryRow(ctx, `SELECT item_id, slug, title, is_active, cancelled_at FROM event_listings WHERE item_id = $1`, itemID).
		Scan(&e.ID, &e.Slug, &e.Title, &e.IsActive, &cancelled)
	if postgres.IsNoRows(err) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("read event: %w", err)
	}
	if e.IsActive || cancelled == nil {
		return 0, nil
	}
	released, err := s.signups.ReleaseOffers(ctx, e.ID)
	if err != nil {
		return 0, err
	}
	places, err := s.places(ctx, e.ID, released)
	if err != nil {
		return 0, err
	}
	lines := map[place]string{
		placeParticipant: "Sua inscrição não precisa de nenhuma ação.",
		placeOffer:       "A vaga reservada para você foi liberada; você não precisa fazer nada.",
		placeWaiting:     "Você estava na lista de espera e não precisa fazer nada.",
	}
	return s.tell(ctx, places, func(userID string, p place) notifications.Notice {
		return notifications.Notice{UserID: userID, Type: "event", Title: "Evento cancelado",
			Message: fmt.Sprintf("\u201c%s\u201d foi cancelado. %s", e.Title, lines[p]),
			Link:    Link(e.Slug), Data: map[string]string{"event_id": e.ID, "place": string(p)},
			IdempotencyKey: fmt.Sprintf("event-cancelled:%s:%s:%d", e.ID, userID, cancelledAt.Unix())}
	})
}

// place is what a person holds in an event.
type place string

const (
	placeParticipant place = "participant"
	placeOffer       place = "offer"
	placeWaiting     place = "waiting"
)

// placed is one person and their place.
type placed struct {
	userID string
	place  place
}

// places lists everyone with a place in itemID, each once: participants,
// then the holders of offers (released, or whose release put them back in
// line), then the people waiting, in line order.
func (s *Service) places(ctx context.Context, itemID string, released []signups.Offer) ([]placed, error) {
	participants, err := s.signups.Participants(ctx, itemID)
	if err != nil {
		return nil, err
	}
	waiting, err := s.signups.Waiting(ctx, itemID)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var out []placed
	add := func(userID string, p place) {
		if !seen[userID] {
			seen[userID] = true
			out = append(out, placed{userID, p})
		}
	}
	for _, u := range participants {
		add(u, placeParticipant)
	}
	for _, o := range released {
		add(o.UserID, placeOffer)
	}
	for _, w := range waiting {
		if w.OfferReleased {
			add(w.UserID, placeOffer)
		}
	}
	for _, w := range waiting {
		add(w.UserID, placeWaiting)
	}
	return out, nil
}

func (s *Service) tellParticipants(ctx context.Context, e Event, notice func(userID string) notifications.Notice) (int, error) {
	users, err := s.signups.Participants(ctx, e.ID)
	if err != nil {
		return 0, err
	}
	list := make([]placed, len(users))
	for i, u := range users {
		list[i] = placed{u, placeParticipant}
	}
	return s.tell(ctx, list, func(userID string, _ place) notifications.Notice { return notice(userID) })
}

// tell sends each person their notice; a failed send does not stop the
// others (the idempotency keys make the retry tell only those missed).
func (s *Service) tell(ctx context.Context, list []placed, notice func(userID string, p place) notifications.Notice) (int, error) {
	var errs []error
	told := 0
	for _, p := range list {
		if _, err := s.notify.Send(ctx, notice(p.userID, p.place)); err != nil {
			errs = append(errs, err)
			continue
		}
		told++
	}
	return told, errors.Join(errs...)
}

// preferenceReader is the part of the notifications service that knows a
// member's time zone (their notification settings, else their profile).
type preferenceReader interface {
	Preferences(ctx context.Context, userID string) (notifications.Preferences, error)
}

// readerZone is the zone userID reads times in; fallback when it is not
// known or does not load.
func (s *Service) readerZone(ctx context.Context, userID string, fallback *time.Location) *time.Location {
	pr, ok := s.notify.(preferenceReader)
	if !ok {
		return fallback
	}
	p, err := pr.Preferences(ctx, userID)
	if err != nil || p.TimeZone == "" {
		return fallback
	}
	z, err := time.LoadLocation(p.TimeZone)
	if err != nil {
		return fallback
	}
	return z
}

// zoneNote names the reader's zone after a time given in it, when it is not
// the event's own (" (no seu fuso, America/Manaus)"); "" otherwise.
func zoneNote(reader, event *time.Location) string {
	if reader.String() == event.String() {
		return ""
	}
	return " (no seu fuso, " + reader.String() + ")"
}

func (s *Service) zoneOf(e Event) *time.Location {
	if z, err := time.LoadLocation(e.TimeZone); err == nil {
		return z
	}
	return s.zone
}

var months = []string{"janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro", "novembro", "dezembro"}

// DateLabel is t's date as 'dd de MMMM' in pt-BR ("05 de dezembro").
func DateLabel(t time.Time) string {
	return fmt.Sprintf("%02d de %s", t.Day(), months[t.Month()-1])
}

// cleanLine keeps one line of text for calendar fields.
func cleanLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
