package eventos_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	ics "github.com/arran4/golang-ical"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/eventos"
	"github.com/vetclube/vetclube/core/signups"
)

// at is a moment in São Paulo.
func (e *env) at(y int, m time.Month, d, h, min int) time.Time {
	return time.Date(y, m, d, h, min, 0, 0, e.sp)
}

// The next-event card shows the first active event dated today or later
// (São Paulo's today), by date then time: today's count even once started;
// past and inactive (cancelled) ones never do.
func TestNextEventIsTheFirstActiveEventFromToday(t *testing.T) {
	e := newEnv(t, nil)
	now := e.at(2030, 3, 10, 15, 0)
	e.srv.App.Content.SetClock(func() time.Time { return now })
	svc := e.srv.App.Eventos
	if next, err := svc.Next(t.Context()); err != nil || next != nil {
		t.Fatalf("no events yet: %v %v", next, err)
	}
	e.publish(t, "ontem", e.fields(e.at(2030, 3, 9, 10, 0), 0))
	tomorrowEarly := e.publish(t, "amanha-cedo", e.fields(e.at(2030, 3, 11, 7, 0), 0))
	e.publish(t, "amanha-tarde", e.fields(e.at(2030, 3, 11, 14, 0), 0))
	todayLate := e.publish(t, "hoje-noite", e.fields(e.at(2030, 3, 10, 20, 0), 0))
	cancelled := e.fields(e.at(2030, 3, 10, 6, 0), 0)
	cancelled["cancelled"] = true
	e.publish(t, "cancelado-hoje", cancelled)
	todayEarly := e.publish(t, "hoje-cedo", e.fields(e.at(2030, 3, 10, 8, 0), 0))

	next, err := svc.Next(t.Context())
	if err != nil || next == nil || next.ID != todayEarly.ID {
		t.Fatalf("next = %+v, %v; want today's 08:00 event (already started, still today)", next, err)
	}
	if next.Date != "2030-03-10" || next.Time != "08:00" || next.Type != "Workshop" || next.Icon != "📅" || !next.IsActive {
		t.Errorf("next event fields: %+v", next)
	}
	list, err := svc.List(t.Context(), eventos.Filter{When: eventos.Upcoming})
	if err != nil {
		t.Fatal(err)
	}
	var slugs []string
	for _, ev := range list {
		slugs = append(slugs, ev.Slug)
	}
	if got := strings.Join(slugs, ","); got != "hoje-cedo,hoje-noite,amanha-cedo,amanha-tarde" {
		t.Fatalf("upcoming = %s", got)
	}
	past, err := svc.List(t.Context(), eventos.Filter{When: eventos.Past})
	if err != nil || len(past) != 1 || past[0].Slug != "ontem" {
		t.Fatalf("past = %+v %v", past, err)
	}
	// Cancelling today's first event hands the card to the next one.
	e.edit(t, todayEarly.ID, map[string]any{"cancelled": true})
	if next, _ := svc.Next(t.Context()); next == nil || next.ID != todayLate.ID {
		t.Fatalf("after cancelling, next = %+v", next)
	}
	// At midnight today's events become past.
	now = e.at(2030, 3, 11, 0, 0)
	if next, _ := svc.Next(t.Context()); next == nil || next.ID != tomorrowEarly.ID {
		t.Fatalf("the next day, next = %+v", next)
	}
	// Filters: type and month.
	congress := e.fields(e.at(2030, 4, 2, 9, 0), 0)
	congress["event_type"] = "Congresso"
	e.publish(t, "congresso-abril", congress)
	if l, _ := svc.List(t.Context(), eventos.Filter{Type: "Congresso"}); len(l) != 1 || l[0].Slug != "congresso-abril" {
		t.Errorf("type filter: %+v", l)
	}
	if l, _ := svc.List(t.Context(), eventos.Filter{Month: "2030-03"}); len(l) != 2 {
		t.Errorf("month filter: %d events", len(l))
	}
	if _, err := svc.List(t.Context(), eventos.Filter{Month: "março"}); core.ErrorCode(err) != core.EINVALID {
		t.Errorf("bad month: %v", err)
	}
	// Search: partial words, no accents, typos when nothing matches.
	for q, want := range map[string]string{"congres": "congresso-abril", "AMANHÃ": "amanha-cedo,amanha-tarde", "congreso": "congresso-abril",
		"amanha congres": "", "&|!:*()'": ""} {
		l, err := svc.List(t.Context(), eventos.Filter{Search: q})
		var got []string
		for _, ev := range l {
			got = append(got, ev.Slug)
		}
		if err != nil || strings.Join(got, ",") != want {
			t.Errorf("search %q: %v %v, want %s", q, got, err, want)
		}
	}
	if _, err := svc.List(t.Context(), eventos.Filter{Search: strings.Repeat("a", 201)}); core.ErrorCode(err) != core.EINVALID {
		t.Errorf("long search: %v", err)
	}
	// The month filter offers only months that hold events.
	if m, err := svc.Months(t.Context(), eventos.Filter{When: eventos.Upcoming}); err != nil || strings.Join(m, ",") != "2030-03,2030-04" {
		t.Errorf("upcoming months: %v %v", m, err)
	}
	if m, err := svc.Months(t.Context(), eventos.Filter{When: eventos.Past, Type: "Congresso"}); err != nil || len(m) != 0 {
		t.Errorf("past congress months: %v %v", m, err)
	}
	// Over HTTP, for a visitor.
	var body struct{ Event *eventos.Event }
	if res := e.srv.Client(t).Do("GET", "/api/eventos/next", nil); res.Status != http.StatusOK {
		t.Fatalf("GET next: %d", res.Status)
	} else {
		res.JSON(t, &body)
	}
	if body.Event == nil || body.Event.ID != tomorrowEarly.ID {
		t.Errorf("GET /api/eventos/next = %+v", body.Event)
	}
}

