package sdktest_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/vetclube/vetclube/plugins/sdk"
	"github.com/vetclube/vetclube/plugins/sdk/sdktest"
)

// counter is a small plugin: POST /visit counts the user's visits in the KV
// store with compare-and-set and awards 5 VetCoins on the third one.
func counter(host *sdk.Host) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /visit", func(w http.ResponseWriter, r *http.Request) {
		ctx, user := r.Context(), sdk.UserFrom(r.Context())
		key := "visits:" + user.ID
		for {
			old, found, err := host.KVGet(ctx, key)
			if err != nil {
				sdk.WriteHostError(w, err, "Falha ao contar.")
				return
			}
			n := 0
			if found {
				_ = json.Unmarshal(old, &n)
			} else {
				old = nil
			}
			next, _ := json.Marshal(n + 1)
			swapped, err := host.KVCompareAndSet(ctx, key, old, next, 0)
			if err != nil {
				sdk.WriteHostError(w, err, "Falha ao contar.")
				return
			}
			if !swapped {
				continue
			}
			if n+1 == 3 {
				if _, err := host.AwardVetCoins(ctx, 5, "três visitas", "third-visit:"+user.ID); err != nil {
					sdk.WriteHostError(w, err, "Falha ao premiar.")
					return
				}
			}
			sdk.WriteJSON(w, http.StatusOK, map[string]int{"visits": n + 1})
			return
		}
	})
	return mux
}

func do(t *testing.T, h http.Handler, r *http.Request) *httptest.ResponseRecorder {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	return rec
}

func TestCompareAndSetCountsEveryConcurrentVisit(t *testing.T) {
	host := sdktest.New(t)
	h := counter(host.Host)
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if rec := do(t, h, host.As(httptest.NewRequest("POST", "/visit", nil), sdktest.User("ana"))); rec.Code != 200 {
				t.Errorf("visit: %d %s", rec.Code, rec.Body)
			}
		}()
	}
	wg.Wait()
	if v, _ := host.KV("visits:ana"); string(v) != "20" {
		t.Fatalf("visits = %s, want 20 (a lost update means compare-and-set is not atomic)", v)
	}
	// The third visit awarded once; its idempotency key kept later retries out.
	if a := host.Awards(); len(a) != 1 || a[0].UserID != "ana" || a[0].Amount != 5 {
		t.Fatalf("awards = %+v", a)
	}
}

func TestCompareAndSetRules(t *testing.T) {
	host := sdktest.New(t)
	ctx := context.Background()
	kv := host.Host
	if ok, err := kv.KVCompareAndSet(ctx, "k", nil, []byte("a"), 0); !ok || err != nil {
		t.Fatalf("set when absent: %v %v", ok, err)
	}
	if ok, _ := kv.KVCompareAndSet(ctx, "k", nil, []byte("b"), 0); ok {
		t.Fatal("only-if-absent swapped over an existing value")
	}
	if ok, _ := kv.KVCompareAndSet(ctx, "k", []byte("x"), []byte("b"), 0); ok {
		t.Fatal("swapped although the old value differs")
	}
	if ok, _ := kv.KVCompareAndSet(ctx, "k", []byte("a"), []byte("b"), 0); !ok {
		t.Fatal("did not swap on the matching old value")
	}
	if v, found, _ := kv.KVGet(ctx, "k"); !found || string(v) != "b" {
		t.Fatalf("get = %q %v", v, found)
	}
	if err := kv.KVDelete(ctx, "k"); err != nil {
		t.Fatal(err)
	}
	if _, found, _ := kv.KVGet(ctx, "k"); found {
		t.Fatal("found after delete")
	}
	if err := kv.KVSet(ctx, "", []byte("x"), 0); status.Code(unwrapStatus(err)) != codes.InvalidArgument {
		t.Fatalf("empty key: %v", err)
	}
}

// unwrapStatus finds the gRPC status inside the SDK's wrapped error.
func unwrapStatus(err error) error {
	if st, ok := status.FromError(err); ok {
		return st.Err()
	}
	return err
}

