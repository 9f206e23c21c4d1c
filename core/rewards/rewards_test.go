package rewards_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/billing"
	"github.com/vetclube/vetclube/core/billing/stripefake"
	"github.com/vetclube/vetclube/core/points"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
	"github.com/vetclube/vetclube/core/rewards"
)

type env struct {
	ctx    context.Context
	pool   *pgxpool.Pool
	ledger *points.Ledger
	svc    *rewards.Service
	staff  string
}

func newEnv(t *testing.T, o rewards.Options) *env {
	t.Helper()
	e := &env{ctx: context.Background(), pool: pgtest.New(t)}
	e.ledger = points.New(e.pool)
	e.svc = rewards.New(e.pool, o)
	e.staff = e.user(t, 0)
	return e
}

// user makes a member holding balance VetCoins (challenge points).
func (e *env) user(t *testing.T, balance int) string {
	t.Helper()
	var id string
	if err := e.pool.QueryRow(e.ctx, `INSERT INTO users (email) VALUES ($1) RETURNING id`,
		fmt.Sprintf("r%d@example.com", rand.Int64())).Scan(&id); err != nil {
		t.Fatal(err)
	}
	if balance > 0 {
		if _, _, err := e.ledger.Award(e.ctx, id, balance, points.KindChallenge, "seed:"+id, nil); err != nil {
			t.Fatal(err)
		}
	}
	return id
}

func (e *env) reward(t *testing.T, in rewards.Input) rewards.AdminReward {
	t.Helper()
	a, err := e.svc.Create(e.ctx, e.staff, in)
	if err != nil {
		t.Fatalf("create reward: %v", err)
	}
	return a
}

func (e *env) balance(t *testing.T, user string) points.Balance {
	t.Helper()
	b, err := e.ledger.Balance(e.ctx, user)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// ledgerSum is the sum of the user's ledger rows, which the totals must equal.
func (e *env) ledgerSum(t *testing.T, user string) int {
	t.Helper()
	var n int
	if err := e.pool.QueryRow(e.ctx, `SELECT coalesce(sum(amount), 0) FROM points_ledger WHERE user_id = $1`, user).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func (e *env) stock(t *testing.T, id string) *int {
	t.Helper()
	a, err := e.svc.AdminGet(e.ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	return a.Stock
}

func intp(n int) *int { return &n }

func frame(cost int, stock *int) rewards.Input {
	return rewards.Input{Title: "Moldura ouro", Kind: rewards.KindCertificateFrame, Cost: cost, Stock: stock,
		Config: rewards.Config{Frame: "ouro"}, Instructions: "A moldura aparece nos seus certificados."}
}

func reason(err error) string {
	var ce *core.Error
	if e, ok := err.(*core.Error); ok {
		ce = e
	}
	if ce == nil || ce.Fields == nil {
		return ""
	}
	return ce.Fields["reason"]
}

// 100 concurrent redemptions (each with its own key) on a balance enough
// for one: exactly one succeeds, the others are refused for the balance,
// and the balance never goes below zero.
func TestConcurrentRedemptionsNeverOverdraw(t *testing.T) {
	e := newEnv(t, rewards.Options{})
	r := e.reward(t, frame(100, nil))
	member := e.user(t, 150)

	var wg sync.WaitGroup
	var mu sync.Mutex
	ok, refused := 0, 0
	var others []error
	for i := range 100 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, created, err := e.svc.Redeem(e.ctx, member, r.ID, fmt.Sprintf("click-%03d-key", i))
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil && created:
				ok++
			case reason(err) == rewards.ReasonBalance && core.ErrorCode(err) == core.ECONFLICT:
				refused++
			default:
				others = append(others, err)
			}
		}()
	}
	wg.Wait()
	if ok != 1 || refused != 99 || len(others) > 0 {
		t.Fatalf("succeeded %d, refused for balance %d, other outcomes %v; want 1 and 99", ok, refused, others)
	}
	b := e.balance(t, member)
	if b.TotalPoints != 50 || b.PointsSpent != 100 || e.ledgerSum(t, member) != 50 {
		t.Fatalf("balance %+v ledger sum %d; want total 50, spent 100", b, e.ledgerSum(t, member))
	}
	mine, err := e.svc.Mine(e.ctx, member)
	if err != nil || len(mine) != 1 || mine[0].Status != rewards.StatusDelivered {
		t.Fatalf("redemptions %+v err %v", mine, err)
	}
	frames, _ := e.svc.MyFrames(e.ctx, member)
	if len(frames) != 1 || frames[0] != "ouro" {
		t.Fatalf("frames %v", frames)
	}
}

