package subscriptions

import (
	"context"
	"fmt"
	"time"

	"github.com/vetclube/vetclube/core/postgres"
)

// Moment kinds: what the Entitlement workflow's timer does when it fires.
const (
	MomentTrialReminder3d = "trial_reminder_3d"
	MomentTrialReminder1d = "trial_reminder_1d"
	MomentTrialEnd        = "trial_end"
	MomentPremiumEnd      = "premium_end"
)

// Trial reminder leads: how long before the trial's end each goes out.
const (
	TrialReminderLead3d = 72 * time.Hour
	TrialReminderLead1d = 24 * time.Hour
)

// Moment is a member's next timed change; Kind "" means none is pending.
type Moment struct {
	Kind string
	At   time.Time
}

// NextMoment reads userID's row and says what comes next: during an open
// trial the 3-day and 1-day reminders (each once, and only if the trial
// began before its moment; a 3-day reminder overtaken by the 1-day one is
// dropped) and then the trial's end; for an active premium with an end
// (grace, a cancelled period) that end. An overdue moment is returned as it
// is, for the caller to fire at once.
func (s *Service) NextMoment(ctx context.Context, userID string) (Moment, error) {
	var (
		status                 string
		trialEnds, trialExpire *time.Time
		r3, r1, premiumUntil   *time.Time
		createdAt              time.Time
	)
	err := s.pool.QueryRow(ctx, `SELECT subscription_status, trial_ends_at, trial_expired_at,
			trial_reminded_3d_at, trial_reminded_1d_at, premium_until, created_at
		FROM subscribers WHERE user_id = $1`, userID).
		Scan(&status, &trialEnds, &trialExpire, &r3, &r1, &premiumUntil, &createdAt)
	if postgres.IsNoRows(err) {
		return Moment{}, nil
	}
	if err != nil {
		return Moment{}, fmt.Errorf("next entitlement moment: %w", err)
	}
	now := s.now()
	switch {
	case status == StatusTrial && trialEnds != nil && trialExpire == nil:
		end := *trialEnds
		at3, at1 := end.Add(-TrialReminderLead3d), end.Add(-TrialReminderLead1d)
		if r3 == nil && r1 == nil && createdAt.Before(at3) && now.Before(at1) {
			return Moment{Kind: MomentTrialReminder3d, At: at3}, nil
		}
		if r1 == nil && createdAt.Before(at1) && now.Before(end) {
			return Moment{Kind: MomentTrialReminder1d, At: at1}, nil
		}
		return Moment{Kind: MomentTrialEnd, At: end}, nil
	case status == StatusActive && premiumUntil != nil:
		return Moment{Kind: MomentPremiumEnd, At: *premiumUntil}, nil
	}
	return Moment{}, nil
}

// TrialReminderDue says whether the reminder of kind (MomentTrialReminder3d
// or 1d) should go out now: the trial is still open, not premium, the
// reminder not sent, its moment reached. It returns the view for the text.
func (s *Service) TrialReminderDue(ctx context.Context, userID, kind string) (View, bool, error) {
	sub, err := s.Get(ctx, userID)
	if err != nil || sub == nil {
		return View{}, false, err
	}
	now := s.now()
	v := ViewOf(sub, now)
	if !v.TrialActive || v.IsPremium || sub.TrialExpiredAt != nil {
		return v, false, nil
	}
	lead, sent := TrialReminderLead3d, sub.Reminded3dAt != nil || sub.Reminded1dAt != nil
	if kind == MomentTrialReminder1d {
		lead, sent = TrialReminderLead1d, sub.Reminded1dAt != nil
	}
	if sent || now.Before(sub.TrialEndsAt.Add(-lead)) {
		return v, false, nil
	}
	return v, true, nil
}

// MarkTrialReminded records that the reminder of kind went out; it reports
// whether this call did (false: an earlier call had), so what follows the
// mark (the e-mail) happens once.
func (s *Service) MarkTrialReminded(ctx context.Context, userID, kind string) (bool, error) {
	col := "trial_reminded_3d_at"
	if kind == MomentTrialReminder1d {
		col = "trial_reminded_1d_at"
	}
	tag, err := s.pool.Exec(ctx, `UPDATE subscribers SET `+col+` = $2 WHERE user_id = $1 AND `+col+` IS NULL`, userID, s.now())
	if err != nil {
		return false, fmt.Errorf("mark trial reminded: %w", err)
	}
	return tag.RowsAffected() == 1, nil
}

// UnmarkTrialReminded undoes MarkTrialReminded when what followed it failed,
// so a retry sends it.
func (s *Service) UnmarkTrialReminded(ctx context.Context, userID, kind string) error {
	col := "trial_reminded_3d_at"
	if kind == MomentTrialReminder1d {
		col = "trial_reminded_1d_at"
	}
	if _, err := s.pool.Exec(ctx, `UPDATE subscribers SET `+col+` = NULL WHERE user_id = $1`, userID); err != nil {
		return fmt.Errorf("unmark trial reminded: %w", err)
	}
	return nil
}
