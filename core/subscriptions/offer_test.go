package subscriptions_test

import (
	"context"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/mail"
	"github.com/vetclube/vetclube/core/subscriptions"
)

// The PWA lists the same Premium benefits as the server (the trial-expired
// dialog and /pricing read benefits.ts; the e-mails read PremiumBenefits).
func TestPremiumBenefitsMatchThePWA(t *testing.T) {
	src, err := os.ReadFile("../../web/src/features/subscription/benefits.ts")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`PREMIUM_BENEFITS\s*=\s*\[([^\]]*)\]`).FindSubmatch(src)
	if m == nil {
		t.Fatal("PREMIUM_BENEFITS not found in benefits.ts")
	}
	var web []string
	for _, q := range regexp.MustCompile(`'([^']*)'|"([^"]*)"`).FindAllSubmatch(m[1], -1) {
		web = append(web, string(q[1])+string(q[2]))
	}
	if !slices.Equal(web, subscriptions.PremiumBenefits) {
		t.Fatalf("benefits.ts %q, server %q", web, subscriptions.PremiumBenefits)
	}
}

func TestTrialPromiseSaysTheRealLimits(t *testing.T) {
	for _, tc := range []struct {
		days   int
		limits map[string]int
		daily  map[string]bool
		want   string
	}{
		{7, map[string]int{"patients": 10, "ai_consultations": 5, "challenges": 3, "courses": 1}, nil,
			"Ao confirmar, você ganha 7 dias de teste grátis do Premium, com até 10 pacientes, até 3 desafios profissionais, até 5 consultas à VetClube IA e até 1 curso. " +
				"Com o Premium: pacientes ilimitados, todos os desafios profissionais, consultas à IA sem o limite do teste e todos os cursos e certificados."},
		{7, map[string]int{"patients": 10, "ai_consultations": 5}, map[string]bool{"ai_consultations": true},
			"Ao confirmar, você ganha 7 dias de teste grátis do Premium, com até 10 pacientes e até 5 consultas à VetClube IA por dia. " +
				"Com o Premium: pacientes ilimitados, todos os desafios profissionais, consultas à IA sem o limite do teste e todos os cursos e certificados."},
		{7, map[string]int{"patients": 10, "courses": 1, "simulados": 3}, nil,
			"Ao confirmar, você ganha 7 dias de teste grátis do Premium, com até 10 pacientes, até 1 curso e até 3 simulados. " +
				"Com o Premium: pacientes ilimitados, todos os desafios profissionais, consultas à IA sem o limite do teste e todos os cursos e certificados."},
		{1, map[string]int{"courses": 0, "rockets": 2}, nil,
			"Ao confirmar, você ganha 1 dia de teste grátis do Premium, com nenhum curso e até 2 rockets. " +
				"Com o Premium: pacientes ilimitados, todos os desafios profissionais, consultas à IA sem o limite do teste e todos os cursos e certificados."},
		{3, nil, nil, "Ao confirmar, você ganha 3 dias de teste grátis do Premium. " +
			"Com o Premium: pacientes ilimitados, todos os desafios profissionais, consultas à IA sem o limite do teste e todos os cursos e certificados."},
		{0, map[string]int{"patients": 10}, nil, ""},
	} {
		if got := subscriptions.TrialPromise(tc.days, tc.limits, tc.daily); got != tc.want {
			t.Errorf("%d days %v:\n got %q\nwant %q", tc.days, tc.limits, got, tc.want)
		}
	}
}

// The confirmation e-mail the app sends says exactly the trial the server
// applies: each limit it names is the limit CheckTrialLimits answers after
// the confirmation, and nothing unlimited is promised of the trial.
func TestConfirmationEmailPromisesTheAppliedTrial(t *testing.T) {
	ctx := context.Background()
	srv := apptest.Start(t, map[string]string{"TRIAL_DAYS": "7", "TRIAL_LIMITS": "patients=2,ai_consultations=4,challenges=1,courses=0"})
	c := srv.Client(t)
	res := c.Do("POST", "/api/auth/signup", map[string]string{"first_name": "Rui", "last_name": "Vaz", "email": "rui@example.com", "password": "Boa#Senha2026"})
	if res.Status != http.StatusCreated {
		t.Fatalf("signup: %d %s", res.Status, res.Body)
	}
	// The confirmation is mailed by the account mail worker, shortly after.
	var msgs []mail.Stored
	for deadline := time.Now().Add(20 * time.Second); len(msgs) == 0; time.Sleep(50 * time.Millisecond) {
		var err error
		if msgs, err = srv.App.Mailbox.List(ctx, "rui@example.com", 5); err != nil {
			t.Fatal(err)
		}
		if time.Now().After(deadline) {
			t.Fatal("no confirmation e-mail")
		}
	}
	text := strings.Join(strings.Fields(msgs[0].Text), " ")
	limits := map[string]int{"patients": 2, "ai_consultations": 4, "challenges": 1, "courses": 0}
	if promise := srv.App.Engagement.Subscriptions.TrialPromise(); promise == "" || !strings.Contains(text, promise) {
		t.Fatalf("e-mail %q does not carry the promise %q", text, promise)
	}
	trialPart, _, _ := strings.Cut(text, "Com o Premium")
	for _, phrase := range []string{"até 2 pacientes", "até 4 consultas à VetClube IA", "até 1 desafio profissional", "nenhum curso"} {
		if !strings.Contains(trialPart, phrase) {
			t.Errorf("trial part %q lacks %q", trialPart, phrase)
		}
	}
	if strings.Contains(trialPart, "ilimitad") || strings.Contains(trialPart, "sem limite") {
		t.Errorf("the trial part promises something unlimited: %q", trialPart)
	}

	var token string
	for _, l := range msgs[0].Links {
		if u, err := url.Parse(l); err == nil && strings.Contains(u.Path, "confirmar-email") {
			token = u.Query().Get("token")
		}
	}
	if res := c.Do("POST", "/api/auth/confirm", map[string]string{"token": token}); res.Status != http.StatusOK {
		t.Fatalf("confirm: %d %s", res.Status, res.Body)
	}
	var userID string
	if err := srv.App.Pool.QueryRow(ctx, `SELECT id FROM users WHERE email = 'rui@example.com'`).Scan(&userID); err != nil {
		t.Fatal(err)
	}
	subs := srv.App.Engagement.Subscriptions
	if v, _ := subs.View(ctx, userID); !v.TrialActive || v.DaysLeft != 7 {
		t.Fatalf("after confirming: %+v", v)
	}
	for typ, n := range limits {
		if c := subs.CheckTrialLimits(ctx, userID, typ); c.Limit != n || c.Allowed != (n > 0) {
			t.Errorf("%s: server applies %+v, the e-mail says %d", typ, c, n)
		}
	}
}

// A limit the feature counts per day is promised per day; the service's
// promise uses its own trial length and limits.
func TestServiceTrialPromiseSaysPerDay(t *testing.T) {
	svc := subscriptions.New(nil, subscriptions.Options{TrialDuration: 36 * time.Hour, Limits: map[string]int{"ai_consultations": 5, "courses": 1}})
	if got := svc.TrialPromise(); !strings.Contains(got, "2 dias de teste grátis do Premium, com até 5 consultas à VetClube IA e até 1 curso.") {
		t.Fatalf("promise %q", got)
	}
	svc.CountsPerDay("ai_consultations")
	if got := svc.TrialPromise(); !strings.Contains(got, "com até 5 consultas à VetClube IA por dia e até 1 curso.") {
		t.Fatalf("per-day promise %q", got)
	}
}
