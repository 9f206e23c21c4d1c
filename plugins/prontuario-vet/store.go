package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/vetclube/vetclube/plugins/sdk"
)

// Every statement filters on user_id: a row of another vet is never read,
// changed or counted, and reads as absent (404).
type store struct{ host *sdk.Host }

// patientColsOf is the patient columns of the table aliased t.
func patientColsOf(t string) string {
	return strings.NewReplacer("t.", t+".").Replace(`t.id::text AS id, t.name, t.species, t.data, t.archived_at IS NOT NULL AS archived, t.version,
	to_char(t.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS created_at,
	to_char(t.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS updated_at`)
}

var patientCols = patientColsOf("patients")

const recordCols = `r.id::text AS id, r.patient_id::text AS patient_id, r.kind, to_char(r.occurred_on, 'YYYY-MM-DD') AS date, r.data, r.version,
	to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS created_at,
	to_char(r.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS updated_at,
	(SELECT count(*) FROM record_revisions v WHERE v.record_id = r.id)::int AS revisions`

// errCounterMoved means another request changed the active count between
// the limit check and the write: check again.
var errCounterMoved = errors.New("active patient count changed concurrently")

func (s *store) activeCount(ctx context.Context, user string) (int, error) {
	if _, err := s.host.Exec(ctx, `INSERT INTO member_counts (user_id) VALUES ($1::uuid) ON CONFLICT DO NOTHING`, user); err != nil {
		return 0, err
	}
	var rows []struct{ Active int }
	if err := s.host.Query(ctx, &rows, `SELECT active FROM member_counts WHERE user_id = $1::uuid`, user); err != nil || len(rows) == 0 {
		return 0, err
	}
	return rows[0].Active, nil
}

// createPatient inserts only if the member's active count is still used:
// the counter row's lock serialises concurrent creations, and a creation
// that waited re-reads the count, finds it moved and inserts nothing
// (errCounterMoved), so the limit checked for used holds.
func (s *store) createPatient(ctx context.Context, user string, used int, in patientInput) (Patient, error) {
	var rows []Patient
	err := s.host.Query(ctx, &rows, `
		WITH bump AS (UPDATE member_counts SET active = active + 1 WHERE user_id = $1::uuid AND active = $2 RETURNING user_id)
		INSERT INTO patients (user_id, name, species, data, search)
		SELECT user_id, $3, $4, $5::jsonb, $6 FROM bump
		RETURNING `+patientCols, user, used, in.Name, in.Species, in.PatientData, searchText(in))
	if err != nil {
		return Patient{}, err
	}
	if len(rows) == 0 {
		return Patient{}, errCounterMoved
	}
	return rows[0], nil
}

func (s *store) patient(ctx context.Context, user, id string) (Patient, bool, error) {
	if !uuidPattern.MatchString(id) {
		return Patient{}, false, nil
	}
	var rows []Patient
	err := s.host.Query(ctx, &rows, `SELECT `+patientCols+` FROM patients WHERE id = $1::uuid AND user_id = $2::uuid`, id, user)
	if err != nil || len(rows) == 0 {
		return Patient{}, false, err
	}
	return rows[0], true, nil
}

type patientFilter struct {
	Query, Species string
	Archived       bool
	Page, PerPage  int
}

func likePattern(q string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return "%" + r.Replace(fold(strings.TrimSpace(q))) + "%"
}

func (s *store) patients(ctx context.Context, user string, f patientFilter) ([]Patient, int, error) {
	where := `user_id = $1::uuid AND (archived_at IS NOT NULL) = $2 AND ($3 = '' OR species = $3) AND search LIKE $4`
	args := []any{user, f.Archived, f.Species, likePattern(f.Query)}
	var total []struct{ N int }
	if err := s.host.Query(ctx, &total, `SELECT count(*)::int AS n FROM patients WHERE `+where, args...); err != nil {
		return nil, 0, err
	}
	rows := []Patient{}
	err := s.host.Query(ctx, &rows, `SELECT `+patientCols+` FROM patients WHERE `+where+
		` ORDER BY lower(name), id LIMIT $5 OFFSET $6`, append(args, f.PerPage, (f.Page-1)*f.PerPage)...)
	return rows, total[0].N, err
}