// 200 people pressing "Participar" at once on a 50-seat event: exactly 50
// get a seat, the rest hear it is full, and the counter equals the rows.
func TestCapacityHoldsUnder200SimultaneousSignups(t *testing.T) {
	e := newEnv(t, nil)
	it := e.publish(t, "lotado", e.fields(time.Now().Add(72*time.Hour), 50))
	users := e.users(t, "corrida", 200)
	svc := e.srv.App.Eventos
	var wg sync.WaitGroup
	var mu sync.Mutex
	joined, full := 0, 0
	var other []error
	start := make(chan struct{})
	for _, u := range users {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			_, err := svc.Join(context.Background(), it.ID, u)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				joined++
			case core.ErrorCode(err) == core.ECONFLICT && strings.Contains(err.Error(), "Não há mais vagas"):
				full++
			default:
				other = append(other, err)
			}
		}()
	}
	close(start)
	wg.Wait()
	if len(other) > 0 {
		t.Fatalf("unexpected errors: %v", errors.Join(other...))
	}
	if joined != 50 || full != 150 {
		t.Fatalf("joined %d, full %d; want 50 and 150", joined, full)
	}
	var rows, counter int
	if err := e.srv.App.Pool.QueryRow(t.Context(), `SELECT (SELECT count(*) FROM signups WHERE item_id = $1),
		(SELECT participants FROM signup_counts WHERE item_id = $1)`, it.ID).Scan(&rows, &counter); err != nil {
		t.Fatal(err)
	}
	if rows != 50 || counter != 50 {
		t.Fatalf("rows %d, counter %d", rows, counter)
	}
	ev, err := svc.Get(t.Context(), it.ID, users[0])
	if err != nil || ev.Current != 50 || !ev.Full || *ev.SeatsLeft != 0 {
		t.Fatalf("event after the rush: %+v %v", ev, err)
	}
}