// Stock 5, 30 members with enough VetCoins clicking at once: five get it,
// the others read 'esgotado', the stock ends at zero and never below.
func TestStockNeverBelowZero(t *testing.T) {
	e := newEnv(t, rewards.Options{})
	r := e.reward(t, frame(10, intp(5)))
	var members []string
	for range 30 {
		members = append(members, e.user(t, 100))
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok, soldOut := 0, 0
	var others []error
	for i, m := range members {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _, err := e.svc.Redeem(e.ctx, m, r.ID, fmt.Sprintf("stock-key-%d", i))
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				ok++
			case reason(err) == rewards.ReasonSoldOut:
				soldOut++
			default:
				others = append(others, err)
			}
		}()
	}
	wg.Wait()
	if ok != 5 || soldOut != 25 || len(others) > 0 {
		t.Fatalf("ok %d sold out %d others %v; want 5 and 25", ok, soldOut, others)
	}
	if s := e.stock(t, r.ID); s == nil || *s != 0 {
		t.Fatalf("stock %v, want 0", s)
	}
	spent := 0
	for _, m := range members {
		spent += e.balance(t, m).PointsSpent
	}
	if spent != 50 {
		t.Fatalf("VetCoins spent %d, want 5 × 10", spent)
	}
}

// The same key clicked 20 times at once gives one redemption, debited once,
// and every answer is that redemption.
func TestIdempotentRetryReturnsTheSameRedemption(t *testing.T) {
	e := newEnv(t, rewards.Options{})
	r := e.reward(t, frame(30, intp(10)))
	member := e.user(t, 100)
	var wg sync.WaitGroup
	ids := make([]string, 20)
	created := make([]bool, 20)
	errs := make([]error, 20)
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d, c, err := e.svc.Redeem(e.ctx, member, r.ID, "same-click-key-1")
			ids[i], created[i], errs[i] = d.ID, c, err
		}()
	}
	wg.Wait()
	n := 0
	for i := range 20 {
		if errs[i] != nil || ids[i] != ids[0] || ids[i] == "" {
			t.Fatalf("attempt %d: id %q (first %q) err %v", i, ids[i], ids[0], errs[i])
		}
		if created[i] {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d attempts reported a new redemption, want 1", n)
	}
	if b := e.balance(t, member); b.TotalPoints != 70 {
		t.Fatalf("balance %d, want 70 (debited once)", b.TotalPoints)
	}
	if s := e.stock(t, r.ID); *s != 9 {
		t.Fatalf("stock %d, want 9", *s)
	}
	// The key belongs to that reward: used for another one it is refused.
	other := e.reward(t, frame(1, nil))
	if _, _, err := e.svc.Redeem(e.ctx, member, other.ID, "same-click-key-1"); core.ErrorCode(err) != core.ECONFLICT {
		t.Fatalf("key reused for another reward: %v", err)
	}
}

