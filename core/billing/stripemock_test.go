package billing_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core/billing"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
)

// stripeMock starts stripe-mock (installed by `make deps`) on a free
// loopback port and returns its address. It validates every request
// against Stripe's OpenAPI description and answers fixtures.
func stripeMock(t *testing.T) string {
	t.Helper()
	bin := os.Getenv("STRIPE_MOCK_BIN")
	if bin == "" {
		if p, err := exec.LookPath("stripe-mock"); err == nil {
			bin = p
		}
	}
	if bin == "" {
		if out, err := exec.Command("go", "env", "GOPATH").Output(); err == nil {
			p := filepath.Join(strings.TrimSpace(string(out)), "bin", "stripe-mock")
			if _, err := os.Stat(p); err == nil {
				bin = p
			}
		}
	}
	if bin == "" {
		t.Skip("stripe-mock is not installed (make deps runs: go install github.com/stripe/stripe-mock@v0.203.0)")
	}
	free := func() string {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		return ln.Addr().String()
	}
	// Both listeners on loopback (its HTTPS one would otherwise bind
	// :12112 on every address).
	addr := free()
	cmd := exec.Command(bin, "-http-addr", addr, "-https-addr", free())
	var logs strings.Builder
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatalf("start stripe-mock: %v", err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	deadline := time.Now().Add(90 * time.Second)
	for {
		res, err := http.Get("http://" + addr + "/v1/customers/cus_x")
		if err == nil {
			res.Body.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("stripe-mock did not answer on %s: %v\n%s", addr, err, logs.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	return "http://" + addr
}

// Request shapes: the customer with its CPF, the Checkout Session, the
// boleto subscription and the portal session go out exactly as built for
// Stripe and stripe-mock accepts each against Stripe's API description.
func TestRequestShapesAgainstStripeMock(t *testing.T) {
	base := stripeMock(t)
	ctx := context.Background()
	pool := pgtest.New(t)
	cfg := billing.Config{SecretKey: "sk_test_123", WebhookSecret: testWebhookSecret, APIBase: base,
		PriceMonthly: "price_monthly", PriceYearly: "price_yearly", BoletoEnabled: true, PixEnabled: true, PublicURL: "http://vetclube.test"}
	svc := billing.New(pool, billing.NewClient(cfg, nil), cfg, billing.Options{Entitlement: newRecorder()})
	newUser := func() string {
		var id string
		if err := pool.QueryRow(ctx, `INSERT INTO users (email) VALUES ($1) RETURNING id::text`, fmt.Sprintf("mock%d@example.com", time.Now().UnixNano())).Scan(&id); err != nil {
			t.Fatal(err)
		}
		return id
	}
	user := newUser()
	u, err := svc.Checkout(ctx, user, billing.CheckoutRequest{BillingCycle: "yearly", CPF: "529.982.247-25"})
	if err != nil {
		t.Fatalf("checkout against stripe-mock: %v", err)
	}
	if !strings.HasPrefix(u, "https://") {
		t.Errorf("checkout URL %q", u)
	}
	var customer, cpf string
	if err := pool.QueryRow(ctx, `SELECT customer_id, cpf FROM billing_customers WHERE user_id = $1`, user).Scan(&customer, &cpf); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(customer, "cus_") || cpf != "52998224725" {
		t.Errorf("stored customer %q cpf %q", customer, cpf)
	}
	if _, err := svc.Portal(ctx, user); err != nil {
		t.Errorf("portal against stripe-mock: %v", err)
	}
	boleto := newUser()
	if _, err := svc.Checkout(ctx, boleto, billing.CheckoutRequest{BillingCycle: "monthly", PaymentMethod: "boleto", CPF: "111.444.777-35"}); err != nil {
		t.Errorf("boleto subscription against stripe-mock: %v", err)
	}
	if _, err := svc.Sync(ctx, customer); err != nil {
		t.Errorf("sync (subscriptions list) against stripe-mock: %v", err)
	}
	if _, err := svc.Reconcile(ctx); err != nil {
		t.Errorf("reconcile (events list) against stripe-mock: %v", err)
	}
}
