package referrals_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core/notifications"
	"github.com/vetclube/vetclube/core/points"
	"github.com/vetclube/vetclube/core/postgres"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
	"github.com/vetclube/vetclube/core/referrals"
)

var t0 = time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)

type fixture struct {
	pool    *pgxpool.Pool
	svc     *referrals.Service
	billing *fakeBilling
	now     atomic.Pointer[time.Time]
}

// fakeBilling stands in for Stripe's side of core/billing (a paid outside
// service): it records the balance credits and answers card fingerprints.
type fakeBilling struct {
	credits map[string]int // idempotency key → months
	cards   map[string][]string
}

func (b *fakeBilling) CreditFreeMonths(_ context.Context, _ string, months int, key string) error {
	if _, dup := b.credits[key]; !dup {
		b.credits[key] = months
	}
	return nil
}
func (b *fakeBilling) CardFingerprints(_ context.Context, userID string) ([]string, error) {
	return b.cards[userID], nil
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{pool: pgtest.New(t), billing: &fakeBilling{credits: map[string]int{}, cards: map[string][]string{}}}
	now := t0
	f.now.Store(&now)
	f.svc = referrals.New(f.pool, referrals.Options{
		Billing: f.billing, PublicURL: "https://app.vetclube.dev",
		Notifications: notifications.New(f.pool), Points: points.New(f.pool),
		Now: func() time.Time { return *f.now.Load() },
	})
	return f
}

func (f *fixture) at(t time.Time) { f.now.Store(&t) }

func (f *fixture) user(t *testing.T, email, first, last, cpf string) string {
	t.Helper()
	var id string
	err := f.pool.QueryRow(context.Background(), `INSERT INTO users (email, metadata, created_at) VALUES ($1, jsonb_build_object('first_name', $2::text, 'last_name', $3::text), $4) RETURNING id`,
		email, first, last, *f.now.Load()).Scan(&id)
	if err != nil {
		t.Fatal(err)
	}
	if cpf != "" {
		if _, err := f.pool.Exec(context.Background(), `INSERT INTO profiles (user_id, cpf) VALUES ($1, $2)`, id, cpf); err != nil {
			t.Fatal(err)
		}
	}
	return id
}

func (f *fixture) signup(t *testing.T, code, email, device, ip string) (string, referrals.Outcome) {
	t.Helper()
	id := f.user(t, email, "Bia", "Lima", "")
	return id, f.bind(t, id, code, device, ip)
}