// updatePatient writes only the vet's own patient at the version they
// edited, and keeps the previous values in patient_revisions in the same
// statement: a record is never silently rewritten.
func (s *store) updatePatient(ctx context.Context, user, id, editor string, in patientInput) (Patient, bool, error) {
	if !uuidPattern.MatchString(id) {
		return Patient{}, false, nil
	}
	var rows []Patient
	err := s.host.Query(ctx, &rows, `
		WITH old AS (
			SELECT id, user_id, name, species, data FROM patients
			WHERE id = $1::uuid AND user_id = $2::uuid AND version = $3 FOR UPDATE),
		rev AS (
			INSERT INTO patient_revisions (patient_id, user_id, edited_by, previous)
			SELECT id, user_id, $4, jsonb_build_object('name', name, 'species', species, 'data', data) FROM old)
		UPDATE patients p SET name = $5, species = $6, data = $7::jsonb, search = $8, version = p.version + 1, updated_at = now()
		FROM old WHERE p.id = old.id
		RETURNING `+patientColsOf("p"),
		id, user, in.Version, editor, in.Name, in.Species, in.PatientData, searchText(in))
	if err != nil || len(rows) == 0 {
		return Patient{}, false, err
	}
	return rows[0], true, nil
}

// archive moves an active patient to the archive and gives its place back
// to the member's active count, in one statement.
func (s *store) archive(ctx context.Context, user, id string) error {
	if !uuidPattern.MatchString(id) {
		return nil
	}
	_, err := s.host.Exec(ctx, `
		WITH a AS (
			UPDATE patients SET archived_at = now(), version = version + 1, updated_at = now()
			WHERE id = $1::uuid AND user_id = $2::uuid AND archived_at IS NULL RETURNING id)
		UPDATE member_counts SET active = active - (SELECT count(*) FROM a)
		WHERE user_id = $2::uuid AND EXISTS (SELECT 1 FROM a)`, id, user)
	return err
}

// unarchive brings a patient back only if the active count is still used
// (checked against the limit by the caller) and the patient is archived.
func (s *store) unarchive(ctx context.Context, user, id string, used int) (bool, error) {
	var rows []struct{ ID string }
	err := s.host.Query(ctx, &rows, `
		WITH target AS (
			SELECT id FROM patients WHERE id = $1::uuid AND user_id = $2::uuid AND archived_at IS NOT NULL FOR UPDATE),
		bump AS (
			UPDATE member_counts SET active = active + 1
			WHERE user_id = $2::uuid AND active = $3 AND EXISTS (SELECT 1 FROM target) RETURNING 1)
		UPDATE patients p SET archived_at = NULL, version = p.version + 1, updated_at = now()
		FROM target WHERE p.id = target.id AND EXISTS (SELECT 1 FROM bump)
		RETURNING p.id::text AS id`, id, user, used)
	return len(rows) == 1, err
}

type revision struct {
	EditedBy string         `json:"edited_by"`
	EditedAt string         `json:"edited_at"`
	Previous map[string]any `json:"previous"`
}

func (s *store) patientRevisions(ctx context.Context, user, id string) ([]revision, error) {
	out := []revision{}
	err := s.host.Query(ctx, &out, `
		SELECT edited_by, to_char(edited_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS edited_at, previous
		FROM patient_revisions WHERE patient_id = $1::uuid AND user_id = $2::uuid ORDER BY edited_at DESC, id DESC LIMIT 200`, id, user)
	return out, err
}

func (s *store) createRecord(ctx context.Context, user, patientID string, in recordInput) (Record, bool, error) {
	var rows []Record
	err := s.host.Query(ctx, &rows, `
		WITH r AS (
			INSERT INTO records (user_id, patient_id, kind, occurred_on, data, next_dose)
			SELECT user_id, id, $3, $4::date, $5::jsonb, NULLIF($6, '')::date FROM patients
			WHERE id = $1::uuid AND user_id = $2::uuid
			RETURNING *)
		SELECT `+strings.ReplaceAll(recordCols, "(SELECT count(*) FROM record_revisions v WHERE v.record_id = r.id)::int", "0")+` FROM r`,
		patientID, user, in.Kind, in.Date, in.Data, in.Data.NextDose)
	if err != nil || len(rows) == 0 {
		return Record{}, false, err
	}
	return rows[0], true, nil
}