func TestTTLFollowsTheClock(t *testing.T) {
	host := sdktest.New(t)
	ctx := context.Background()
	if err := host.Host.KVSet(ctx, "session:1", []byte("x"), 60); err != nil {
		t.Fatal(err)
	}
	if err := host.Host.KVSet(ctx, "session:2", []byte("y"), 0); err != nil {
		t.Fatal(err)
	}
	host.Clock.Advance(59 * time.Second)
	if _, found, _ := host.Host.KVGet(ctx, "session:1"); !found {
		t.Fatal("expired one second early")
	}
	host.Clock.Advance(time.Second)
	if _, found, _ := host.Host.KVGet(ctx, "session:1"); found {
		t.Fatal("still there at its TTL")
	}
	keys, err := host.Host.KVList(ctx, "session:", 10)
	if err != nil || strings.Join(keys, ",") != "session:2" {
		t.Fatalf("list = %v %v", keys, err)
	}
	// An expired key counts as absent for compare-and-set.
	if ok, _ := host.Host.KVCompareAndSet(ctx, "session:1", nil, []byte("z"), 0); !ok {
		t.Fatal("only-if-absent refused over an expired key")
	}
}

func TestUserCallsNeedASignedInRequest(t *testing.T) {
	host := sdktest.New(t)
	host.SetProfile(sdk.Profile{UserID: "ana", FirstName: "Ana"})
	if _, err := host.Host.AwardVetCoins(context.Background(), 1, "x", "k"); status.Code(unwrapStatus(err)) != codes.PermissionDenied {
		t.Fatalf("award outside a request: %v", err)
	}
	anon := host.As(httptest.NewRequest("GET", "/", nil), sdk.User{})
	if _, err := host.Host.CurrentProfile(anon.Context()); status.Code(unwrapStatus(err)) != codes.PermissionDenied {
		t.Fatalf("profile without a user: %v", err)
	}
	r := host.As(httptest.NewRequest("GET", "/", nil), sdk.User{ID: "ana", Roles: []string{"user"}, Subscription: "premium"})
	if u := sdk.UserFrom(r.Context()); u.ID != "ana" || u.Subscription != "premium" || len(u.Roles) != 1 {
		t.Fatalf("UserFrom = %+v", u)
	}
	p, err := host.Host.CurrentProfile(r.Context())
	if err != nil || p.FirstName != "Ana" || p.UserID != "ana" {
		t.Fatalf("profile = %+v %v", p, err)
	}
}

func TestAwardsAndNotificationsHonourIdempotencyKeys(t *testing.T) {
	host := sdktest.New(t, sdktest.WithDailyVetCoins(10))
	ctx := host.Context(context.Background(), sdktest.User("ana"))
	for i := range 2 {
		dup, err := host.Host.AwardVetCoins(ctx, 4, "quiz", "quiz:1")
		if err != nil || dup != (i == 1) {
			t.Fatalf("award %d: duplicate=%v err=%v", i, dup, err)
		}
		dup, err = host.Host.SendNotification(ctx, "Parabéns", "Você ganhou 4 VetCoins.", "quiz:1")
		if err != nil || dup != (i == 1) {
			t.Fatalf("notification %d: duplicate=%v err=%v", i, dup, err)
		}
	}
	if a := host.Awards(); len(a) != 1 || a[0].IdempotencyKey != "quiz:1" || a[0].Reason != "quiz" {
		t.Fatalf("awards = %+v", a)
	}
	if n := host.Notifications(); len(n) != 1 || n[0].UserID != "ana" || n[0].Title != "Parabéns" {
		t.Fatalf("notifications = %+v", n)
	}
	// 4 + 4 fits the daily 10; a further 4 does not, until the next UTC day.
	if _, err := host.Host.AwardVetCoins(ctx, 4, "quiz", "quiz:2"); err != nil {
		t.Fatal(err)
	}
	_, err := host.Host.AwardVetCoins(ctx, 4, "quiz", "quiz:3")
	if sdk.HostErrorStatus(err) != http.StatusTooManyRequests {
		t.Fatalf("over budget: %v (status %d)", err, sdk.HostErrorStatus(err))
	}
	host.Clock.Advance(24 * time.Hour)
	if _, err := host.Host.AwardVetCoins(ctx, 4, "quiz", "quiz:3"); err != nil {
		t.Fatalf("next day: %v", err)
	}
	if _, err := host.Host.AwardVetCoins(ctx, 0, "quiz", "quiz:4"); status.Code(unwrapStatus(err)) != codes.InvalidArgument {
		t.Fatalf("zero amount: %v", err)
	}
}