func TestPerMemberLimitAndPremium(t *testing.T) {
	premium := map[string]bool{}
	var mu sync.Mutex
	e := newEnv(t, rewards.Options{Premium: func(_ context.Context, u string) (bool, error) {
		mu.Lock()
		defer mu.Unlock()
		return premium[u], nil
	}})
	in := frame(10, nil)
	in.PerMemberLimit = intp(2)
	r := e.reward(t, in)
	m := e.user(t, 100)
	for i := range 2 {
		if _, _, err := e.svc.Redeem(e.ctx, m, r.ID, fmt.Sprintf("limit-key-%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := e.svc.Redeem(e.ctx, m, r.ID, "limit-key-3"); reason(err) != rewards.ReasonLimit {
		t.Fatalf("third redemption: %v, want the per-member limit", err)
	}
	pin := frame(10, nil)
	pin.PremiumOnly = true
	p := e.reward(t, pin)
	if _, _, err := e.svc.Redeem(e.ctx, m, p.ID, "premium-key-1"); reason(err) != rewards.ReasonPremium || core.ErrorCode(err) != core.EFORBIDDEN {
		t.Fatalf("premium-only for a free member: %v", err)
	}
	shop, err := e.svc.Shop(e.ctx, m)
	if err != nil {
		t.Fatal(err)
	}
	blocked := map[string]string{}
	for _, s := range shop {
		blocked[s.ID] = s.Blocked
	}
	if blocked[r.ID] != rewards.ReasonLimit || blocked[p.ID] != rewards.ReasonPremium {
		t.Fatalf("shop blocked reasons %v", blocked)
	}
	mu.Lock()
	premium[m] = true
	mu.Unlock()
	if _, _, err := e.svc.Redeem(e.ctx, m, p.ID, "premium-key-2"); err != nil {
		t.Fatalf("premium-only for a premium member: %v", err)
	}
}

// Vouchers: codes are given one each, never twice, and a list with
// duplicates is refused whole, naming the lines.
func TestVouchers(t *testing.T) {
	e := newEnv(t, rewards.Options{})
	r := e.reward(t, rewards.Input{Title: "Voucher parceiro", Kind: rewards.KindVoucher, Cost: 5,
		Instructions: "Use o código no site do parceiro."})
	_, err := e.svc.UploadVouchers(e.ctx, e.staff, r.ID, "codigo\nAAA-1\nBBB-2\nAAA-1\n\nCC C\n")
	if err == nil || !strings.Contains(err.Error(), "Linha 4") || !strings.Contains(err.Error(), "Linha 6") {
		t.Fatalf("duplicate upload: %v, want lines 4 and 6 named", err)
	}
	if s := e.stock(t, r.ID); *s != 0 {
		t.Fatalf("refused upload changed the stock to %d", *s)
	}
	up, err := e.svc.UploadVouchers(e.ctx, e.staff, r.ID, "codigo\nAAA-1\nBBB-2\nCCC-3\n")
	if err != nil || up.Added != 3 || *up.Reward.Stock != 3 {
		t.Fatalf("upload: %+v %v", up, err)
	}
	if _, err := e.svc.UploadVouchers(e.ctx, e.staff, r.ID, "DDD-4\nBBB-2\n"); err == nil || !strings.Contains(err.Error(), "Linha 2") {
		t.Fatalf("already loaded code: %v, want line 2 named", err)
	}
	var wg sync.WaitGroup
	codes := make(chan string, 10)
	for i := range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m := e.user(t, 50)
			d, _, err := e.svc.Redeem(e.ctx, m, r.ID, fmt.Sprintf("voucher-key-%d", i))
			if err == nil {
				codes <- d.Code
			} else if reason(err) != rewards.ReasonSoldOut {
				t.Errorf("voucher redemption: %v", err)
			}
		}()
	}
	wg.Wait()
	close(codes)
	got := map[string]bool{}
	for c := range codes {
		if got[c] {
			t.Fatalf("code %s given twice", c)
		}
		got[c] = true
	}
	if len(got) != 3 || !got["AAA-1"] || !got["BBB-2"] || !got["CCC-3"] {
		t.Fatalf("codes given %v", got)
	}
}