// A freed seat goes at once to the first person waiting, held for the
// configured time; an unclaimed offer passes to the next person; claiming
// takes the seat. (Expiry driven here by the service on a moved clock; the
// Temporal timers drive it in TestOffersAndRemindersOnTemporal.)
func TestWaitingListOffersExpireAndPassOn(t *testing.T) {
	e := newEnv(t, map[string]string{"EVENT_SEAT_OFFER_HOLD": "12h"})
	now := time.Now()
	e.srv.App.Content.SetClock(func() time.Time { return now })
	it := e.publish(t, "uma-vaga", e.fields(now.Add(10*24*time.Hour), 1))
	u := e.users(t, "fila", 4)
	seated, first, second, late := u[0], u[1], u[2], u[3]
	svc := e.srv.App.Eventos
	ctx := t.Context()
	if _, err := svc.Join(ctx, it.ID, seated); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Join(ctx, it.ID, first); core.ErrorCode(err) != core.ECONFLICT {
		t.Fatalf("join a full event: %v", err)
	}
	for _, w := range []string{first, second} {
		if _, err := svc.Wait(ctx, it.ID, w); err != nil {
			t.Fatal(err)
		}
	}
	if ev, _ := svc.Get(ctx, it.ID, second); ev.Me.Status != signups.StatusWaiting || ev.Me.Position != 2 {
		t.Fatalf("second in line: %+v", ev.Me)
	}
	// Cancelling frees the seat at once: it is offered to the first in line.
	ev, err := svc.Leave(ctx, it.ID, seated)
	if err != nil || ev.Current != 0 || *ev.SeatsLeft != 0 {
		t.Fatalf("after leaving: %+v %v", ev, err)
	}
	ev, _ = svc.Get(ctx, it.ID, first)
	if ev.Me.Status != signups.StatusOffered || !ev.Me.Offer.ExpiresAt.Equal(now.Add(12*time.Hour).Truncate(time.Microsecond)) {
		t.Fatalf("first in line: %+v", ev.Me)
	}
	offer := ev.Me.Offer.ID
	// The held seat is nobody else's.
	if _, err := svc.Join(ctx, it.ID, late); core.ErrorCode(err) != core.ECONFLICT {
		t.Fatalf("a newcomer took the held seat: %v", err)
	}
	// The notification carries the offer.
	if err := svc.NotifyOffer(ctx, offer); err != nil {
		t.Fatal(err)
	}
	var data string
	if err := e.srv.App.Pool.QueryRow(ctx, `SELECT data::text FROM notifications WHERE user_id = $1 AND type = 'event'`, first).Scan(&data); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(data, offer) || !strings.Contains(data, it.ID) {
		t.Fatalf("offer notification data %s", data)
	}
	// Before its time the offer stands.
	if later, err := svc.ExpireOffer(ctx, offer); err != nil || later == nil {
		t.Fatalf("early expiry: %v %v", later, err)
	}
	now = now.Add(12*time.Hour + time.Second)
	if later, err := svc.ExpireOffer(ctx, offer); err != nil || later != nil {
		t.Fatalf("expiry: %v %v", later, err)
	}
	if again, err := svc.ExpireOffer(ctx, offer); err != nil || again != nil {
		t.Fatalf("second expiry: %v %v", again, err)
	}
	if ev, _ := svc.Get(ctx, it.ID, first); ev.Me.Status != signups.StatusNone {
		t.Fatalf("first after the expiry: %+v", ev.Me)
	}
	ev, _ = svc.Get(ctx, it.ID, second)
	if ev.Me.Status != signups.StatusOffered {
		t.Fatalf("the seat did not pass to the second in line: %+v", ev.Me)
	}
	if _, err := svc.Join(ctx, it.ID, first); core.ErrorCode(err) != core.ECONFLICT {
		t.Fatalf("an expired offer still claimed a seat: %v", err)
	}
	ev, err = svc.Join(ctx, it.ID, second)
	if err != nil || ev.Me.Status != signups.StatusParticipant || ev.Current != 1 {
		t.Fatalf("claim: %+v %v", ev, err)
	}
	var held, participants int
	if err := e.srv.App.Pool.QueryRow(ctx, `SELECT held, participants FROM signup_counts WHERE item_id = $1`, it.ID).Scan(&held, &participants); err != nil {
		t.Fatal(err)
	}
	if held != 0 || participants != 1 {
		t.Fatalf("held %d participants %d", held, participants)
	}
}