func TestFailDrivesThePluginsErrorPaths(t *testing.T) {
	host := sdktest.New(t)
	h := counter(host.Host)
	for _, c := range []struct {
		code   codes.Code
		status int
	}{{codes.Unavailable, 503}, {codes.ResourceExhausted, 429}, {codes.Unauthenticated, 401}, {codes.Internal, 500}} {
		host.Fail("KVGet", status.Error(c.code, "injected"))
		rec := do(t, h, host.As(httptest.NewRequest("POST", "/visit", nil), sdktest.User("ana")))
		if rec.Code != c.status {
			t.Errorf("%v: status %d, want %d", c.code, rec.Code, c.status)
		}
	}
	host.Fail("KVGet", nil)
	if rec := do(t, h, host.As(httptest.NewRequest("POST", "/visit", nil), sdktest.User("ana"))); rec.Code != 200 {
		t.Fatalf("after clearing the failure: %d %s", rec.Code, rec.Body)
	}
}

func TestLoggerRecordsWhatThePluginLogs(t *testing.T) {
	host := sdktest.New(t)
	host.Host.Logger().Warn("quota low", "left", 3)
	logs := host.Logs()
	if len(logs) != 1 || logs[0].Level != "warn" || logs[0].Message != "quota low" || logs[0].Attrs["left"] != float64(3) {
		t.Fatalf("logs = %+v", logs)
	}
}

func TestSQLWithoutWithSQLSaysHow(t *testing.T) {
	host := sdktest.New(t)
	_, err := host.Host.Exec(context.Background(), "SELECT 1")
	if err == nil || !strings.Contains(err.Error(), "sdktest.WithSQL") {
		t.Fatalf("err = %v", err)
	}
}

func TestSQLRunsInTheMigratedSchema(t *testing.T) {
	host := sdktest.New(t, sdktest.WithSQL([]sdk.Migration{{Version: 1, Name: "notes", SQL: `
		CREATE TABLE notes (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), body text NOT NULL, tags jsonb NOT NULL, at timestamptz NOT NULL DEFAULT now())`}}))
	ctx := context.Background()
	type note struct {
		ID   string   `json:"id"`
		Body string   `json:"body"`
		Tags []string `json:"tags"`
		At   string   `json:"at"`
	}
	var rows []note
	if err := host.Host.Query(ctx, &rows, `INSERT INTO notes (body, tags) VALUES ($1, $2::jsonb) RETURNING id, body, tags, at`, "olá", []string{"a", "b"}); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || len(rows[0].ID) != 36 || rows[0].Body != "olá" || len(rows[0].Tags) != 2 || !strings.HasSuffix(rows[0].At, "Z") {
		t.Fatalf("rows = %+v", rows)
	}
	n, err := host.Host.Exec(ctx, `DELETE FROM notes WHERE id = $1::uuid`, rows[0].ID)
	if err != nil || n != 1 {
		t.Fatalf("delete: %d %v", n, err)
	}
	// PostgreSQL's refusal reaches the plugin as an error, not a panic.
	if _, err := host.Host.Exec(ctx, `INSERT INTO notes (body, tags) VALUES (NULL, '[]')`); err == nil || !strings.Contains(err.Error(), "null value") {
		t.Fatalf("not-null violation: %v", err)
	}
}

func TestEachHostHasItsOwnSchema(t *testing.T) {
	migs := []sdk.Migration{{Version: 1, Name: "t", SQL: `CREATE TABLE t (n int)`}}
	a := sdktest.New(t, sdktest.WithSQL(migs))
	b := sdktest.New(t, sdktest.WithSQL(migs))
	ctx := context.Background()
	if _, err := a.Host.Exec(ctx, `INSERT INTO t VALUES (1)`); err != nil {
		t.Fatal(err)
	}
	var rows []map[string]any
	if err := b.Host.Query(ctx, &rows, `SELECT n FROM t`); err != nil || len(rows) != 0 {
		t.Fatalf("b sees a's rows: %v %v", rows, err)
	}
}