// couponIssuer is core/billing as the shop's CouponIssuer.
type couponIssuer struct{ b *billing.Service }

func (c couponIssuer) CreateRewardCoupon(ctx context.Context, userID string, pct float64, months int, key string) (string, error) {
	rc, err := c.b.CreateRewardCoupon(ctx, userID, pct, months, key)
	return rc.Code, err
}

func billingOn(t *testing.T, pool *pgxpool.Pool, apiBase string) *billing.Service {
	cfg := billing.Config{SecretKey: "sk_test_fake", WebhookSecret: "whsec_test", APIBase: apiBase, BoletoEnabled: true,
		PriceMonthly: stripefake.DefaultPrices[0].ID, PriceYearly: stripefake.DefaultPrices[1].ID, PublicURL: "http://vetclube.test", Fake: true}
	return billing.New(pool, billing.NewClient(cfg, nil), cfg, billing.Options{})
}

// A coupon is made at Stripe (the fake); with Stripe down the member gets
// their VetCoins back (a redemption_refund entry) and the stock is restored.
func TestCouponDeliveryAndRefundWhenStripeIsDown(t *testing.T) {
	fake := stripefake.New(stripefake.Options{})
	fs := httptest.NewServer(fake)
	t.Cleanup(fs.Close)
	fake.SetBase(fs.URL)

	pool := pgtest.New(t)
	bill := billingOn(t, pool, fs.URL)
	paying := func(context.Context, string) (bool, error) { return true, nil }
	up := rewards.New(pool, rewards.Options{Coupons: couponIssuer{bill}, Premium: paying})
	e := &env{ctx: context.Background(), pool: pool, ledger: points.New(pool), svc: up}
	e.staff = e.user(t, 0)
	r := e.reward(t, rewards.Input{Title: "10% na assinatura", Kind: rewards.KindCoupon, Cost: 200, Stock: intp(3),
		Config: rewards.Config{PercentOff: 10, DurationMonths: 1}, Instructions: "O desconto entra na próxima fatura."})
	if !r.PremiumOnly {
		t.Fatal("a coupon reward is for paying members only")
	}
	m := e.user(t, 500)
	// Without a subscription at Stripe the coupon is refused and refunded.
	if _, _, err := up.Redeem(e.ctx, m, r.ID, "coupon-key-nosub"); core.ErrorCode(err) != core.ECONFLICT {
		t.Fatalf("coupon without a subscription: %v", err)
	}
	if b := e.balance(t, m); b.TotalPoints != 500 {
		t.Fatalf("balance %d after the refused coupon, want 500", b.TotalPoints)
	}
	if _, err := bill.Checkout(e.ctx, m, billing.CheckoutRequest{BillingCycle: "monthly", PaymentMethod: "boleto", CPF: "529.982.247-25"}); err != nil {
		t.Fatalf("subscribe: %v", err)
	}
	d, created, err := up.Redeem(e.ctx, m, r.ID, "coupon-key-ok")
	if err != nil || !created || d.Status != rewards.StatusDelivered || d.Code == "" {
		t.Fatalf("coupon: %+v created %v err %v", d, created, err)
	}
	res, err := http.Get(fs.URL + "/_fake/state")
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		Subs map[string]map[string]any `json:"subscriptions"`
	}
	_ = json.NewDecoder(res.Body).Decode(&st)
	res.Body.Close()
	applied := false
	for _, sub := range st.Subs {
		if disc, ok := sub["discount"].(map[string]any); ok && disc["id"] == "di_"+d.Code {
			applied = true
		}
	}
	if !applied {
		t.Fatalf("coupon %s not applied to the subscription: %v", d.Code, st.Subs)
	}
	again, created, err := up.Redeem(e.ctx, m, r.ID, "coupon-key-ok")
	if err != nil || created || again.Code != d.Code {
		t.Fatalf("coupon retry: %+v created %v err %v", again, created, err)
	}

	// Stripe down: a closed port.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	down := "http://" + ln.Addr().String()
	ln.Close()
	downSvc := rewards.New(pool, rewards.Options{Coupons: couponIssuer{billingOn(t, pool, down)}, Premium: paying})
	_, _, err = downSvc.Redeem(e.ctx, m, r.ID, "coupon-key-down")
	if core.ErrorCode(err) != core.EUNAVAILABLE {
		t.Fatalf("Stripe down: %v, want unavailable", err)
	}
	b := e.balance(t, m)
	if b.TotalPoints != 300 || b.PointsSpent != 200 || e.ledgerSum(t, m) != 300 {
		t.Fatalf("after the failed delivery: %+v (ledger %d), want 300 with 200 spent", b, e.ledgerSum(t, m))
	}
	if s := e.stock(t, r.ID); *s != 2 {
		t.Fatalf("stock %d, want 2 (restored)", *s)
	}
	var kinds []string
	rows, _ := pool.Query(e.ctx, `SELECT kind || ':' || amount FROM points_ledger WHERE user_id = $1 ORDER BY id`, m)
	for rows.Next() {
		var k string
		_ = rows.Scan(&k)
		kinds = append(kinds, k)
	}
	rows.Close()
	want := "challenge:500 redemption:-200 redemption_refund:200 redemption:-200 redemption:-200 redemption_refund:200"
	if strings.Join(kinds, " ") != want {
		t.Fatalf("ledger %v, want %s", kinds, want)
	}
	mine, _ := up.Mine(e.ctx, m)
	if len(mine) != 3 || mine[0].Status != rewards.StatusRefunded || mine[0].RefundReason == "" {
		t.Fatalf("redemptions %+v", mine)
	}
}