// The meeting link of an online event is shown only to participants, and
// only from 30 minutes before the start.
func TestMeetingLinkOnlyForParticipantsNearTheStart(t *testing.T) {
	e := newEnv(t, nil)
	now := time.Now()
	e.srv.App.Content.SetClock(func() time.Time { return now })
	f := e.fields(now.Add(2*time.Hour), 10)
	f["online"], f["meeting_url"] = true, "https://meet.example.org/sala"
	delete(f, "location")
	it := e.publish(t, "online", f)
	u := e.users(t, "link", 2)
	svc := e.srv.App.Eventos
	if _, err := svc.Join(t.Context(), it.ID, u[0]); err != nil {
		t.Fatal(err)
	}
	if ev, _ := svc.Get(t.Context(), it.ID, u[0]); ev.MeetingURL != "" || ev.MeetingOpensAt == nil {
		t.Fatalf("link two hours early: %+v", ev)
	}
	now = now.Add(91 * time.Minute)
	if ev, _ := svc.Get(t.Context(), it.ID, u[0]); ev.MeetingURL != "https://meet.example.org/sala" {
		t.Fatalf("participant 29 min before: %q", ev.MeetingURL)
	}
	if ev, _ := svc.Get(t.Context(), it.ID, u[1]); ev.MeetingURL != "" {
		t.Fatalf("non-participant sees the link")
	}
	if ev, _ := svc.Get(t.Context(), it.ID, ""); ev.MeetingURL != "" {
		t.Fatalf("visitor sees the link")
	}
	// No other read hands the link out: the generic content API does not
	// serve events, and the event's own API, its calendar file and its
	// Google Calendar link carry it for nobody but the participant.
	visitor := e.srv.Client(t)
	for _, path := range []string{"/api/content/eventos/online", "/api/content/eventos", "/api/eventos/online",
		"/api/eventos", "/api/eventos/next", "/api/eventos/online/calendar.ics"} {
		res := visitor.Do("GET", path, nil)
		if strings.Contains(string(res.Body), "meet.example.org") {
			t.Errorf("GET %s (%d) shows the meeting link to a visitor: %s", path, res.Status, res.Body)
		}
		if strings.HasPrefix(path, "/api/content/") && res.Status != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404 (events are read through /api/eventos)", path, res.Status)
		}
	}
}