func (s *store) record(ctx context.Context, user, id string) (Record, bool, error) {
	if !uuidPattern.MatchString(id) {
		return Record{}, false, nil
	}
	var rows []Record
	err := s.host.Query(ctx, &rows, `SELECT `+recordCols+` FROM records r WHERE r.id = $1::uuid AND r.user_id = $2::uuid`, id, user)
	if err != nil || len(rows) == 0 {
		return Record{}, false, err
	}
	return rows[0], true, nil
}

// records lists a patient's records, newest first.
func (s *store) records(ctx context.Context, user, patientID, kind string, page, perPage int) ([]Record, int, error) {
	var total []struct{ N int }
	if err := s.host.Query(ctx, &total, `SELECT count(*)::int AS n FROM records WHERE user_id = $1::uuid AND patient_id = $2::uuid AND ($3 = '' OR kind = $3)`,
		user, patientID, kind); err != nil {
		return nil, 0, err
	}
	rows := []Record{}
	err := s.host.Query(ctx, &rows, `SELECT `+recordCols+` FROM records r
		WHERE r.user_id = $1::uuid AND r.patient_id = $2::uuid AND ($3 = '' OR r.kind = $3)
		ORDER BY r.occurred_on DESC, r.created_at DESC, r.id LIMIT $4 OFFSET $5`, user, patientID, kind, perPage, (page-1)*perPage)
	return rows, total[0].N, err
}

// updateRecord keeps the previous date and text in record_revisions in the
// same statement, and writes only at the version the vet edited.
func (s *store) updateRecord(ctx context.Context, user, id, editor string, in recordInput) (bool, error) {
	n, err := s.host.Exec(ctx, `
		WITH old AS (
			SELECT id, user_id, occurred_on, data FROM records
			WHERE id = $1::uuid AND user_id = $2::uuid AND version = $3 FOR UPDATE),
		rev AS (
			INSERT INTO record_revisions (record_id, user_id, edited_by, previous_occurred_on, previous)
			SELECT id, user_id, $4, occurred_on, data FROM old)
		UPDATE records r SET occurred_on = $5::date, data = $6::jsonb, next_dose = NULLIF($7, '')::date,
			reminder_sent_at = CASE WHEN r.next_dose IS DISTINCT FROM NULLIF($7, '')::date THEN NULL ELSE r.reminder_sent_at END,
			version = r.version + 1, updated_at = now()
		FROM old WHERE r.id = old.id`, id, user, in.Version, editor, in.Date, in.Data, in.Data.NextDose)
	return n == 1, err
}

type recordRevision struct {
	EditedBy string     `json:"edited_by"`
	EditedAt string     `json:"edited_at"`
	Date     string     `json:"date"`
	Data     RecordData `json:"data"`
}

func (s *store) recordRevisions(ctx context.Context, user, id string) ([]recordRevision, error) {
	out := []recordRevision{}
	err := s.host.Query(ctx, &out, `
		SELECT edited_by, to_char(edited_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS edited_at,
		       to_char(previous_occurred_on, 'YYYY-MM-DD') AS date, previous AS data
		FROM record_revisions WHERE record_id = $1::uuid AND user_id = $2::uuid ORDER BY edited_at DESC, id DESC LIMIT 200`, id, user)
	return out, err
}

type weightPoint struct {
	Date string  `json:"date"`
	Kg   float64 `json:"kg"`
}

// weights are the patient's dated weights (weight records and the weight
// measured in consultations), oldest first.
func (s *store) weights(ctx context.Context, user, patientID string) ([]weightPoint, error) {
	out := []weightPoint{}
	err := s.host.Query(ctx, &out, `
		SELECT to_char(occurred_on, 'YYYY-MM-DD') AS date, (data->>'weight_kg')::float8 AS kg FROM records
		WHERE user_id = $1::uuid AND patient_id = $2::uuid AND kind IN ('peso', 'consulta') AND data->>'weight_kg' IS NOT NULL
		ORDER BY occurred_on, created_at LIMIT 500`, user, patientID)
	return out, err
}

type upcomingVaccine struct {
	RecordID    string `json:"record_id"`
	PatientID   string `json:"patient_id"`
	PatientName string `json:"patient_name"`
	Vaccine     string `json:"vaccine"`
	NextDose    string `json:"next_dose"`
	TutorName   string `json:"tutor_name"`
	TutorPhone  string `json:"tutor_phone"`
	Reminded    bool   `json:"reminded"`
}