func TestAgreementCatchesTheOldMessages(t *testing.T) {
	dose := sdk.Field{Name: "dose", Noun: "a dose"}
	losses := sdk.Field{Name: "perdas", Noun: "as perdas contínuas"}
	for _, c := range []struct {
		f       sdk.Field
		msg     string
		problem bool
	}{
		{dose, "A dose é obrigatório.", true},
		{dose, "A dose é obrigatória.", false},
		{losses, "As perdas contínuas não pode ser negativo.", true},
		{losses, "As perdas contínuas não podem ser negativos.", true},
		{losses, "As perdas contínuas não podem ser negativas.", false},
		{losses, "As perdas contínuas são grandes demais para este cálculo.", false},
		{dose, "O peso é obrigatório.", true},                             // names another field
		{dose, "a dose é obrigatória", true},                              // not a sentence
		{sdk.Field{Name: "x", Noun: "dose"}, "Dose é obrigatória.", true}, // no article
		{sdk.Field{Name: "x", Label: "Nome"}, "O campo «Nome» é obrigatório.", false},
	} {
		if got := sdktest.Agreement(c.f, c.msg); (got != "") != c.problem {
			t.Errorf("Agreement(%q, %q) = %q", c.f.Noun, c.msg, got)
		}
	}
}

func TestWalkFormFindsEveryCase(t *testing.T) {
	form := sdk.Form{ID: "f", Action: "f", Fields: []sdk.Field{
		{Name: "peso", Noun: "o peso", Type: sdk.FieldNumber, Unit: "kg", Required: true, Min: sdk.Ptr(0.5), Max: sdk.Ptr(10)},
		{Name: "perdas", Noun: "as perdas", Type: sdk.FieldNumber, Min: sdk.Ptr(0)},
		{Name: "especie", Noun: "a espécie", Type: sdk.FieldSelect, Required: true, Options: []sdk.Option{{Value: "cao"}}},
	}}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, p, ok := sdk.ReadForm(w, r, form)
		if !ok || p.Respond(w) {
			return
		}
		sdk.WriteJSON(w, 200, map[string]bool{"ok": true})
	})
	got := sdktest.WalkForm(t, h, form, map[string]any{"peso": 1, "especie": "cao"})
	want := map[string]string{
		"peso/missing":      "O peso é obrigatório.",
		"peso/not-valid":    "Informe o peso em números.",
		"peso/zero":         "O peso deve estar entre 0,5 e 10 kg.",
		"peso/too-small":    "O peso deve estar entre 0,5 e 10 kg.",
		"peso/too-large":    "O peso deve estar entre 0,5 e 10 kg.",
		"perdas/not-valid":  "Informe as perdas em números.",
		"perdas/too-small":  "As perdas não podem ser negativas.",
		"especie/missing":   "Selecione a espécie.",
		"especie/not-valid": "Selecione a espécie entre as opções.",
	}
	if len(got) != len(want) {
		t.Errorf("walked %d cases, want %d: %v", len(got), len(want), got)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
}

func TestTheDefaultBudgetIsTheCores(t *testing.T) {
	host := sdktest.New(t)
	ctx := host.Context(context.Background(), sdktest.User("ana"))
	if _, err := host.Host.AwardVetCoins(ctx, sdktest.DefaultDailyVetCoins, "tudo", "a"); err != nil {
		t.Fatal(err)
	}
	if _, err := host.Host.AwardVetCoins(ctx, 1, "mais um", "b"); sdk.HostErrorStatus(err) != http.StatusTooManyRequests {
		t.Fatalf("over the default budget: %v", err)
	}
	// Another user has a budget of their own.
	other := host.Context(context.Background(), sdktest.User("bia"))
	if _, err := host.Host.AwardVetCoins(other, 1, "um", "c"); err != nil {
		t.Fatal(err)
	}
}