// Once an event is cancelled or has started its seats are settled: leaving
// is refused (it would offer a seat nobody can take) and an offer made
// before the cancellation is not announced.
func TestNoSeatChangesOnceCancelledOrStarted(t *testing.T) {
	e := newEnv(t, nil)
	now := time.Now()
	e.srv.App.Content.SetClock(func() time.Time { return now })
	svc := e.srv.App.Eventos
	ctx := t.Context()
	u := e.users(t, "encerrado", 4)
	a, b, c, d := u[0], u[1], u[2], u[3]

	it := e.publish(t, "vai-cancelar", e.fields(now.Add(5*24*time.Hour), 2))
	for _, p := range []string{a, d} {
		if _, err := svc.Join(ctx, it.ID, p); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := svc.Wait(ctx, it.ID, b); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Leave(ctx, it.ID, a); err != nil {
		t.Fatal(err)
	}
	ev, _ := svc.Get(ctx, it.ID, b)
	if ev.Me.Status != signups.StatusOffered {
		t.Fatalf("b after a left: %+v", ev.Me)
	}
	offer := ev.Me.Offer.ID
	e.edit(t, it.ID, map[string]any{"cancelled": true})
	if err := svc.NotifyOffer(ctx, offer); err != nil {
		t.Fatal(err)
	}
	var told int
	if err := e.srv.App.Pool.QueryRow(ctx, `SELECT count(*) FROM notifications WHERE user_id = $1`, b).Scan(&told); err != nil {
		t.Fatal(err)
	}
	if told != 0 {
		t.Fatalf("a seat of a cancelled event was announced (%d notifications)", told)
	}
	if _, err := svc.Leave(ctx, it.ID, d); core.ErrorCode(err) != core.ECONFLICT || !strings.Contains(err.Error(), eventos.MsgCancelled) {
		t.Fatalf("leaving a cancelled event: %v", err)
	}
	if seats, _ := svc.Signups().Participants(ctx, it.ID); !slices.Contains(seats, d) {
		t.Fatal("the refused leave still dropped the seat")
	}

	started := e.publish(t, "ja-comecou", e.fields(now.Add(time.Hour), 1))
	if _, err := svc.Join(ctx, started.ID, c); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Wait(ctx, started.ID, b); err != nil {
		t.Fatal(err)
	}
	now = now.Add(61 * time.Minute)
	if _, err := svc.Leave(ctx, started.ID, c); core.ErrorCode(err) != core.ECONFLICT || !strings.Contains(err.Error(), eventos.MsgClosed) {
		t.Fatalf("leaving a started event: %v", err)
	}
	if ev, _ := svc.Get(ctx, started.ID, b); ev.Me.Status != signups.StatusWaiting || ev.Current != 1 {
		t.Fatalf("after a refused leave of a started event: %+v current %d", ev.Me, ev.Current)
	}
}

// The .ics file served by the API parses back with a real iCalendar parser
// (github.com/arran4/golang-ical) with the event's times, place and a UID
// that stays the same when the event moves.
func TestCalendarFileParsesBack(t *testing.T) {
	e := newEnv(t, nil)
	start := e.at(2031, 5, 20, 19, 30)
	f := e.fields(start, 20)
	f["end_time"] = "22:00"
	f["location"] = "Rua Augusta, 100; sala 3, São Paulo"
	it := e.publish(t, "com-agenda", f)
	get := func() *ics.VEvent {
		t.Helper()
		res := e.srv.Client(t).Do("GET", "/api/eventos/com-agenda/calendar.ics", nil)
		if res.Status != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/calendar") {
			t.Fatalf("GET ics: %d %s", res.Status, res.Header.Get("Content-Type"))
		}
		cal, err := ics.ParseCalendar(strings.NewReader(string(res.Body)))
		if err != nil {
			t.Fatalf("parse: %v\n%s", err, res.Body)
		}
		evs := cal.Events()
		if len(evs) != 1 {
			t.Fatalf("%d events", len(evs))
		}
		return evs[0]
	}
	ev := get()
	uid := ev.Id()
	if uid != it.ID+"@vetclube" {
		t.Errorf("UID %q", uid)
	}
	s, err := ev.GetStartAt()
	if err != nil || !s.Equal(start) {
		t.Errorf("start %v %v, want %v", s, err, start)
	}
	end, err := ev.GetEndAt()
	if err != nil || !end.Equal(e.at(2031, 5, 20, 22, 0)) {
		t.Errorf("end %v %v", end, err)
	}
	if loc := ev.GetProperty(ics.ComponentPropertyLocation); loc == nil || loc.Value != "Rua Augusta, 100; sala 3, São Paulo" {
		t.Errorf("location %+v", loc)
	}
	if sum := ev.GetProperty(ics.ComponentPropertySummary); sum == nil || sum.Value != "Evento com-agenda" {
		t.Errorf("summary %+v", sum)
	}
	// Moved a day later: same UID, new time, higher SEQUENCE.
	seq := ev.GetProperty(ics.ComponentPropertySequence).Value
	e.edit(t, it.ID, map[string]any{"event_date": "2031-05-21"})
	moved := get()
	if moved.Id() != uid {
		t.Errorf("UID changed: %s", moved.Id())
	}
	if s, _ := moved.GetStartAt(); !s.Equal(start.AddDate(0, 0, 1)) {
		t.Errorf("moved start %v", s)
	}
	if next := moved.GetProperty(ics.ComponentPropertySequence).Value; next <= seq && len(next) <= len(seq) {
		t.Errorf("sequence %s after %s", next, seq)
	}
	if !strings.Contains(eventos.GoogleCalendarURL(eventos.Event{Title: "X", StartsAt: start, EndsAt: end, TimeZone: "America/Sao_Paulo"}, "http://x"),
		fmt.Sprintf("dates=%s%%2F", start.UTC().Format("20060102T150405Z"))) {
		t.Error("google calendar link dates")
	}
}