// A staff refund gives the VetCoins back and restores the stock once,
// audited; a member cannot be refunded twice.
func TestStaffRefund(t *testing.T) {
	e := newEnv(t, rewards.Options{})
	r := e.reward(t, frame(40, intp(1)))
	m := e.user(t, 40)
	d, _, err := e.svc.Redeem(e.ctx, m, r.ID, "refund-key-1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.Refund(e.ctx, e.staff, d.ID, ""); core.ErrorCode(err) != core.EINVALID {
		t.Fatalf("refund without a reason: %v", err)
	}
	out, err := e.svc.Refund(e.ctx, e.staff, d.ID, "Membro pediu o estorno")
	if err != nil || out.Status != rewards.StatusRefunded {
		t.Fatalf("refund: %+v %v", out, err)
	}
	if _, err := e.svc.Refund(e.ctx, e.staff, d.ID, "De novo"); core.ErrorCode(err) != core.ECONFLICT {
		t.Fatalf("second refund: %v", err)
	}
	if b := e.balance(t, m); b.TotalPoints != 40 || b.PointsSpent != 0 {
		t.Fatalf("balance %+v after refund", b)
	}
	if s := e.stock(t, r.ID); *s != 1 {
		t.Fatalf("stock %d, want 1", *s)
	}
	if f, _ := e.svc.MyFrames(e.ctx, m); len(f) != 0 {
		t.Fatalf("frame kept after refund: %v", f)
	}
	var audited int
	if err := e.pool.QueryRow(e.ctx, `SELECT count(*) FROM reward_audit WHERE action = 'refund' AND actor_id = $1 AND target_id = $2`, e.staff, d.ID).Scan(&audited); err != nil || audited != 1 {
		t.Fatalf("audit rows %d %v", audited, err)
	}
	list, total, err := e.svc.AdminRedemptions(e.ctx, rewards.RedemptionFilter{Status: "refunded"}, 0, 10)
	if err != nil || total != 1 || len(list) != 1 || list[0].Email == "" {
		t.Fatalf("admin list %+v total %d err %v", list, total, err)
	}
}

