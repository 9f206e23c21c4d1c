package main

import (
	"context"
	"fmt"
	"time"

	"github.com/vetclube/vetclube/plugins/sdk"
)

// Vaccine reminders are scheduled with the core (host.ScheduleNotification),
// which delivers them when due even if the vet never opens the tool: for
// each next dose of an active patient not superseded by a later dose of the
// same vaccine, one on the morning of the due day and one reminderDays
// before, both at reminderHour in Brazil's official time (UTC-3, no summer
// time since 2019). Keys are "vacina:<patient>:<record>:dia|antes", so one
// patient's reminders are replaced together whenever a record, the patient
// or its archiving changes (resyncPatient), and cancelled on archiving.

// reminderDays is how long before a vaccine's next dose the early reminder
// comes.
const reminderDays = 7

// reminderHour is the local hour reminders are delivered at.
const reminderHour = 8

// brazilTime is Brasília time (UTC-3).
var brazilTime = time.FixedZone("BRT", -3*60*60)

// patientLink is a patient's page in the tool.
func patientLink(patientID string) string {
	return "/ferramentas/prontuario-vet?paciente=" + patientID
}

func reminderPrefix(patientID string) string { return "vacina:" + patientID + ":" }

// reminderMoments returns the moments of a dose due on day (YYYY-MM-DD).
func reminderMoments(day string) (onDay, before time.Time, err error) {
	d, err := time.ParseInLocation("2006-01-02", day, brazilTime)
	if err != nil {
		return time.Time{}, time.Time{}, err
	}
	onDay = d.Add(reminderHour * time.Hour)
	return onDay, onDay.AddDate(0, 0, -reminderDays), nil
}

// resyncPatient replaces the scheduled reminders of one patient with those
// its records call for now.
func (a *api) resyncPatient(ctx context.Context, userID, patientID string) error {
	if _, err := a.host.CancelScheduledNotifications(ctx, reminderPrefix(patientID)); err != nil {
		return err
	}
	today := a.now().In(brazilTime).Format("2006-01-02")
	due, err := a.s.patientUpcomingVaccines(ctx, userID, patientID, today)
	if err != nil {
		return err
	}
	now := a.now()
	for _, v := range due {
		onDay, before, err := reminderMoments(v.NextDose)
		if err != nil {
			continue
		}
		who := v.PatientName
		if v.TutorName != "" {
			who += " (tutor: " + v.TutorName + ")"
		}
		link := patientLink(v.PatientID)
		key := reminderPrefix(v.PatientID) + v.RecordID
		if before.After(now) {
			title := fmt.Sprintf("Vacina de %s em %d dias", v.PatientName, reminderDays)
			msg := fmt.Sprintf("Próxima dose de %s de %s em %s. Lembre o tutor de agendar.", v.Vaccine, who, brDate(v.NextDose))
			if _, err := a.host.ScheduleNotification(ctx, key+":antes", before, clip(title, sdk.ScheduleTitleMax), clip(msg, sdk.ScheduleBodyMax), link); err != nil {
				return err
			}
		}
		if onDay.After(now) {
			title := "Vacina de " + v.PatientName + " hoje"
			msg := fmt.Sprintf("Hoje é o dia da próxima dose de %s de %s.", v.Vaccine, who)
			if _, err := a.host.ScheduleNotification(ctx, key+":dia", onDay, clip(title, sdk.ScheduleTitleMax), clip(msg, sdk.ScheduleBodyMax), link); err != nil {
				return err
			}
		}
	}
	return nil
}

// syncReminders is resyncPatient that only logs a failure: the record was
// saved, and the next change or the tool's first page tries again.
func (a *api) syncReminders(ctx context.Context, userID, patientID string) {
	if err := a.resyncPatient(ctx, userID, patientID); err != nil {
		a.host.Logger().Warn("vaccine reminders not scheduled", "err", err)
		_ = a.host.KVDelete(ctx, syncedKey(userID))
	}
}

// syncedKey marks a member whose every patient's reminders were scheduled
// (records made before reminders were scheduled by the core, or a failed
// sync, are caught up on the next visit to the patient list).
func syncedKey(userID string) string { return "reminders-synced:v1:" + userID }

// syncAllOnce schedules the reminders of every patient of the member the
// first time they open the tool (and after a failed sync).
func (a *api) syncAllOnce(ctx context.Context, userID string) {
	if _, found, err := a.host.KVGet(ctx, syncedKey(userID)); err != nil || found {
		return
	}
	ids, err := a.s.patientIDs(ctx, userID)
	if err != nil {
		a.host.Logger().Warn("vaccine reminders: list patients", "err", err)
		return
	}
	for _, id := range ids {
		if err := a.resyncPatient(ctx, userID, id); err != nil {
			a.host.Logger().Warn("vaccine reminders not scheduled", "err", err)
			return
		}
	}
	if err := a.host.KVSet(ctx, syncedKey(userID), []byte("1"), 0); err != nil {
		a.host.Logger().Warn("vaccine reminders: mark synced", "err", err)
	}
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
