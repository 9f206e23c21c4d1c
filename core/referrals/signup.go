package referrals

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/postgres"
)

// SignupInfo is a new account as sign-up saw it.
type SignupInfo struct {
	UserID   string
	Email    string
	Code     string
	DeviceID string // the PWA's first-party device id ("" when unknown)
	IP       string
}

// Outcome is what recording a referral did.
type Outcome struct {
	Recorded   bool     `json:"recorded"`
	ReferralID string   `json:"-"`
	Verdict    Verdict  `json:"-"`
	Reasons    []string `json:"-"`
}

// RecordSignupTx binds the new account to the code's owner in the sign-up
// transaction, after the anti-fraud checks. The binding is frozen: a
// referee has one referral ever (the unique key), so a second call for the
// same account records nothing. An unknown code records nothing either.
// The caller starts the workflow after the commit (AfterSignup).
func (s *Service) RecordSignupTx(ctx context.Context, tx pgx.Tx, in SignupInfo) (Outcome, error) {
	code, ok := NormaliseCode(in.Code)
	if !ok {
		return Outcome{}, nil
	}
	// One code's sign-ups are serialised, so the per-IP count is exact.
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext('referral-code:' || $1))`, code); err != nil {
		return Outcome{}, fmt.Errorf("lock referral code: %w", err)
	}
	referrer, err := ownerOf(ctx, tx, code)
	if err != nil || referrer == "" {
		return Outcome{}, err
	}
	if referrer == in.UserID {
		return Outcome{Verdict: Rejected, Reasons: []string{ReasonSelf}}, nil
	}
	if err := s.SeeDevice(ctx, tx, in.UserID, in.DeviceID); err != nil {
		return Outcome{}, err
	}
	now := s.now()
	f, err := s.facts(ctx, tx, referrer, in.UserID, "", false)
	if err != nil {
		return Outcome{}, err
	}
	f.RefereeDevice = in.DeviceID
	if in.Email != "" {
		f.RefereeEmail = in.Email
	}
	if in.IP != "" {
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM referrals WHERE code = $1 AND signup_ip = $2 AND created_at > $3`,
			code, in.IP, now.Add(-time.Hour)).Scan(&f.SignupsFromIP); err != nil {
			return Outcome{}, fmt.Errorf("count sign-ups from ip: %w", err)
		}
	}
	verdict, reasons := Check(f)
	state := "cadastrado"
	var ended *time.Time
	if verdict == Rejected {
		state, ended = "nao_aprovada", &now
	}
	evidence := evidenceOf(f, in.IP)
	var dev, ip *string
	if ValidDeviceID(in.DeviceID) {
		dev = &in.DeviceID
	}
	if in.IP != "" {
		ip = &in.IP
	}
	var id string
	err = tx.QueryRow(ctx, `INSERT INTO referrals (referrer_id, referee_id, code, state, verdict, reasons, evidence,
			email_normalised, signup_ip, device_id, created_at, ended_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
		ON CONFLICT (referee_id) DO NOTHING RETURNING id`,
		referrer, in.UserID, code, state, verdict, reasonsOrEmpty(reasons), evidence,
		NormaliseEmail(f.RefereeEmail), ip, dev, now, ended).Scan(&id)
	if postgres.IsNoRows(err) {
		return Outcome{}, nil // already bound: the first binding stands
	}
	if err != nil {
		return Outcome{}, fmt.Errorf("record referral: %w", err)
	}
	if err := addEvent(ctx, tx, id, "signup", "", map[string]any{"verdict": verdict, "reasons": reasonsOrEmpty(reasons), "ip": in.IP, "device_id": in.DeviceID}, now); err != nil {
		return Outcome{}, err
	}
	return Outcome{Recorded: true, ReferralID: id, Verdict: verdict, Reasons: reasons}, nil
}

func reasonsOrEmpty(r []string) []string {
	if r == nil {
		return []string{}
	}
	return r
}

// evidenceOf keeps what the checks matched, for the staff's review.
func evidenceOf(f Facts, ip string) map[string]any {
	return map[string]any{
		"referee_email":    NormaliseEmail(f.RefereeEmail),
		"referrer_email":   NormaliseEmail(f.ReferrerEmail),
		"ip":               ip,
		"signups_from_ip":  f.SignupsFromIP,
		"referee_device":   f.RefereeDevice,
		"referrer_devices": f.ReferrerDevices,
		"same_cpf":         f.RefereeCPF != "" && f.RefereeCPF == f.ReferrerCPF,
		"ring":             f.Ring,
	}
}