// Erasing a member detaches their redemptions and drops their id from the audit.
func TestErase(t *testing.T) {
	e := newEnv(t, rewards.Options{})
	r := e.reward(t, frame(10, nil))
	m := e.user(t, 10)
	d, _, err := e.svc.Redeem(e.ctx, m, r.ID, "erase-key-1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.Refund(e.ctx, e.staff, d.ID, "Teste de exclusão"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.Erase(e.ctx, m); err != nil {
		t.Fatal(err)
	}
	var left int
	if err := e.pool.QueryRow(e.ctx, `SELECT (SELECT count(*) FROM reward_redemptions WHERE user_id = $1)
		+ (SELECT count(*) FROM reward_audit WHERE details::text LIKE '%' || $1 || '%')`, m).Scan(&left); err != nil || left != 0 {
		t.Fatalf("member's traces left: %d %v", left, err)
	}
}

// A course reward opens the course; refunding it closes it again, but a
// course the member had opened themselves stays open after the refund.
func TestCourseRewardRefundClosesWhatItOpened(t *testing.T) {
	e := newEnv(t, rewards.Options{})
	course := func(slug string) string {
		t.Helper()
		var id string
		if err := e.pool.QueryRow(e.ctx, `INSERT INTO content_items (type, slug, title, fields, status) VALUES ('cursos', $1, $1, '{}', 'publicado') RETURNING id`,
			slug).Scan(&id); err != nil {
			t.Fatal(err)
		}
		if _, err := e.pool.Exec(e.ctx, `INSERT INTO course_listings (item_id, slug, title, sort_title, published_at, revision) VALUES ($1, $2, $2, $2, now(), 1)`,
			id, slug); err != nil {
			t.Fatal(err)
		}
		return id
	}
	open := func(courseID, userID string) (counted bool, grant *string) {
		t.Helper()
		if err := e.pool.QueryRow(e.ctx, `SELECT counted_in_limit, granted_by FROM course_enrolments WHERE course_id = $1 AND user_id = $2`,
			courseID, userID).Scan(&counted, &grant); err != nil {
			t.Fatal(err)
		}
		return counted, grant
	}
	c := course(fmt.Sprintf("curso-recompensa-%d", rand.Int64()))
	r := e.reward(t, rewards.Input{Title: "Curso de ECG", Kind: rewards.KindCourse, Cost: 100, Config: rewards.Config{CourseID: c},
		Instructions: "O curso fica liberado na sua conta."})
	newcomer, owner := e.user(t, 100), e.user(t, 100)
	// owner had opened the course with their own trial slot.
	if _, err := e.pool.Exec(e.ctx, `INSERT INTO course_enrolments (course_id, user_id, counted_in_limit) VALUES ($1, $2, true)`, c, owner); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for i, m := range []string{newcomer, owner} {
		d, _, err := e.svc.Redeem(e.ctx, m, r.ID, fmt.Sprintf("course-key-%d", i))
		if err != nil || d.Status != rewards.StatusDelivered {
			t.Fatalf("redeem: %+v %v", d, err)
		}
		ids = append(ids, d.ID)
	}
	if counted, grant := open(c, newcomer); !counted || grant == nil {
		t.Fatalf("newcomer's course not opened by the reward: %v %v", counted, grant)
	}
	if counted, grant := open(c, owner); !counted || grant != nil {
		t.Fatalf("owner's own access marked as the reward's: %v %v", counted, grant)
	}
	for _, id := range ids {
		if _, err := e.svc.Refund(e.ctx, e.staff, id, "Curso indisponível para o membro"); err != nil {
			t.Fatal(err)
		}
	}
	if counted, _ := open(c, newcomer); counted {
		t.Fatal("the refunded reward's course is still open")
	}
	if counted, _ := open(c, owner); !counted {
		t.Fatal("the refund closed a course the member had opened themselves")
	}
}