// 24 h after its end an event is taken offline through the editorial
// workflow (the events' timer calls UnpublishEnded then) and stays among
// past events, its page still readable.
func TestEndedEventUnpublishesAndStaysPast(t *testing.T) {
	e := newEnv(t, nil)
	now := e.at(2030, 6, 1, 10, 0)
	e.srv.App.Content.SetClock(func() time.Time { return now })
	f := e.fields(e.at(2030, 6, 1, 19, 0), 0)
	f["end_time"] = "21:00"
	it := e.publish(t, "terminado", f)
	svc := e.srv.App.Eventos
	now = e.at(2030, 6, 2, 20, 59)
	if later, err := svc.UnpublishEnded(t.Context(), it.ID); err != nil || later == nil || !later.Equal(e.at(2030, 6, 2, 21, 0)) {
		t.Fatalf("before its moment: %v %v", later, err)
	}
	now = e.at(2030, 6, 2, 21, 0)
	if later, err := svc.UnpublishEnded(t.Context(), it.ID); err != nil || later != nil {
		t.Fatalf("at its moment: %v %v", later, err)
	}
	got, err := e.srv.App.Content.Store.Get(t.Context(), it.ID)
	if err != nil || got.Published {
		t.Fatalf("still published: %+v %v", got, err)
	}
	past, err := svc.List(t.Context(), eventos.Filter{When: eventos.Past})
	if err != nil || len(past) != 1 || past[0].ID != it.ID || past[0].Published {
		t.Fatalf("past list: %+v %v", past, err)
	}
	if res := e.srv.Client(t).Do("GET", "/api/eventos/terminado", nil); res.Status != http.StatusOK {
		t.Fatalf("past event page: %d", res.Status)
	}
}

// The backoffice creates and publishes an event through the generated
// content API (no event-specific admin code): the plugin's hook checks the
// place and computes is_active, and the published event is listed.
func TestBackofficeCreatesAndPublishesAnEvent(t *testing.T) {
	e := newEnv(t, nil)
	editor, _ := e.srv.SignedIn(t, "carla@teste.dev", "editor")
	revisor, _ := e.srv.SignedIn(t, "rafael@teste.dev", "revisor")
	start := time.Now().Add(9 * 24 * time.Hour).In(e.sp)
	fields := map[string]any{"description": "Programação completa do intensivo de emergências.", "event_type": "Intensivo",
		"event_date": start.Format(time.DateOnly), "event_time": "08:30", "end_time": "17:30", "online": false,
		"instructor": "Dra. Juliana", "max_participants": 30}
	res := editor.Do("POST", "/api/admin/content/eventos", map[string]any{"slug": "intensivo-novo", "title": "Intensivo novo", "summary": "Um dia inteiro", "fields": fields})
	if res.Status != http.StatusUnprocessableEntity || !strings.Contains(string(res.Body), "Informe o local do evento presencial.") {
		t.Fatalf("no place: %d %s", res.Status, res.Body)
	}
	fields["location"] = "Hospital Veterinário, São Paulo"
	fields["is_active"] = false // computed: what an editor sends is dropped
	res = editor.Do("POST", "/api/admin/content/eventos", map[string]any{"slug": "intensivo-novo", "title": "Intensivo novo", "summary": "Um dia inteiro", "fields": fields})
	if res.Status != http.StatusCreated {
		t.Fatalf("create: %d %s", res.Status, res.Body)
	}
	var it struct {
		ID      string
		Version int
		Fields  map[string]any
	}
	res.JSON(t, &it)
	if it.Fields["is_active"] != true {
		t.Fatalf("is_active %v", it.Fields["is_active"])
	}
	act := func(c *apptest.Client, action string) {
		t.Helper()
		res := c.Do("POST", "/api/admin/content/eventos/"+it.ID+"/actions/"+action, map[string]any{"version": it.Version})
		if res.Status != http.StatusOK {
			t.Fatalf("%s: %d %s", action, res.Status, res.Body)
		}
		res.JSON(t, &it)
	}
	act(editor, "submit")
	act(revisor, "approve")
	act(revisor, "publish")
	list, err := e.srv.App.Eventos.List(t.Context(), eventos.Filter{Type: "Intensivo"})
	if err != nil || len(list) != 1 || list[0].Time != "08:30" || list[0].EndTime != "17:30" || *list[0].SeatsLeft != 30 {
		t.Fatalf("listed: %+v %v", list, err)
	}
}