// facts gathers the checks' inputs from the database; exclude is the
// referral being checked (left out of the sibling lists).
func (s *Service) facts(ctx context.Context, q querier, referrer, referee, exclude string, withCards bool) (Facts, error) {
	f := Facts{ReferrerID: referrer, RefereeID: referee}
	err := q.QueryRow(ctx, `SELECT u.email, coalesce(p.cpf, '') FROM users u LEFT JOIN profiles p ON p.user_id = u.id WHERE u.id = $1`,
		referrer).Scan(&f.ReferrerEmail, &f.ReferrerCPF)
	if err != nil {
		return f, fmt.Errorf("referrer facts: %w", err)
	}
	err = q.QueryRow(ctx, `SELECT u.email, coalesce(p.cpf, '') FROM users u LEFT JOIN profiles p ON p.user_id = u.id WHERE u.id = $1`,
		referee).Scan(&f.RefereeEmail, &f.RefereeCPF)
	if err != nil {
		return f, fmt.Errorf("referee facts: %w", err)
	}
	rows, err := q.Query(ctx, `SELECT r.email_normalised, coalesce(p.cpf, '') FROM referrals r
		LEFT JOIN profiles p ON p.user_id = r.referee_id
		WHERE r.referrer_id = $1 AND r.referee_id <> $2 AND ($3 = '' OR r.id::text <> $3)`, referrer, referee, exclude)
	if err != nil {
		return f, fmt.Errorf("sibling facts: %w", err)
	}
	for rows.Next() {
		var e, c string
		if err := rows.Scan(&e, &c); err != nil {
			rows.Close()
			return f, err
		}
		f.SiblingEmails = append(f.SiblingEmails, e)
		if c != "" {
			f.SiblingCPFs = append(f.SiblingCPFs, c)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return f, err
	}
	rows, err = q.Query(ctx, `SELECT device_id FROM referral_devices WHERE user_id = $1`, referrer)
	if err != nil {
		return f, fmt.Errorf("device facts: %w", err)
	}
	f.ReferrerDevices, err = pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return f, err
	}
	// A ring: the referee referred the referrer (A→B→A), or referred
	// someone who referred the referrer (A→B→C→A).
	err = q.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM referrals WHERE referrer_id = $1 AND referee_id = $2)
		OR EXISTS (SELECT 1 FROM referrals a JOIN referrals b ON b.referrer_id = a.referee_id
			WHERE a.referrer_id = $1 AND b.referee_id = $2)`, referee, referrer).Scan(&f.Ring)
	if err != nil {
		return f, fmt.Errorf("ring facts: %w", err)
	}
	if withCards && s.opts.Billing != nil {
		if f.ReferrerCards, err = s.opts.Billing.CardFingerprints(ctx, referrer); err != nil {
			return f, fmt.Errorf("referrer cards: %w", err)
		}
		if f.RefereeCards, err = s.opts.Billing.CardFingerprints(ctx, referee); err != nil {
			return f, fmt.Errorf("referee cards: %w", err)
		}
	}
	return f, nil
}

// AfterSignup starts the referee's workflow once the sign-up committed.
func (s *Service) AfterSignup(ctx context.Context, refereeID string) {
	var id string
	err := s.pool.QueryRow(ctx, `SELECT id FROM referrals WHERE referee_id = $1`, refereeID).Scan(&id)
	if postgres.IsNoRows(err) {
		return
	}
	if err == nil {
		err = s.opts.Workflows.StartReferral(ctx, id, refereeID)
	}
	if err != nil {
		s.opts.Log.Warn("start referral workflow", "referee", refereeID, "err", err)
	}
}

// freshAccount is how long after creating an account a referral can still
// be attached to it (a Google sign-in returns to the app, which then sends
// the code it kept).
const freshAccount = 24 * time.Hour

// ProcessSignup is process-referral-signup: the signed-in member's account,
// created moments ago (Google sign-in), is bound to code. An older account,
// or one already bound, records nothing.
func (s *Service) ProcessSignup(ctx context.Context, userID, code, deviceID, ip string) (Outcome, error) {
	c, ok := NormaliseCode(code)
	if !ok {
		return Outcome{}, core.Invalid(msgBadCode, map[string]string{"referral_code": msgBadCode})
	}
	var out Outcome
	err := postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		var created time.Time
		var email string
		if err := tx.QueryRow(ctx, `SELECT created_at, email FROM users WHERE id = $1`, userID).Scan(&created, &email); err != nil {
			return fmt.Errorf("account: %w", err)
		}
		if s.now().Sub(created) > freshAccount {
			return errTooLate
		}
		var err error
		out, err = s.RecordSignupTx(ctx, tx, SignupInfo{UserID: userID, Email: email, Code: c, DeviceID: deviceID, IP: ip})
		return err
	})
	if errors.Is(err, errTooLate) {
		return Outcome{}, core.Errorf(core.ECONFLICT, "Indicações valem apenas para contas novas.")
	}
	if err != nil {
		return Outcome{}, err
	}
	if out.Recorded {
		s.AfterSignup(ctx, userID)
	}
	return out, nil
}

var errTooLate = errors.New("account too old for a referral")

// EmailConfirmed tells the referee's workflow (an auth hook).
func (s *Service) EmailConfirmed(ctx context.Context, userID string) error {
	return s.signalIfReferee(ctx, userID, SignalEmailConfirmed, nil)
}

// InvoicePaid is billing's hook: the member's invoice of a paid plan was
// paid (trials, with no charge, never come here). The first one is
// recorded at once (the hold starts; later ones change nothing), then the
// referee's workflow is told; should that signal be lost, the workflow
// still finds the payment stored when its window ends.
func (s *Service) InvoicePaid(ctx context.Context, userID, invoiceID string, paidAt time.Time) error {
	id, err := s.referralOf(ctx, userID)
	if err != nil || id == "" {
		return err
	}
	if _, err := s.MarkPaid(ctx, id, invoiceID, paidAt); err != nil {
		return err
	}
	return s.opts.Workflows.SignalReferral(ctx, userID, SignalInvoicePaid, InvoicePaidSignal{InvoiceID: invoiceID, PaidAt: paidAt})
}

// PaymentReversed is billing's hook for a refund ("refund") or a dispute
// ("dispute"). Within the reversal window after the first payment it takes
// the rewards back at once (or ends a referral not yet rewarded), tells
// the referrer and signals the workflow; every step is idempotent, so the
// workflow repeating them changes nothing.
func (s *Service) PaymentReversed(ctx context.Context, userID, kind string, at time.Time) error {
	if kind != ReasonRefund && kind != ReasonDispute {
		return fmt.Errorf("payment reversed: unknown kind %q", kind)
	}
	id, err := s.referralOf(ctx, userID)
	if err != nil || id == "" {
		return err
	}
	sn, err := s.Load(ctx, id)
	if err != nil {
		return err
	}
	if sn.PaidAt == nil || at.After(sn.ReversalUntil) {
		return nil // no payment of the program's, or past the window
	}
	changed, err := s.Reverse(ctx, id, kind)
	if err != nil {
		return err
	}
	if changed {
		if _, err := s.ApplyCredits(ctx, id); err != nil {
			s.opts.Log.Warn("reverse referral balance credit", "referral", id, "err", err)
		}
		if err := s.NotifyEnd(ctx, id); err != nil {
			return err
		}
	}
	return s.opts.Workflows.SignalReferral(ctx, userID, SignalPaymentReversed, ReversalSignal{Kind: kind, At: at})
}

// NotifyEnd tells the referrer how an ended referral ended (once: the
// notification keys are per referral and event).
func (s *Service) NotifyEnd(ctx context.Context, id string) error {
	sn, err := s.Load(ctx, id)
	if err != nil {
		return err
	}
	switch sn.State {
	case "estornada":
		return s.Notify(ctx, id, NotifyReversed)
	case "nao_aprovada", "expirada", "limite":
		return s.Notify(ctx, id, NotifyNotApproved)
	}
	return nil
}

// referralOf is the id of userID's referral as a referee ("" for none).
func (s *Service) referralOf(ctx context.Context, userID string) (string, error) {
	var id string
	err := s.pool.QueryRow(ctx, `SELECT id FROM referrals WHERE referee_id = $1`, userID).Scan(&id)
	if postgres.IsNoRows(err) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("find referral: %w", err)
	}
	return id, nil
}

func (s *Service) signalIfReferee(ctx context.Context, userID, signal string, payload any) error {
	var exists bool
	if err := s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM referrals WHERE referee_id = $1)`, userID).Scan(&exists); err != nil {
		return fmt.Errorf("find referral: %w", err)
	}
	if !exists {
		return nil
	}
	return s.opts.Workflows.SignalReferral(ctx, userID, signal, payload)
}

// ResumeWorkflows starts the workflow of every referral still under way: a
// start lost at sign-up (Temporal unreachable, a crash after the commit) is
// made good; a running or finished workflow is left as it is (the start is
// a harmless duplicate). It answers how many it asked for.
func (s *Service) ResumeWorkflows(ctx context.Context) (int, error) {
	rows, err := s.pool.Query(ctx, `SELECT id::text, referee_id::text FROM referrals
		WHERE state IN ('cadastrado', 'confirmado', 'em_carencia', 'em_analise', 'recompensada') ORDER BY created_at`)
	if err != nil {
		return 0, fmt.Errorf("resume referrals: %w", err)
	}
	type pair struct{ id, referee string }
	var list []pair
	for rows.Next() {
		var p pair
		if err := rows.Scan(&p.id, &p.referee); err != nil {
			rows.Close()
			return 0, err
		}
		list = append(list, p)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, err
	}
	for i, p := range list {
		if err := s.opts.Workflows.StartReferral(ctx, p.id, p.referee); err != nil {
			return i, err
		}
	}
	return len(list), nil
}
