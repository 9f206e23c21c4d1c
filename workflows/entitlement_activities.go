package workflows

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"go.temporal.io/sdk/temporal"

	"github.com/vetclube/vetclube/core/mail"
	"github.com/vetclube/vetclube/core/subscriptions"
)

// PlanEntitlement reads the member's next moment from the subscriber row.
func (a *Activities) PlanEntitlement(ctx context.Context, userID string) (EntitlementPlan, error) {
	if a.Subscriptions == nil {
		return EntitlementPlan{}, errMissingDependency
	}
	return a.Subscriptions.NextMoment(ctx, userID)
}

// FireEntitlement does what a moment asks, after re-reading the row: a
// trial reminder (in-app, push and e-mail), the trial's end, or the end of a
// premium whose grace or cancelled period ran out.
func (a *Activities) FireEntitlement(ctx context.Context, userID string, m EntitlementPlan) error {
	switch m.Kind {
	case subscriptions.MomentTrialReminder3d, subscriptions.MomentTrialReminder1d:
		return a.sendTrialReminder(ctx, userID, m)
	case subscriptions.MomentTrialEnd:
		_, err := a.ExpireTrial(ctx, userID)
		return err
	case subscriptions.MomentPremiumEnd:
		return a.endPremium(ctx, userID)
	}
	return temporal.NewNonRetryableApplicationError("unknown entitlement moment "+m.Kind, "BadInput", nil)
}

// TrialReminderTitleFor is the reminder's title with the days left.
func TrialReminderTitleFor(daysLeft int) string {
	if daysLeft <= 1 {
		return "Seu teste Premium termina amanhã"
	}
	return fmt.Sprintf("Seu teste Premium termina em %d dias", daysLeft)
}

// Entitlement notification texts.
const (
	PremiumEndedTitle         = "Seu acesso Premium terminou"
	PremiumEndedGraceMessage  = "Não recebemos o pagamento da sua assinatura. Assine novamente para voltar a ter acesso ilimitado."
	PremiumEndedPeriodMessage = "Sua assinatura foi cancelada e o período pago terminou. Assine novamente quando quiser."
)

func (a *Activities) sendTrialReminder(ctx context.Context, userID string, m EntitlementPlan) error {
	if a.Subscriptions == nil || a.Notifications == nil {
		return errMissingDependency
	}
	v, due, err := a.Subscriptions.TrialReminderDue(ctx, userID, m.Kind)
	if err != nil || !due {
		return err
	}
	title := TrialReminderTitleFor(v.DaysLeft)
	// One key per member, reminder and day of its moment: a retry or a
	// second firing sends nothing more.
	key := "notify:" + m.Kind + ":" + userID + ":" + m.At.UTC().Format(time.DateOnly)
	// In-app and push (the notifications service pushes what it stores,
	// honouring the member's preferences and quiet hours).
	if _, _, err := a.Notifications.Create(ctx, userID, "other", title, TrialReminderMessage, key); err != nil {
		return err
	}
	// The mark claims the e-mail: one call sends it; a failed send gives the
	// claim back so the retry sends it.
	claimed, err := a.Subscriptions.MarkTrialReminded(ctx, userID, m.Kind)
	if err != nil || !claimed || a.Mailer == nil {
		return err
	}
	if err := a.mailTrialReminder(ctx, userID, title, v); err != nil {
		return errors.Join(err, a.Subscriptions.UnmarkTrialReminded(ctx, userID, m.Kind))
	}
	return nil
}

func (a *Activities) mailTrialReminder(ctx context.Context, userID, title string, v subscriptions.View) error {
	if a.Recipient == nil {
		return errMissingDependency
	}
	to, err := a.Recipient(ctx, userID)
	if err != nil {
		return fmt.Errorf("trial reminder recipient: %w", err)
	}
	ends := ""
	if v.TrialEndsAt != nil {
		ends = " em " + v.TrialEndsAt.In(brasilia).Format("02/01/2006 às 15h04")
	}
	link := strings.TrimRight(a.PublicURL, "/") + "/pricing"
	text := "Olá!\n\nSeu teste Premium do VetClube termina" + ends + ".\n\n" + TrialReminderMessage +
		"\n\nVer planos: " + link + "\n\nEquipe VetClube\n"
	html := "<!doctype html><html lang=\"pt-BR\"><body style=\"font-family:Arial,sans-serif;color:#222\">" +
		"<p>Olá!</p><p>Seu teste Premium do VetClube termina" + ends + ".</p><p>" + TrialReminderMessage + "</p>" +
		"<p><a href=\"" + link + "\">Ver planos</a></p><p>Equipe VetClube</p></body></html>"
	return a.Mailer.Send(ctx, mail.Message{To: to, Subject: title, Text: text, HTML: html})
}

func (a *Activities) endPremium(ctx context.Context, userID string) error {
	if a.Subscriptions == nil || a.Notifications == nil {
		return errMissingDependency
	}
	ended, err := a.Subscriptions.EndPremium(ctx, userID)
	if err != nil || !ended {
		return err
	}
	sub, err := a.Subscriptions.Get(ctx, userID)
	if err != nil || sub == nil {
		return err
	}
	msg := PremiumEndedPeriodMessage
	if sub.GraceUntil != nil {
		msg = PremiumEndedGraceMessage
	}
	_, _, err = a.Notifications.Create(ctx, userID, "other", PremiumEndedTitle, msg,
		"notify:premium-ended:"+userID+":"+a.now().UTC().Format(time.DateOnly))
	return err
}

// brasilia is the zone dates in e-mails are written in.
var brasilia = func() *time.Location {
	if loc, err := time.LoadLocation("America/Sao_Paulo"); err == nil {
		return loc
	}
	return time.FixedZone("BRT", -3*60*60)
}()