// upcomingVaccines are the next doses of active patients from `from` to
// `to` (YYYY-MM-DD), soonest first. A later vaccination of the same vaccine
// supersedes an earlier one's next dose.
func (s *store) upcomingVaccines(ctx context.Context, user, from, to string, limit int) ([]upcomingVaccine, error) {
	out := []upcomingVaccine{}
	err := s.host.Query(ctx, &out, `
		SELECT r.id::text AS record_id, p.id::text AS patient_id, p.name AS patient_name, r.data->>'vaccine' AS vaccine,
		       to_char(r.next_dose, 'YYYY-MM-DD') AS next_dose, COALESCE(p.data->'tutor'->>'name', '') AS tutor_name,
		       COALESCE(p.data->'tutor'->>'phone', '') AS tutor_phone, r.reminder_sent_at IS NOT NULL AS reminded
		FROM records r JOIN patients p ON p.id = r.patient_id AND p.user_id = r.user_id
		WHERE r.user_id = $1::uuid AND r.kind = 'vacina' AND p.archived_at IS NULL
		  AND r.next_dose BETWEEN $2::date AND $3::date
		  AND NOT EXISTS (SELECT 1 FROM records later WHERE later.user_id = r.user_id AND later.patient_id = r.patient_id
		      AND later.kind = 'vacina' AND lower(later.data->>'vaccine') = lower(r.data->>'vaccine') AND later.occurred_on > r.occurred_on)
		ORDER BY r.next_dose, p.name LIMIT $4`, user, from, to, limit)
	return out, err
}

// patientUpcomingVaccines are the next doses, from day on, of one active
// patient, not superseded by a later dose of the same vaccine.
func (s *store) patientUpcomingVaccines(ctx context.Context, user, patientID, day string) ([]upcomingVaccine, error) {
	out := []upcomingVaccine{}
	if !uuidPattern.MatchString(patientID) {
		return out, nil
	}
	err := s.host.Query(ctx, &out, `
		SELECT r.id::text AS record_id, p.id::text AS patient_id, p.name AS patient_name, r.data->>'vaccine' AS vaccine,
		       to_char(r.next_dose, 'YYYY-MM-DD') AS next_dose, COALESCE(p.data->'tutor'->>'name', '') AS tutor_name,
		       COALESCE(p.data->'tutor'->>'phone', '') AS tutor_phone, r.reminder_sent_at IS NOT NULL AS reminded
		FROM records r JOIN patients p ON p.id = r.patient_id AND p.user_id = r.user_id
		WHERE r.user_id = $1::uuid AND p.id = $2::uuid AND r.kind = 'vacina' AND p.archived_at IS NULL
		  AND r.next_dose >= $3::date
		  AND NOT EXISTS (SELECT 1 FROM records later WHERE later.user_id = r.user_id AND later.patient_id = r.patient_id
		      AND later.kind = 'vacina' AND lower(later.data->>'vaccine') = lower(r.data->>'vaccine') AND later.occurred_on > r.occurred_on)
		ORDER BY r.next_dose LIMIT 100`, user, patientID, day)
	return out, err
}

// patientIDs lists the member's active patients' ids.
func (s *store) patientIDs(ctx context.Context, user string) ([]string, error) {
	var rows []struct {
		ID string `json:"id"`
	}
	if err := s.host.Query(ctx, &rows, `SELECT id::text AS id FROM patients WHERE user_id = $1::uuid AND archived_at IS NULL ORDER BY created_at LIMIT 10000`, user); err != nil {
		return nil, err
	}
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = r.ID
	}
	return out, nil
}

// deleteUser removes every row of the member; safe to repeat.
func (s *store) deleteUser(ctx context.Context, user string) error {
	if !uuidPattern.MatchString(user) {
		return fmt.Errorf("delete user: bad id %q", user)
	}
	for _, q := range []string{
		`DELETE FROM record_revisions WHERE user_id = $1::uuid`,
		`DELETE FROM records WHERE user_id = $1::uuid`,
		`DELETE FROM patient_revisions WHERE user_id = $1::uuid`,
		`DELETE FROM patients WHERE user_id = $1::uuid`,
		`DELETE FROM member_counts WHERE user_id = $1::uuid`,
	} {
		if _, err := s.host.Exec(ctx, q, user); err != nil {
			return fmt.Errorf("delete user: %w", err)
		}
	}
	return nil
}