// Reminders and seat offers give times in each participant's own zone (their
// notification settings' zone), naming it when it is not the event's; a
// stale start or a moment past the start sends nothing.
func TestRemindersAndOffersInTheParticipantsZone(t *testing.T) {
	e := newEnv(t, nil)
	now := e.at(2030, 8, 9, 12, 0)
	e.srv.App.Content.SetClock(func() time.Time { return now })
	svc := e.srv.App.Eventos
	ctx := t.Context()
	start := e.at(2030, 8, 10, 19, 0)
	it := e.publish(t, "fusos", e.fields(start, 2))
	u := e.users(t, "fuso", 3)
	sp, manaus, waiting := u[0], u[1], u[2]
	if _, err := e.srv.App.Pool.Exec(ctx, `INSERT INTO notification_preferences (user_id, time_zone) VALUES ($1, 'America/Manaus'), ($2, 'America/Manaus')`,
		manaus, waiting); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{sp, manaus} {
		if _, err := svc.Join(ctx, it.ID, p); err != nil {
			t.Fatal(err)
		}
	}
	message := func(user, kind string) string {
		t.Helper()
		var m string
		if err := e.srv.App.Pool.QueryRow(ctx, `SELECT message FROM notifications WHERE user_id = $1 AND data->>'reminder' = $2`, user, kind).Scan(&m); err != nil {
			t.Fatalf("%s reminder of %s: %v", kind, user, err)
		}
		return m
	}
	if n, err := svc.SendReminder(ctx, it.ID, eventos.Reminder24h, start, start.Add(-24*time.Hour)); err != nil || n != 2 {
		t.Fatalf("24h reminder: %d %v", n, err)
	}
	if got := message(sp, "24h"); got != "\u201cEvento fusos\u201d é amanhã, 10 de agosto às 19:00." {
		t.Errorf("São Paulo participant: %q", got)
	}
	if got := message(manaus, "24h"); got != "\u201cEvento fusos\u201d é amanhã, 10 de agosto às 18:00 (no seu fuso, America/Manaus)." {
		t.Errorf("Manaus participant: %q", got)
	}
	if n, err := svc.SendReminder(ctx, it.ID, eventos.Reminder1h, start, start.Add(-time.Hour)); err != nil || n != 2 {
		t.Fatalf("1h reminder: %d %v", n, err)
	}
	if got := message(manaus, "1h"); got != "\u201cEvento fusos\u201d começa em 1 hora, às 18:00 (no seu fuso, America/Manaus)." {
		t.Errorf("Manaus participant, 1 h: %q", got)
	}
	// A start that is no longer the event's, or a firing after the start, sends nothing.
	if n, err := svc.SendReminder(ctx, it.ID, eventos.Reminder1h, start.Add(time.Hour), start); err != nil || n != 0 {
		t.Errorf("stale start: %d %v", n, err)
	}
	if n, err := svc.SendReminder(ctx, it.ID, eventos.Reminder1h, start, start); err != nil || n != 0 {
		t.Errorf("at the start: %d %v", n, err)
	}

	if _, err := svc.Wait(ctx, it.ID, waiting); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Leave(ctx, it.ID, sp); err != nil {
		t.Fatal(err)
	}
	ev, _ := svc.Get(ctx, it.ID, waiting)
	if ev.Me.Status != signups.StatusOffered {
		t.Fatalf("waiting after a seat freed: %+v", ev.Me)
	}
	if err := svc.NotifyOffer(ctx, ev.Me.Offer.ID); err != nil {
		t.Fatal(err)
	}
	var offer string
	if err := e.srv.App.Pool.QueryRow(ctx, `SELECT message FROM notifications WHERE user_id = $1 AND title = 'Vaga disponível'`, waiting).Scan(&offer); err != nil {
		t.Fatal(err)
	}
	// Offered at 12:00 in São Paulo, held 12 h: until midnight there, 23:00 in Manaus.
	if want := "Abriu uma vaga em \u201cEvento fusos\u201d. Confirme sua participação até 09/08 às 23:00 (no seu fuso, America/Manaus)."; offer != want {
		t.Errorf("offer: %q, want %q", offer, want)
	}
}