func (f *fixture) bind(t *testing.T, userID, code, device, ip string) referrals.Outcome {
	t.Helper()
	var out referrals.Outcome
	err := postgres.InTx(context.Background(), f.pool, func(tx pgx.Tx) error {
		var err error
		out, err = f.svc.RecordSignupTx(context.Background(), tx, referrals.SignupInfo{UserID: userID, Code: code, DeviceID: device, IP: ip})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func uniq(prefix string) string { return fmt.Sprintf("%s%d", prefix, rand.Int64()) }

func TestCodeIsStableShortAndUnguessable(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	a := f.user(t, "ana@example.com", "Ana", "Souza", "")
	b := f.user(t, "bia@example.com", "Bia", "Lima", "")
	c1, err := f.svc.Code(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	c2, _ := f.svc.Code(ctx, a)
	cb, _ := f.svc.Code(ctx, b)
	if c1 != c2 || c1 == cb {
		t.Fatalf("codes %q %q %q: want stable per member and distinct", c1, c2, cb)
	}
	if _, ok := referrals.NormaliseCode(c1); !ok || len(c1) != 8 {
		t.Fatalf("code %q is not an 8-character code", c1)
	}
	if got := f.svc.Link(c1); got != "https://app.vetclube.dev/i/"+c1 {
		t.Fatalf("link %q", got)
	}
	if _, ok := referrals.NormaliseCode(" " + toLower(c1) + " "); !ok {
		t.Fatal("a typed lower-case code is not accepted")
	}
}

func toLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 32
		}
	}
	return string(b)
}

func TestClicksCountOncePerSession(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	a := f.user(t, "ana@example.com", "Ana", "Souza", "")
	code, _ := f.svc.Code(ctx, a)
	for i := range 100 {
		// Spread over addresses: one address may record 30 clicks a minute.
		if _, err := f.svc.Click(ctx, code, "session-one-123", "device-aaaa-1", fmt.Sprintf("10.0.%d.1", i%4)); err != nil {
			t.Fatal(err)
		}
	}
	counted, err := f.svc.Click(ctx, code, "session-two-456", "device-aaaa-1", "10.0.0.1")
	if err != nil || !counted {
		t.Fatalf("second session counted=%v err=%v", counted, err)
	}
	d, err := f.svc.Dashboard(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	if d.Totals.Clicks != 2 {
		t.Fatalf("clicks %d, want 2 (100 hits in one session, 1 in another)", d.Totals.Clicks)
	}
	for i := range 30 {
		f.svc.Click(ctx, code, fmt.Sprintf("flood-session-%04d", i), "", "10.7.7.7")
	}
	if _, err := f.svc.Click(ctx, code, "flood-session-9999", "", "10.7.7.7"); err == nil {
		t.Fatal("the 31st click of one address in a minute was accepted")
	}
	if _, err := f.svc.Click(ctx, "ZZZZZZZZ", "session-one-123", "", ""); err == nil {
		t.Fatal("an unknown code was accepted")
	}
	if _, err := f.svc.Click(ctx, code, "x", "", ""); err == nil {
		t.Fatal("a malformed session id was accepted")
	}
}

func TestBindingIsFrozenAtSignup(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	a := f.user(t, "ana@example.com", "Ana", "Souza", "")
	c := f.user(t, "caio@example.com", "Caio", "Reis", "")
	codeA, _ := f.svc.Code(ctx, a)
	codeC, _ := f.svc.Code(ctx, c)
	b, out := f.signup(t, codeA, "bia@example.com", "", "")
	if !out.Recorded || out.Verdict != referrals.Approved {
		t.Fatalf("first binding %+v", out)
	}
	if again := f.bind(t, b, codeC, "", ""); again.Recorded {
		t.Fatal("a second code replaced the frozen referrer")
	}
	var referrer string
	if err := f.pool.QueryRow(ctx, `SELECT referrer_id FROM referrals WHERE referee_id = $1`, b).Scan(&referrer); err != nil || referrer != a {
		t.Fatalf("referrer %q err %v, want %q", referrer, err, a)
	}
	// process-referral-signup (after a Google sign-in) binds a fresh account, once.
	google := f.user(t, "google@example.com", "Gil", "Nunes", "")
	if out, err := f.svc.ProcessSignup(ctx, google, codeA, "device-google-1", "10.0.0.5"); err != nil || !out.Recorded {
		t.Fatalf("process-signup %+v err %v", out, err)
	}
	if out, err := f.svc.ProcessSignup(ctx, google, codeC, "", ""); err != nil || out.Recorded {
		t.Fatalf("second process-signup %+v err %v: the first binding must stand", out, err)
	}
	// An account older than a day is not bound.
	f.at(t0.Add(48 * time.Hour))
	old := f.user(t, "velho@example.com", "Velho", "Conta", "")
	f.at(t0.Add(96 * time.Hour))
	if _, err := f.svc.ProcessSignup(ctx, old, codeA, "", ""); err == nil {
		t.Fatal("an account older than a day was bound")
	}
}

// The anti-fraud matrix: each scenario, its verdict and its reasons.
func TestAntiFraudMatrix(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	a := f.user(t, "ana.souza@gmail.com", "Ana", "Souza", "12345678901")
	codeA, _ := f.svc.Code(ctx, a)
	if err := f.svc.SeeDevice(ctx, nil, a, "device-of-ana-1"); err != nil {
		t.Fatal(err)
	}
	type scenario struct {
		name    string
		run     func() referrals.Outcome
		verdict referrals.Verdict
		reasons []string
	}
	plain := func(email, device, ip string) func() referrals.Outcome {
		return func() referrals.Outcome { _, o := f.signup(t, codeA, email, device, ip); return o }
	}
	matrix := []scenario{
		{"a clean sign-up", plain("bruno@example.com", "device-bruno-1", "10.1.1.1"), referrals.Approved, nil},
		{"reserved example domains are not disposable", plain("carla@sub.example.org", "", ""), referrals.Approved, nil},
		{"the seed's vetclube.dev is not disposable", plain("dani@vetclube.dev", "", ""), referrals.Approved, nil},
		{"a .test address is not disposable", plain("eva@qa.test", "", ""), referrals.Approved, nil},
		{"gmail dots, +tag and case of the referrer", plain("a.n.a.souza+promo@gmail.com", "", ""), referrals.Rejected, []string{referrals.ReasonSameEmail}},
		{"googlemail variant of the referrer", plain("anasouza@googlemail.com", "", ""), referrals.Rejected, []string{referrals.ReasonSameEmail}},
		{"a sibling's address with a +tag", plain("bruno+2@example.com", "", ""), referrals.Rejected, []string{referrals.ReasonSameEmail}},
		{"a disposable domain", plain("fulano@mailinator.com", "", ""), referrals.Rejected, []string{referrals.ReasonDisposable}},
		{"a disposable subdomain", plain("fulano@x.yopmail.com", "", ""), referrals.Rejected, []string{referrals.ReasonDisposable}},
		{"the referrer's device", plain("gil@example.com", "device-of-ana-1", ""), referrals.Flagged, []string{referrals.ReasonSameDevice}},
		{"the same CPF as the referrer", func() referrals.Outcome {
			id := f.user(t, "hugo@example.com", "Hugo", "Alves", "12345678901")
			return f.bind(t, id, codeA, "", "")
		}, referrals.Rejected, []string{referrals.ReasonSameCPF}},
		{"self-referral", func() referrals.Outcome { return f.bind(t, a, codeA, "", "") }, referrals.Rejected, []string{referrals.ReasonSelf}},
	}
	// Five sign-ups from one IP in an hour pass; the sixth is held.
	for i := range 5 {
		matrix = append(matrix, scenario{fmt.Sprintf("sign-up %d from one IP", i+1), plain(uniq("ip")+"@example.com", "", "10.9.9.9"), referrals.Approved, nil})
	}
	matrix = append(matrix, scenario{"the sixth sign-up from one IP in an hour", plain("sexto@example.com", "", "10.9.9.9"), referrals.Flagged, []string{referrals.ReasonIPVelocity}})
	// Rings: B referred by A refers A back (bound later); C, D and A in a cycle of three.
	matrix = append(matrix,
		scenario{"a ring of two", func() referrals.Outcome {
			x := f.user(t, "ring2@example.com", "Ring", "Dois", "")
			y := f.user(t, "ring2b@example.com", "Ring", "Dois B", "")
			cx, _ := f.svc.Code(ctx, x)
			cy, _ := f.svc.Code(ctx, y)
			if o := f.bind(t, y, cx, "", ""); !o.Recorded {
				t.Fatal("x→y not recorded")
			}
			return f.bind(t, x, cy, "", "")
		}, referrals.Rejected, []string{referrals.ReasonRing}},
		scenario{"a ring of three", func() referrals.Outcome {
			x := f.user(t, "ring3x@example.com", "R", "X", "")
			y := f.user(t, "ring3y@example.com", "R", "Y", "")
			z := f.user(t, "ring3z@example.com", "R", "Z", "")
			cx, _ := f.svc.Code(ctx, x)
			cy, _ := f.svc.Code(ctx, y)
			cz, _ := f.svc.Code(ctx, z)
			f.bind(t, y, cx, "", "")
			f.bind(t, z, cy, "", "")
			return f.bind(t, x, cz, "", "")
		}, referrals.Rejected, []string{referrals.ReasonRing}},
	)
	for _, sc := range matrix {
		t.Run(sc.name, func(t *testing.T) {
			out := sc.run()
			if out.Verdict != sc.verdict || !slices.Equal(out.Reasons, sc.reasons) {
				t.Fatalf("verdict %q reasons %v, want %q %v", out.Verdict, out.Reasons, sc.verdict, sc.reasons)
			}
			for _, r := range out.Reasons {
				if referrals.ReasonText(r) == "" {
					t.Errorf("reason %q has no pt-BR text", r)
				}
			}
		})
	}
	if len(matrix) < 10 {
		t.Fatalf("matrix has %d scenarios", len(matrix))
	}
}

func TestCardFingerprintCheckedBeforeReward(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	a := f.user(t, "ana@example.com", "Ana", "Souza", "")
	code, _ := f.svc.Code(ctx, a)
	b, out := f.signup(t, code, "bia@example.com", "", "")
	f.billing.cards[a] = []string{"fp_1"}
	f.billing.cards[b] = []string{"fp_1"}
	if _, err := f.svc.MarkPaid(ctx, out.ReferralID, "in_1", t0); err != nil {
		t.Fatal(err)
	}
	res, err := f.svc.Grant(ctx, out.ReferralID)
	if err != nil {
		t.Fatal(err)
	}
	if res.State != "nao_aprovada" || !slices.Equal(res.Reasons, []string{referrals.ReasonSameCard}) {
		t.Fatalf("grant %+v, want nao_aprovada same_card", res)
	}
	bal, _ := points.New(f.pool).Balance(ctx, a)
	if bal.TotalPoints != 0 {
		t.Fatalf("referrer got %d VetCoins", bal.TotalPoints)
	}
}

func TestFlaggedWaitsForReviewThenRewards(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	a := f.user(t, "ana@example.com", "Ana", "Souza", "")
	staff := f.user(t, "staff@example.com", "Equipe", "VC", "")
	code, _ := f.svc.Code(ctx, a)
	_ = f.svc.SeeDevice(ctx, nil, a, "shared-device-1")
	_, out := f.signup(t, code, "bia@example.com", "shared-device-1", "")
	if out.Verdict != referrals.Flagged {
		t.Fatalf("verdict %q", out.Verdict)
	}
	f.svc.MarkPaid(ctx, out.ReferralID, "in_1", t0)
	res, err := f.svc.Grant(ctx, out.ReferralID)
	if err != nil || res.State != "em_analise" || res.Granted {
		t.Fatalf("grant before review %+v err %v", res, err)
	}
	if err := f.svc.Review(ctx, staff, out.ReferralID, false, ""); err == nil {
		t.Fatal("a rejection without a note was accepted")
	}
	if err := f.svc.Review(ctx, staff, out.ReferralID, true, "Mesma casa, pessoas diferentes."); err != nil {
		t.Fatal(err)
	}
	res, err = f.svc.Grant(ctx, out.ReferralID)
	if err != nil || res.State != "recompensada" || !res.Granted {
		t.Fatalf("grant after approval %+v err %v", res, err)
	}
	d, err := f.svc.AdminGet(ctx, out.ReferralID)
	if err != nil {
		t.Fatal(err)
	}
	var audited bool
	for _, e := range d.Timeline {
		if e.Type == "review" && e.ActorID != nil && *e.ActorID == staff {
			audited = true
		}
	}
	if !audited {
		t.Fatalf("timeline %+v has no review by the staff member", d.Timeline)
	}
}

func TestGrantOnceCapsAndReverse(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	a := f.user(t, "ana@example.com", "Ana", "Souza", "")
	code, _ := f.svc.Code(ctx, a)
	var ids []string
	var referees []string
	for i := range 11 {
		b, out := f.signup(t, code, fmt.Sprintf("amigo%d@example.com", i), "", "")
		if _, err := f.svc.MarkPaid(ctx, out.ReferralID, fmt.Sprintf("in_%d", i), t0); err != nil {
			t.Fatal(err)
		}
		ids, referees = append(ids, out.ReferralID), append(referees, b)
	}
	for i, id := range ids {
		res, err := f.svc.Grant(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if again, _ := f.svc.Grant(ctx, id); again.Granted {
			t.Fatalf("referral %d granted twice", i)
		}
		want := "recompensada"
		if i == 10 {
			want = "limite"
		}
		if res.State != want {
			t.Fatalf("referral %d: state %q, want %q", i, res.State, want)
		}
	}
	bal, _ := points.New(f.pool).Balance(ctx, a)
	if bal.TotalPoints != 10*500 {
		t.Fatalf("referrer balance %d, want 5000", bal.TotalPoints)
	}
	d, _ := f.svc.Dashboard(ctx, a)
	var eleventh referrals.Item
	for _, it := range d.Referrals {
		if it.ID == ids[10] {
			eleventh = it
		}
	}
	if eleventh.State != "limite" || eleventh.ReasonText != referrals.ReasonText(referrals.ReasonCapMonth) {
		t.Fatalf("the 11th shows %+v", eleventh)
	}
	if d.Totals.Rewards != 10 || d.Totals.VetCoins != 5000 || d.Totals.Signups != 11 || d.Totals.Subscriptions != 11 {
		t.Fatalf("totals %+v", d.Totals)
	}
	if pending, err := f.svc.ApplyCredits(ctx, ids[0]); err != nil || pending != 0 {
		t.Fatalf("apply credits pending=%d err=%v", pending, err)
	}
	// A refund takes both rewards back with ledger entries.
	changed, err := f.svc.Reverse(ctx, ids[0], referrals.ReasonRefund)
	if err != nil || !changed {
		t.Fatalf("reverse changed=%v err=%v", changed, err)
	}
	if again, _ := f.svc.Reverse(ctx, ids[0], referrals.ReasonRefund); again {
		t.Fatal("reversed twice")
	}
	f.svc.ApplyCredits(ctx, ids[0])
	bal, _ = points.New(f.pool).Balance(ctx, a)
	bb, _ := points.New(f.pool).Balance(ctx, referees[0])
	if bal.TotalPoints != 9*500 || bb.TotalPoints != 0 {
		t.Fatalf("after the refund: referrer %d (want 4500), referee %d (want 0)", bal.TotalPoints, bb.TotalPoints)
	}
	var entries int
	f.pool.QueryRow(ctx, `SELECT count(*) FROM points_ledger WHERE user_id = $1 AND kind = 'referral'`, referees[0]).Scan(&entries)
	if entries != 1 {
		t.Fatalf("the referee's credit entry is gone (%d): reversals must not delete", entries)
	}
	key := "referral:" + ids[0] + ":referrer:free-month"
	if f.billing.credits[key] != 1 || f.billing.credits[key+":reversal"] != -1 {
		t.Fatalf("balance credits %v", f.billing.credits)
	}
}

func TestDisposableListSparesReservedDomains(t *testing.T) {
	for _, e := range []string{"a@example.com", "a@example.org", "a@example.net", "a@foo.test", "a@x.example", "a@vetclube.dev", "a@mail.vetclube.dev"} {
		if referrals.Disposable(e) {
			t.Errorf("%s is called disposable", e)
		}
	}
	for _, e := range []string{"a@mailinator.com", "a@GuerrillaMail.com", "a@10minutemail.com"} {
		if !referrals.Disposable(e) {
			t.Errorf("%s is not called disposable", e)
		}
	}
}

func TestQRSVGEncodesTheLink(t *testing.T) {
	svg, err := referrals.QRSVG("https://app.vetclube.dev/i/ABCDEFGH")
	if err != nil {
		t.Fatal(err)
	}
	// Version 3 at level M holds the link: 29 modules plus a 4-module quiet zone each side.
	if !strings.HasPrefix(svg, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 37 37"`) || strings.Count(svg, "h1v1h-1z") < 200 {
		t.Fatalf("svg %.200s", svg)
	}
	// The top-left finder pattern, past the quiet zone: a dark top edge of
	// 7 modules, then a light ring inside it.
	for x := 4; x < 11; x++ {
		if !strings.Contains(svg, fmt.Sprintf("M%d 4h1v1h-1z", x)) {
			t.Fatalf("finder pattern's top edge lacks module %d", x)
		}
	}
	if strings.Contains(svg, "M5 5h1v1h-1z") || strings.Contains(svg, "M0 0h1v1h-1z") {
		t.Fatal("the finder's light ring or the quiet zone is dark")
	}
}
