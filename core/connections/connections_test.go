package connections_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/connections"
	"github.com/vetclube/vetclube/core/notifications"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
	"github.com/vetclube/vetclube/core/profiles"
	"github.com/vetclube/vetclube/core/storage"
)

type fixture struct {
	ctx  context.Context
	pool *pgxpool.Pool
	svc  *connections.Service
	n    int
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	pool := pgtest.New(t)
	store, err := storage.NewDisk(t.TempDir(), "/uploads/")
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	profs := profiles.NewService(pool, store, log)
	return &fixture{ctx: context.Background(), pool: pool, svc: connections.New(pool, profs, notifications.New(pool), log)}
}

// member creates an account with a profile holding specialties.
func (f *fixture) member(t testing.TB, first string, specialties ...string) string {
	t.Helper()
	f.n++
	var id string
	err := f.pool.QueryRow(f.ctx, `INSERT INTO users (email) VALUES ($1) RETURNING id::text`, fmt.Sprintf("m%d@example.com", f.n)).Scan(&id)
	if err != nil {
		t.Fatal(err)
	}
	if specialties == nil {
		specialties = []string{}
	}
	_, err = f.pool.Exec(f.ctx, `INSERT INTO profiles (user_id, first_name, last_name, specialties) VALUES ($1, $2, 'Teste', $3)`, id, first, specialties)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// bareUser is an account that never opened its profile.
func (f *fixture) bareUser(t testing.TB, first string) string {
	t.Helper()
	f.n++
	var id string
	err := f.pool.QueryRow(f.ctx, `INSERT INTO users (email, metadata) VALUES ($1, $2) RETURNING id::text`,
		fmt.Sprintf("b%d@example.com", f.n), map[string]string{"first_name": first, "last_name": "Sem Perfil"}).Scan(&id)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func (f *fixture) count(t testing.TB, id string) int {
	t.Helper()
	var n int
	if err := f.pool.QueryRow(f.ctx, `SELECT connections_count FROM profiles WHERE user_id = $1`, id).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// checkCounts fails when any profile's count differs from its real number
// of accepted connections.
func (f *fixture) checkCounts(t testing.TB) {
	t.Helper()
	rows, err := f.pool.Query(f.ctx, `
		SELECT p.user_id::text, p.connections_count,
		       (SELECT count(*) FROM connections c WHERE c.status = 'accepted' AND (c.requester_id = p.user_id OR c.receiver_id = p.user_id))
		FROM profiles p`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var stored, real int
		if err := rows.Scan(&id, &stored, &real); err != nil {
			t.Fatal(err)
		}
		if stored != real {
			t.Errorf("profile %s: connections_count %d, real %d", id, stored, real)
		}
	}
}

func (f *fixture) status(t testing.TB, me, other string) connections.PairStatus {
	t.Helper()
	st, err := f.svc.Status(f.ctx, me, other)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func (f *fixture) notifications(t testing.TB, user string) []notifications.Notification {
	t.Helper()
	list, err := notifications.New(f.pool).List(f.ctx, user, 100)
	if err != nil {
		t.Fatal(err)
	}
	return list
}

func wantErr(t testing.TB, err error, code, message string) {
	t.Helper()
	var e *core.Error
	if !errors.As(err, &e) || e.Code != code || (message != "" && e.Message != message) {
		t.Fatalf("got %v, want %s %q", err, code, message)
	}
}

func must[T any](t testing.TB) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

func TestStateMachine(t *testing.T) {
	f := newFixture(t)
	ana, bia := f.member(t, "Ana"), f.member(t, "Bia")
	mustRes := must[connections.Result](t)

	if st := f.status(t, ana, bia); st.Status != connections.StatusNone || st.ID != nil {
		t.Fatalf("initial status %+v", st)
	}
	// none → pending
	res := mustRes(f.svc.Request(f.ctx, ana, bia))
	if res.Status != connections.ResultPending || res.ID == nil {
		t.Fatalf("request %+v", res)
	}
	id := *res.ID
	if st := f.status(t, ana, bia); st.Status != connections.StatusPendingSent || *st.ID != id {
		t.Fatalf("requester sees %+v", st)
	}
	if st := f.status(t, bia, ana); st.Status != connections.StatusPendingReceived || *st.ID != id {
		t.Fatalf("receiver sees %+v", st)
	}
	// A repeated request is the same request.
	if again := mustRes(f.svc.Request(f.ctx, ana, bia)); *again.ID != id || again.Status != connections.ResultPending {
		t.Fatalf("repeated request %+v", again)
	}
	lists := must[connections.Lists](t)(f.svc.List(f.ctx, bia, ""))
	if len(lists.Received) != 1 || lists.Received[0].ID != id || lists.Received[0].User.ID != ana || lists.Received[0].User.FirstName != "Ana" || len(lists.Sent) != 0 {
		t.Fatalf("receiver lists %+v", lists)
	}
	lists = must[connections.Lists](t)(f.svc.List(f.ctx, ana, ""))
	if len(lists.Sent) != 1 || lists.Sent[0].User.ID != bia || len(lists.Received) != 0 || len(lists.Connections) != 0 {
		t.Fatalf("requester lists %+v", lists)
	}

	// pending → connected
	if res := mustRes(f.svc.Accept(f.ctx, bia, id)); res.Status != connections.ResultConnected || *res.ID != id {
		t.Fatalf("accept %+v", res)
	}
	// Accepting again (a retried click) changes nothing.
	mustRes(f.svc.Accept(f.ctx, bia, id))
	if f.count(t, ana) != 1 || f.count(t, bia) != 1 {
		t.Fatalf("counts %d %d after accept", f.count(t, ana), f.count(t, bia))
	}
	for _, p := range [][2]string{{ana, bia}, {bia, ana}} {
		if st := f.status(t, p[0], p[1]); st.Status != connections.StatusConnected || *st.ID != id {
			t.Fatalf("connected status %+v", st)
		}
	}
	// Requesting a connection changes nothing.
	if res := mustRes(f.svc.Request(f.ctx, bia, ana)); res.Status != connections.ResultConnected {
		t.Fatalf("request when connected %+v", res)
	}
	_, err := f.svc.Reject(f.ctx, bia, id)
	wantErr(t, err, core.ECONFLICT, "Esta solicitação já foi aceita")

	// connected → none, by either party.
	if res := mustRes(f.svc.Delete(f.ctx, bia, id)); res.Status != connections.ResultNone {
		t.Fatalf("remove %+v", res)
	}
	if f.count(t, ana) != 0 || f.count(t, bia) != 0 || f.status(t, ana, bia).Status != connections.StatusNone {
		t.Fatal("remove left a connection")
	}
	_, err = f.svc.Delete(f.ctx, ana, id)
	wantErr(t, err, core.ENOTFOUND, "Solicitação de conexão não encontrada")

	// pending → none by reject (receiver) ...
	id = *mustRes(f.svc.Request(f.ctx, ana, bia)).ID
	_, err = f.svc.Delete(f.ctx, bia, id)
	wantErr(t, err, core.EFORBIDDEN, "")
	mustRes(f.svc.Reject(f.ctx, bia, id))
	if st := f.status(t, ana, bia); st.Status != connections.StatusNone {
		t.Fatalf("after reject %+v", st)
	}
	// ... or by cancel (requester).
	id = *mustRes(f.svc.Request(f.ctx, ana, bia)).ID
	mustRes(f.svc.Delete(f.ctx, ana, id))
	if st := f.status(t, bia, ana); st.Status != connections.StatusNone {
		t.Fatalf("after cancel %+v", st)
	}
	f.checkCounts(t)
}

func TestBadRequests(t *testing.T) {
	f := newFixture(t)
	ana := f.member(t, "Ana")
	_, err := f.svc.Request(f.ctx, ana, ana)
	wantErr(t, err, core.EINVALID, "Você não pode se conectar consigo mesmo")
	_, err = f.svc.Request(f.ctx, ana, "not-a-uuid")
	wantErr(t, err, core.ENOTFOUND, "Usuário não encontrado")
	_, err = f.svc.Request(f.ctx, ana, "7b0e1c1e-9d1a-4a57-a3a4-5b1d1c1e9d1a")
	wantErr(t, err, core.ENOTFOUND, "Usuário não encontrado")
	_, err = f.svc.Accept(f.ctx, ana, "7b0e1c1e-9d1a-4a57-a3a4-5b1d1c1e9d1a")
	wantErr(t, err, core.ENOTFOUND, "Solicitação de conexão não encontrada")
	_, err = f.svc.Accept(f.ctx, ana, "x")
	wantErr(t, err, core.ENOTFOUND, "Solicitação de conexão não encontrada")
}

// A member who never opened their profile can be asked and connected; the
// profile is created from the sign-up metadata and counts the connection.
func TestMemberWithoutProfile(t *testing.T) {
	f := newFixture(t)
	ana, caio := f.member(t, "Ana"), f.bareUser(t, "Caio")
	id := *must[connections.Result](t)(f.svc.Request(f.ctx, ana, caio)).ID
	lists := must[connections.Lists](t)(f.svc.List(f.ctx, caio, ""))
	if len(lists.Received) != 1 || lists.Received[0].User.FirstName != "Ana" {
		t.Fatalf("lists %+v", lists)
	}
	must[connections.Result](t)(f.svc.Accept(f.ctx, caio, id))
	lists = must[connections.Lists](t)(f.svc.List(f.ctx, ana, ""))
	if len(lists.Connections) != 1 || lists.Connections[0].User.FirstName != "Caio" || lists.Connections[0].User.LastName != "Sem Perfil" {
		t.Fatalf("connections %+v", lists.Connections)
	}
	if f.count(t, caio) != 1 || f.count(t, ana) != 1 {
		t.Fatal("counts")
	}
}

func TestOnlyTheReceiverAnswers(t *testing.T) {
	f := newFixture(t)
	ana, bia, caio := f.member(t, "Ana"), f.member(t, "Bia"), f.member(t, "Caio")
	id := *must[connections.Result](t)(f.svc.Request(f.ctx, ana, bia)).ID

	_, err := f.svc.Accept(f.ctx, ana, id)
	wantErr(t, err, core.EFORBIDDEN, "Apenas quem recebeu a solicitação pode aceitá-la")
	_, err = f.svc.Reject(f.ctx, ana, id)
	wantErr(t, err, core.EFORBIDDEN, "Apenas quem recebeu a solicitação pode rejeitá-la")
	// Someone outside the pair does not even learn the request exists.
	for _, call := range []func(context.Context, string, string) (connections.Result, error){f.svc.Accept, f.svc.Reject, f.svc.Delete} {
		_, err = call(f.ctx, caio, id)
		wantErr(t, err, core.ENOTFOUND, "Solicitação de conexão não encontrada")
	}
	if st := f.status(t, ana, bia); st.Status != connections.StatusPendingSent {
		t.Fatalf("status changed by refused calls: %+v", st)
	}
}

// A request to someone who already asked you accepts theirs.
func TestRequestBackAccepts(t *testing.T) {
	f := newFixture(t)
	ana, bia := f.member(t, "Ana"), f.member(t, "Bia")
	id := *must[connections.Result](t)(f.svc.Request(f.ctx, ana, bia)).ID
	res := must[connections.Result](t)(f.svc.Request(f.ctx, bia, ana))
	if res.Status != connections.ResultConnected || *res.ID != id {
		t.Fatalf("request back %+v", res)
	}
	if f.count(t, ana) != 1 || f.count(t, bia) != 1 {
		t.Fatal("counts")
	}
	// Ana is told once that Bia accepted.
	accepted := 0
	for _, n := range f.notifications(t, ana) {
		if n.Type == "connection" && n.Title == "Conexão aceita" {
			accepted++
		}
	}
	if accepted != 1 {
		t.Fatalf("%d acceptance notices", accepted)
	}
}

// Two members asking each other at the same instant end with one connection.
func TestCrossedRequests(t *testing.T) {
	f := newFixture(t)
	for round := range 15 {
		a, b := f.member(t, fmt.Sprintf("A%d", round)), f.member(t, fmt.Sprintf("B%d", round))
		var wg sync.WaitGroup
		results := make([]connections.Result, 2)
		errs := make([]error, 2)
		start := make(chan struct{})
		for i, pair := range [][2]string{{a, b}, {b, a}} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				results[i], errs[i] = f.svc.Request(f.ctx, pair[0], pair[1])
			}()
		}
		close(start)
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		// One of them asked, the other's request accepted it.
		statuses := map[string]int{results[0].Status: 1}
		statuses[results[1].Status]++
		if statuses[connections.ResultPending] != 1 || statuses[connections.ResultConnected] != 1 || *results[0].ID != *results[1].ID {
			t.Fatalf("round %d: results %+v %+v", round, results[0], results[1])
		}
		var rows int
		if err := f.pool.QueryRow(f.ctx, `SELECT count(*) FROM connections WHERE status = 'accepted'
			AND (requester_id = $1 OR receiver_id = $1)`, a).Scan(&rows); err != nil || rows != 1 {
			t.Fatalf("round %d: %d accepted rows (%v)", round, rows, err)
		}
		if f.count(t, a) != 1 || f.count(t, b) != 1 {
			t.Fatalf("round %d: counts %d %d", round, f.count(t, a), f.count(t, b))
		}
	}
	f.checkCounts(t)
}

// connections_count stays equal to the real count while 50 goroutines
// accept, remove, re-request and block at once around one busy member.
func TestCountsUnderConcurrency(t *testing.T) {
	f := newFixture(t)
	hub := f.member(t, "Hub")
	const n = 50
	others := make([]string, n)
	ids := make([]string, n)
	for i := range others {
		others[i] = f.member(t, fmt.Sprintf("M%d", i))
		ids[i] = *must[connections.Result](t)(f.svc.Request(f.ctx, others[i], hub)).ID
	}
	// Phase 1: every request accepted twice at once (a double click).
	var wg sync.WaitGroup
	for i := range 2 * n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := f.svc.Accept(f.ctx, hub, ids[i%n]); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if got := f.count(t, hub); got != n {
		t.Fatalf("hub count %d after %d accepts", got, n)
	}
	f.checkCounts(t)

	// Phase 2: 50 goroutines each run a random mix of removals (by either
	// party, twice at once), requests, acceptances and blocks on their pair.
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(i), 7))
			other := others[i]
			for range 12 {
				st, err := f.svc.Status(f.ctx, hub, other)
				if err != nil {
					t.Error(err)
					return
				}
				switch {
				case st.Status == connections.StatusBlocked:
					err = f.svc.Unblock(f.ctx, hub, other)
				case rng.IntN(8) == 0:
					err = f.svc.Block(f.ctx, hub, other)
				case st.Status == connections.StatusConnected:
					who := []string{hub, other}[rng.IntN(2)]
					var inner sync.WaitGroup
					for range 2 {
						inner.Add(1)
						go func() {
							defer inner.Done()
							if _, err := f.svc.Delete(f.ctx, who, *st.ID); err != nil && core.ErrorCode(err) != core.ENOTFOUND {
								t.Error(err)
							}
						}()
					}
					inner.Wait()
				case st.Status == connections.StatusNone:
					_, err = f.svc.Request(f.ctx, other, hub)
				case st.Status == connections.StatusPendingReceived:
					_, err = f.svc.Accept(f.ctx, hub, *st.ID)
				}
				if err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	f.checkCounts(t)
}

func TestNotificationsOnce(t *testing.T) {
	f := newFixture(t)
	ana, bia := f.member(t, "Ana"), f.member(t, "Bia")
	var id string
	for range 3 {
		id = *must[connections.Result](t)(f.svc.Request(f.ctx, ana, bia)).ID
	}
	got := f.notifications(t, bia)
	if len(got) != 1 {
		t.Fatalf("%d notices to the receiver, want 1: %+v", len(got), got)
	}
	n := got[0]
	if n.Type != "connection" || n.Title != "Nova solicitação de conexão" || n.Message != "Ana Teste quer se conectar com você" ||
		n.RelatedUserID == nil || *n.RelatedUserID != ana || n.Link != "/connections" || n.Data["connection_id"] != id {
		t.Fatalf("request notice %+v", n)
	}
	for range 3 {
		must[connections.Result](t)(f.svc.Accept(f.ctx, bia, id))
	}
	// Accepted: the receiver keeps the request's notice, read and no longer answerable.
	if got := f.notifications(t, bia); len(got) != 1 || !got[0].IsRead || got[0].Data["connection_id"] != "" ||
		got[0].Message != "Ana Teste quer se conectar com você" {
		t.Fatalf("request notice after acceptance %+v", got)
	}
	got = f.notifications(t, ana)
	if len(got) != 1 || got[0].Title != "Conexão aceita" || got[0].Message != "Bia Teste aceitou sua solicitação de conexão" ||
		*got[0].RelatedUserID != bia || got[0].Data["connection_id"] != "" {
		t.Fatalf("acceptance notices %+v", got)
	}
	// A new request after a removal is a new request, and notifies again.
	must[connections.Result](t)(f.svc.Delete(f.ctx, ana, id))
	must[connections.Result](t)(f.svc.Request(f.ctx, ana, bia))
	if got := f.notifications(t, bia); len(got) != 2 {
		t.Fatalf("%d notices after a second request", len(got))
	}
}

// A request that is cancelled, refused or ended by a block takes its notice
// back: Aceitar / Recusar on it could only answer "not found".
func TestEndedRequestsTakeTheirNoticeBack(t *testing.T) {
	f := newFixture(t)
	ana, bia := f.member(t, "Ana"), f.member(t, "Bia")
	for _, end := range []struct {
		name string
		do   func(id string) error
	}{
		{"cancelled", func(id string) error { _, err := f.svc.Delete(f.ctx, ana, id); return err }},
		{"refused", func(id string) error { _, err := f.svc.Reject(f.ctx, bia, id); return err }},
		{"blocked", func(string) error {
			if err := f.svc.Block(f.ctx, bia, ana); err != nil {
				return err
			}
			return f.svc.Unblock(f.ctx, bia, ana)
		}},
	} {
		id := *must[connections.Result](t)(f.svc.Request(f.ctx, ana, bia)).ID
		if got := f.notifications(t, bia); len(got) != 1 || got[0].Data["connection_id"] != id {
			t.Fatalf("%s: notices before %+v", end.name, got)
		}
		if err := end.do(id); err != nil {
			t.Fatalf("%s: %v", end.name, err)
		}
		if got := f.notifications(t, bia); len(got) != 0 {
			t.Fatalf("%s: the receiver still has %+v", end.name, got)
		}
	}
}

func TestSuggestions(t *testing.T) {
	f := newFixture(t)
	me := f.member(t, "Eu", "cirurgia", "cardiologia", "oncologia")
	friend := f.member(t, "Amiga", "cirurgia")
	pendingOut := f.member(t, "Pedida", "cirurgia", "cardiologia", "oncologia")
	pendingIn := f.member(t, "Pedinte", "cirurgia", "cardiologia", "oncologia")
	blockedByMe := f.member(t, "Bloqueada", "cirurgia", "cardiologia", "oncologia")
	blockedMe := f.member(t, "Bloqueadora", "cirurgia", "cardiologia", "oncologia")
	// Candidates, best first: 1 shared + 2 mutual and 3 shared (both score
	// 3, more mutual wins the tie); 2 shared; 1 mutual and 1 shared (score
	// 1, mutual first); then strangers.
	twoMutual := f.member(t, "DoisMutuos", "cirurgia")
	threeShared := f.member(t, "TresComuns", "cirurgia", "cardiologia", "oncologia")
	twoShared := f.member(t, "DuasComuns", "cardiologia", "oncologia", "dermatologia")
	oneMutual := f.member(t, "UmMutuo")
	oneShared := f.member(t, "UmaComum", "oncologia")
	var strangers []string
	for i := range 4 {
		strangers = append(strangers, f.member(t, fmt.Sprintf("Estranho%d", i), "ortopedia"))
	}
	friend2 := f.member(t, "Amiga2")

	connect := func(a, b string) {
		t.Helper()
		id := *must[connections.Result](t)(f.svc.Request(f.ctx, a, b)).ID
		must[connections.Result](t)(f.svc.Accept(f.ctx, b, id))
	}
	connect(me, friend)
	connect(me, friend2)
	connect(friend, twoMutual)
	connect(friend2, twoMutual)
	connect(friend, oneMutual)
	must[connections.Result](t)(f.svc.Request(f.ctx, me, pendingOut))
	must[connections.Result](t)(f.svc.Request(f.ctx, pendingIn, me))
	if err := f.svc.Block(f.ctx, me, blockedByMe); err != nil {
		t.Fatal(err)
	}
	if err := f.svc.Block(f.ctx, blockedMe, me); err != nil {
		t.Fatal(err)
	}

	list := must[[]connections.Suggestion](t)(f.svc.Suggestions(f.ctx, me))
	if len(list) != connections.SuggestionsLimit {
		t.Fatalf("%d suggestions, want %d", len(list), connections.SuggestionsLimit)
	}
	want := []string{twoMutual, threeShared, twoShared, oneMutual, oneShared}
	for i, w := range want {
		if list[i].User.ID != w {
			t.Fatalf("suggestion %d is %s (%+v), want %s", i, list[i].User.FirstName, list[i], w)
		}
	}
	if !containsID(strangers, list[5].User.ID) {
		t.Fatalf("last suggestion %+v is not a stranger", list[5])
	}
	if list[0].MutualCount != 2 || len(list[0].SharedSpecialties) != 1 || list[1].MutualCount != 0 ||
		fmt.Sprint(list[1].SharedSpecialties) != "[cardiologia cirurgia oncologia]" {
		t.Fatalf("scores %+v %+v", list[0], list[1])
	}
	excluded := []string{me, friend, friend2, pendingOut, pendingIn, blockedByMe, blockedMe}
	for _, s := range list {
		if containsID(excluded, s.User.ID) {
			t.Fatalf("excluded member %s suggested", s.User.FirstName)
		}
	}
	// Without anything in common, everyone else is suggested, never more than six.
	loner := f.member(t, "Sozinho")
	if got := must[[]connections.Suggestion](t)(f.svc.Suggestions(f.ctx, loner)); len(got) != 6 {
		t.Fatalf("loner gets %d suggestions", len(got))
	}
}

func containsID(ids []string, id string) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

func TestMutual(t *testing.T) {
	f := newFixture(t)
	ana, bia := f.member(t, "Ana"), f.member(t, "Bia")
	carla, davi, edu := f.member(t, "Carla"), f.member(t, "Davi"), f.member(t, "Edu")
	connect := func(a, b string) {
		id := *must[connections.Result](t)(f.svc.Request(f.ctx, a, b)).ID
		must[connections.Result](t)(f.svc.Accept(f.ctx, b, id))
	}
	connect(ana, carla)
	connect(bia, carla)
	connect(ana, davi)
	connect(davi, bia)
	connect(ana, edu)                                           // not Bia's
	must[connections.Result](t)(f.svc.Request(f.ctx, bia, edu)) // pending is not a connection
	m := must[connections.Mutual](t)(f.svc.MutualWith(f.ctx, ana, bia))
	if m.Count != 2 || len(m.Mutual) != 2 || m.Mutual[0].ID != carla || m.Mutual[1].ID != davi {
		t.Fatalf("mutual %+v", m)
	}
	if m := must[connections.Mutual](t)(f.svc.MutualWith(f.ctx, ana, ana)); m.Count != 0 || len(m.Mutual) != 0 {
		t.Fatalf("mutual with self %+v", m)
	}
}

func TestSearchIgnoresAccents(t *testing.T) {
	f := newFixture(t)
	me := f.member(t, "Eu")
	joao, maria := f.member(t, "João"), f.member(t, "Maria")
	for _, other := range []string{joao, maria} {
		id := *must[connections.Result](t)(f.svc.Request(f.ctx, other, me)).ID
		must[connections.Result](t)(f.svc.Accept(f.ctx, me, id))
	}
	for q, want := range map[string]string{"joao": joao, "JOÃO teste": joao, " mar ": maria} {
		l := must[connections.Lists](t)(f.svc.List(f.ctx, me, q))
		if len(l.Connections) != 1 || l.Connections[0].User.ID != want {
			t.Fatalf("q=%q: %+v", q, l.Connections)
		}
	}
	if l := must[connections.Lists](t)(f.svc.List(f.ctx, me, "%")); len(l.Connections) != 0 {
		t.Fatalf("a %% search matched %d", len(l.Connections))
	}
	if l := must[connections.Lists](t)(f.svc.List(f.ctx, me, "")); len(l.Connections) != 2 {
		t.Fatalf("blank search lists %d", len(l.Connections))
	}
}

func TestBlocking(t *testing.T) {
	f := newFixture(t)
	ana, bia := f.member(t, "Ana"), f.member(t, "Bia")
	id := *must[connections.Result](t)(f.svc.Request(f.ctx, ana, bia)).ID
	must[connections.Result](t)(f.svc.Accept(f.ctx, bia, id))

	// Blocking removes the connection and its count.
	if err := f.svc.Block(f.ctx, bia, ana); err != nil {
		t.Fatal(err)
	}
	if err := f.svc.Block(f.ctx, bia, ana); err != nil {
		t.Fatalf("blocking twice: %v", err)
	}
	if f.count(t, ana) != 0 || f.count(t, bia) != 0 {
		t.Fatal("block left the count")
	}
	for _, p := range [][2]string{{ana, bia}, {bia, ana}} {
		if st := f.status(t, p[0], p[1]); st.Status != connections.StatusBlocked || st.ID != nil {
			t.Fatalf("status %+v", st)
		}
		_, err := f.svc.Request(f.ctx, p[0], p[1])
		wantErr(t, err, core.EFORBIDDEN, "Não é possível se conectar com este usuário")
	}
	if yes, err := f.svc.Blocked(f.ctx, ana, bia); err != nil || !yes {
		t.Fatalf("Blocked = %v, %v", yes, err)
	}
	// A pending request is removed too.
	caio := f.member(t, "Caio")
	must[connections.Result](t)(f.svc.Request(f.ctx, caio, ana))
	if err := f.svc.Block(f.ctx, ana, caio); err != nil {
		t.Fatal(err)
	}
	if l := must[connections.Lists](t)(f.svc.List(f.ctx, ana, "")); len(l.Received) != 0 {
		t.Fatalf("request survived the block: %+v", l.Received)
	}
	err := f.svc.Block(f.ctx, ana, ana)
	wantErr(t, err, core.EINVALID, "Você não pode bloquear a si mesmo")
	// Each sees only the people they blocked: Ana blocked Caio; Bia, who
	// blocked Ana, is not revealed to her.
	if l := must[[]profiles.Summary](t)(f.svc.BlockedByMe(f.ctx, ana)); len(l) != 1 || l[0].ID != caio {
		t.Fatalf("Ana's blocked list %+v", l)
	}
	if l := must[[]profiles.Summary](t)(f.svc.BlockedByMe(f.ctx, bia)); len(l) != 1 || l[0].ID != ana {
		t.Fatalf("Bia's blocked list %+v", l)
	}

	// Only the blocker lifts their own block; then requests work again.
	if err := f.svc.Unblock(f.ctx, ana, bia); err != nil { // Ana never blocked Bia
		t.Fatal(err)
	}
	if st := f.status(t, ana, bia); st.Status != connections.StatusBlocked {
		t.Fatalf("ana lifted bia's block: %+v", st)
	}
	if err := f.svc.Unblock(f.ctx, bia, ana); err != nil {
		t.Fatal(err)
	}
	if res := must[connections.Result](t)(f.svc.Request(f.ctx, ana, bia)); res.Status != connections.ResultPending {
		t.Fatalf("request after unblock %+v", res)
	}
	f.checkCounts(t)
}

// TestNewRequestsAreRateLimited: a member sends at most Requests new
// connection requests per window; repeating one already sent costs nothing,
// and a refused request leaves no row behind.
func TestNewRequestsAreRateLimited(t *testing.T) {
	f := newFixture(t)
	f.svc.Requests.Max = 3
	ana := f.member(t, "Ana")
	var others []string
	for _, n := range []string{"Bia", "Caio", "Duda", "Enzo"} {
		others = append(others, f.member(t, n))
	}
	for _, o := range others[:3] {
		if _, err := f.svc.Request(f.ctx, ana, o); err != nil {
			t.Fatalf("request within the limit: %v", err)
		}
	}
	// Repeating a pending request is answered, not counted.
	if _, err := f.svc.Request(f.ctx, ana, others[0]); err != nil {
		t.Fatalf("repeated request: %v", err)
	}
	_, err := f.svc.Request(f.ctx, ana, others[3])
	wantErr(t, err, core.ERATELIMITED, connections.MsgTooManyRequests)
	if st := f.status(t, ana, others[3]); st.Status != "none" {
		t.Fatalf("refused request left a pair in state %q", st.Status)
	}
	// Another member is not affected by Ana's count.
	if _, err := f.svc.Request(f.ctx, others[3], others[2]); err != nil {
		t.Fatalf("another member's request: %v", err)
	}
}
