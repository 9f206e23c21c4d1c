package jobs

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/notifications"
	"github.com/vetclube/vetclube/core/postgres"
	"github.com/vetclube/vetclube/core/profiles"
	"github.com/vetclube/vetclube/core/toolfiles"
)

// Application is one application as its applicant and the job's managers
// see it.
type Application struct {
	ID        string    `json:"id"`
	JobID     string    `json:"job_id"`
	JobSlug   string    `json:"job_slug"`
	JobTitle  string    `json:"job_title"`
	Org       string    `json:"organization"`
	JobOpen   bool      `json:"job_open"`
	Status    string    `json:"status"`
	Label     string    `json:"status_label"`
	Note      string    `json:"note"`
	Message   string    `json:"message"`
	HasCV     bool      `json:"has_cv"`
	CVName    string    `json:"cv_name,omitempty"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
	History   []Change  `json:"history"`
	// Applicant is the applicant's public profile (managers' view only).
	Applicant *profiles.PublicProfile `json:"applicant,omitempty"`

	userID, cvKey string
}

// Change is one status change of an application.
type Change struct {
	Status string    `json:"status"`
	Label  string    `json:"status_label"`
	Note   string    `json:"note"`
	At     time.Time `json:"at"`
}

// MsgCVNotPDF refuses a CV in another format.
const MsgCVNotPDF = "Envie o currículo em PDF (até 10 MB)."

// ApplyInput is what a member sends with an application.
type ApplyInput struct {
	Message string
	CVName  string
	CV      []byte
}

const applicationColumns = `a.id::text, a.item_id::text, l.slug, l.title, l.organization, (l.published AND l.closes_at > $1),
	a.status, a.note, a.message, a.cv_key IS NOT NULL, coalesce(a.cv_name, ''), a.created_at, a.updated_at,
	a.user_id::text, coalesce(a.cv_key, '')`

const applicationFrom = ` FROM job_applications a JOIN job_listings l ON l.item_id = a.item_id `

func scanApplication(row pgx.Row) (Application, error) {
	var a Application
	err := row.Scan(&a.ID, &a.JobID, &a.JobSlug, &a.JobTitle, &a.Org, &a.JobOpen, &a.Status, &a.Note, &a.Message, &a.HasCV, &a.CVName,
		&a.CreatedAt, &a.UpdatedAt, &a.userID, &a.cvKey)
	a.Label = StatusLabels[a.Status]
	a.History = []Change{}
	return a, err
}

// Apply applies userID to job idOrSlug in VetClube, with an optional
// message and CV (a PDF of at most 10 MB, checked like the tools' files:
// no scripts, actions or attachments). One application per member and
// job: applying again answers the first one unchanged (created false).
func (s *Service) Apply(ctx context.Context, userID, idOrSlug string, in ApplyInput) (Application, bool, error) {
	j, err := s.Get(ctx, idOrSlug, userID)
	if err != nil {
		return Application{}, false, err
	}
	if j.Application != nil {
		a, err := s.application(ctx, j.Application.ID)
		return a, false, err
	}
	if !j.Published || !j.ClosesAt.After(s.now()) {
		return Application{}, false, core.Errorf(core.ECONFLICT, "%s", MsgClosed)
	}
	if j.Apply.Kind != "vetclube" {
		return Application{}, false, core.Invalid(MsgNotInVetClube, nil)
	}
	in.Message = strings.TrimSpace(in.Message)
	if utf8.RuneCountInString(in.Message) > MaxMessage {
		return Application{}, false, core.Invalid(MsgMessageTooLong, map[string]string{"message": MsgMessageTooLong})
	}
	var key, name *string
	var size *int
	if len(in.CV) > 0 {
		if !bytes.HasPrefix(in.CV, []byte("%PDF-")) {
			return Application{}, false, core.Invalid(MsgCVNotPDF, map[string]string{"cv": MsgCVNotPDF})
		}
		if err := toolfiles.CheckPDF(in.CV); err != nil {
			return Application{}, false, err
		}
		if s.files == nil {
			return Application{}, false, core.Errorf(core.EUNAVAILABLE, "%s", "O envio de currículos está indisponível no momento.")
		}
		rnd := make([]byte, 16)
		_, _ = rand.Read(rnd)
		k := path.Join("job-cvs", j.ID, userID, hex.EncodeToString(rnd)+".pdf")
		if err := s.files.Put(ctx, k, "application/pdf", in.CV); err != nil {
			return Application{}, false, fmt.Errorf("store cv: %w", err)
		}
		n := toolfiles.CleanName(in.CVName)
		if !strings.HasSuffix(strings.ToLower(n), ".pdf") {
			n += ".pdf"
		}
		l := len(in.CV)
		key, name, size = &k, &n, &l
	}
	var id string
	created := false
	err = postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, `INSERT INTO job_applications (item_id, user_id, message, cv_key, cv_name, cv_size)
			VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (item_id, user_id) DO NOTHING RETURNING id::text`,
			j.ID, userID, in.Message, key, name, size).Scan(&id)
		if errors.Is(err, pgx.ErrNoRows) {
			// A concurrent request applied first: answer its application.
			return tx.QueryRow(ctx, `SELECT id::text FROM job_applications WHERE item_id = $1 AND user_id = $2`, j.ID, userID).Scan(&id)
		}
		if err != nil {
			return err
		}
		created = true
		_, err = tx.Exec(ctx, `INSERT INTO job_application_events (application_id, status, actor_id) VALUES ($1, $2, $3)`,
			id, StatusReceived, userID)
		return err
	})
	if (err != nil || !created) && key != nil {
		if derr := s.files.Delete(context.WithoutCancel(ctx), *key); derr != nil {
			s.log.Warn("jobs: cv left in storage", "key", *key, "err", derr)
		}
	}
	if err != nil {
		return Application{}, false, fmt.Errorf("apply: %w", err)
	}
	a, err := s.application(ctx, id)
	return a, created, err
}

// application reads application id with its history (no check of who asks).
func (s *Service) application(ctx context.Context, id string) (Application, error) {
	a, err := scanApplication(s.pool.QueryRow(ctx, `SELECT `+applicationColumns+applicationFrom+` WHERE a.id = $2`, s.now(), id))
	if errors.Is(err, pgx.ErrNoRows) {
		return Application{}, core.Errorf(core.ENOTFOUND, "%s", MsgApplicationNotFound)
	}
	if err != nil {
		return Application{}, fmt.Errorf("read application: %w", err)
	}
	rows, err := s.pool.Query(ctx, `SELECT status, note, created_at FROM job_application_events WHERE application_id = $1 ORDER BY id`, id)
	if err != nil {
		return Application{}, fmt.Errorf("read application history: %w", err)
	}
	a.History, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (Change, error) {
		var c Change
		err := r.Scan(&c.Status, &c.Note, &c.At)
		c.Label = StatusLabels[c.Status]
		return c, err
	})
	if err != nil {
		return Application{}, fmt.Errorf("read application history: %w", err)
	}
	return a, nil
}

// Mine lists userID's applications, newest first, with their history.
func (s *Service) Mine(ctx context.Context, userID string) ([]Application, error) {
	rows, err := s.pool.Query(ctx, `SELECT a.id::text`+applicationFrom+` WHERE a.user_id = $1 ORDER BY a.created_at DESC LIMIT 500`, userID)
	if err != nil {
		return nil, fmt.Errorf("my applications: %w", err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("my applications: %w", err)
	}
	out := make([]Application, 0, len(ids))
	for _, id := range ids {
		a, err := s.application(ctx, id)
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, nil
}

// Viewer is who asks for applications: the account and its roles.
type Viewer struct {
	UserID string
	Roles  []string
}

// Viewer of a principal.
func ViewerOf(p core.Principal) Viewer { return Viewer{UserID: p.UserID, Roles: p.Roles} }

// Manages reports whether v manages job itemID: a super admin or revisor
// manages every job; an editor the jobs they wrote or that are shared with
// them; a recruiter the jobs they were assigned to.
func (s *Service) Manages(ctx context.Context, v Viewer, itemID string) (bool, error) {
	if v.UserID == "" || !validID(itemID) {
		return false, nil
	}
	if slices.Contains(v.Roles, core.RoleSuperAdmin) || slices.Contains(v.Roles, core.RoleRevisor) {
		var ok bool
		err := s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM content_items WHERE id = $1 AND type = $2)`, itemID, TypeID).Scan(&ok)
		return ok, err
	}
	editor := slices.Contains(v.Roles, core.RoleEditor)
	recruiter := slices.Contains(v.Roles, core.RoleRecrutador)
	if !editor && !recruiter {
		return false, nil
	}
	var ok bool
	err := s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM content_items i WHERE i.id = $1 AND i.type = $2 AND (
			($3 AND (i.author_id = $4 OR EXISTS (SELECT 1 FROM content_item_editors e WHERE e.item_id = i.id AND e.user_id = $4)))
			OR ($5 AND EXISTS (SELECT 1 FROM job_recruiters r WHERE r.item_id = i.id AND r.user_id = $4))))`,
		itemID, TypeID, editor, v.UserID, recruiter).Scan(&ok)
	if err != nil {
		return false, fmt.Errorf("manages job: %w", err)
	}
	return ok, nil
}

func (s *Service) mustManage(ctx context.Context, v Viewer, itemID string) error {
	ok, err := s.Manages(ctx, v, itemID)
	if err != nil {
		return err
	}
	if !ok {
		// Never say whether the job or its applications exist.
		return core.Errorf(core.ENOTFOUND, "%s", MsgNotFound)
	}
	return nil
}

// ManagedJob is one job in the backoffice's applications list.
type ManagedJob struct {
	ID           string    `json:"id"`
	Slug         string    `json:"slug"`
	Title        string    `json:"title"`
	Organization string    `json:"organization"`
	City         string    `json:"city"`
	State        string    `json:"state"`
	Published    bool      `json:"published"`
	ClosesOn     string    `json:"closes_on"`
	Applications int       `json:"applications"`
	New          int       `json:"new_applications"`
	UpdatedAt    time.Time `json:"updated_at"`
}

// ManagedJobs lists the jobs v manages that were ever published, with how
// many applications each has.
func (s *Service) ManagedJobs(ctx context.Context, v Viewer) ([]ManagedJob, error) {
	all := slices.Contains(v.Roles, core.RoleSuperAdmin) || slices.Contains(v.Roles, core.RoleRevisor)
	editor := slices.Contains(v.Roles, core.RoleEditor)
	recruiter := slices.Contains(v.Roles, core.RoleRecrutador)
	if v.UserID == "" || (!all && !editor && !recruiter) {
		return []ManagedJob{}, nil
	}
	rows, err := s.pool.Query(ctx, `SELECT l.item_id::text, l.slug, l.title, l.organization, l.city, l.state, l.published,
			to_char(l.closes_on, 'YYYY-MM-DD'),
			(SELECT count(*) FROM job_applications a WHERE a.item_id = l.item_id),
			(SELECT count(*) FROM job_applications a WHERE a.item_id = l.item_id AND a.status = 'recebida'), l.updated_at
		FROM job_listings l JOIN content_items i ON i.id = l.item_id
		WHERE $1 OR ($2 AND (i.author_id = $4 OR EXISTS (SELECT 1 FROM content_item_editors e WHERE e.item_id = i.id AND e.user_id = $4)))
			OR ($3 AND EXISTS (SELECT 1 FROM job_recruiters r WHERE r.item_id = i.id AND r.user_id = $4))
		ORDER BY l.published DESC, l.closes_at DESC LIMIT 500`, all, editor, recruiter, v.UserID)
	if err != nil {
		return nil, fmt.Errorf("managed jobs: %w", err)
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (ManagedJob, error) {
		var m ManagedJob
		err := r.Scan(&m.ID, &m.Slug, &m.Title, &m.Organization, &m.City, &m.State, &m.Published, &m.ClosesOn, &m.Applications, &m.New, &m.UpdatedAt)
		return m, err
	})
	if err != nil {
		return nil, fmt.Errorf("managed jobs: %w", err)
	}
	if list == nil {
		list = []ManagedJob{}
	}
	return list, nil
}

// JobApplications lists the applications to job itemID, to v who manages
// it, each with the applicant's public profile; to anyone else the job is
// not found.
func (s *Service) JobApplications(ctx context.Context, v Viewer, itemID string) ([]Application, error) {
	if err := s.mustManage(ctx, v, itemID); err != nil {
		return nil, err
	}
	rows, err := s.pool.Query(ctx, `SELECT a.id::text FROM job_applications a WHERE a.item_id = $1 ORDER BY a.created_at LIMIT 2000`, itemID)
	if err != nil {
		return nil, fmt.Errorf("job applications: %w", err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("job applications: %w", err)
	}
	out := make([]Application, 0, len(ids))
	users := make([]string, 0, len(ids))
	for _, id := range ids {
		a, err := s.application(ctx, id)
		if err != nil {
			return nil, err
		}
		out = append(out, a)
		users = append(users, a.userID)
	}
	if s.profiles != nil && len(users) > 0 {
		pub, err := s.profiles.PublicMany(ctx, users)
		if err != nil {
			return nil, err
		}
		for i := range out {
			if p, ok := pub[out[i].userID]; ok {
				out[i].Applicant = &p
			} else {
				out[i].Applicant = &profiles.PublicProfile{ID: out[i].userID, FirstName: profiles.FallbackName}
			}
		}
	}
	return out, nil
}

// ManagedApplication reads application id for v, who must manage its job.
func (s *Service) ManagedApplication(ctx context.Context, v Viewer, id string) (Application, error) {
	if !validID(id) {
		return Application{}, core.Errorf(core.ENOTFOUND, "%s", MsgApplicationNotFound)
	}
	a, err := s.application(ctx, id)
	if err != nil {
		return Application{}, err
	}
	ok, err := s.Manages(ctx, v, a.JobID)
	if err != nil {
		return Application{}, err
	}
	if !ok {
		return Application{}, core.Errorf(core.ENOTFOUND, "%s", MsgApplicationNotFound)
	}
	return a, nil
}

// SetStatus moves application id to status with note, for v who manages
// its job, and tells the applicant. Setting the status and note it already
// has changes nothing and notifies nobody.
func (s *Service) SetStatus(ctx context.Context, v Viewer, id, status, note string) (Application, error) {
	if !slices.Contains(Statuses, status) {
		return Application{}, core.Invalid(MsgBadStatus, map[string]string{"status": MsgBadStatus})
	}
	note = strings.TrimSpace(note)
	if utf8.RuneCountInString(note) > MaxNote {
		return Application{}, core.Invalid(MsgNoteTooLong, map[string]string{"note": MsgNoteTooLong})
	}
	a, err := s.ManagedApplication(ctx, v, id)
	if err != nil {
		return Application{}, err
	}
	var eventID int64
	err = postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		var cur, curNote string
		if err := tx.QueryRow(ctx, `SELECT status, note FROM job_applications WHERE id = $1 FOR UPDATE`, id).Scan(&cur, &curNote); err != nil {
			return err
		}
		if cur == status && curNote == note {
			return nil
		}
		if _, err := tx.Exec(ctx, `UPDATE job_applications SET status = $2, note = $3, updated_at = now() WHERE id = $1`, id, status, note); err != nil {
			return err
		}
		return tx.QueryRow(ctx, `INSERT INTO job_application_events (application_id, status, note, actor_id) VALUES ($1, $2, $3, $4) RETURNING id`,
			id, status, note, v.UserID).Scan(&eventID)
	})
	if err != nil {
		return Application{}, fmt.Errorf("set application status: %w", err)
	}
	if eventID != 0 && s.notify != nil {
		msg := fmt.Sprintf("Sua candidatura para %s (%s) está agora em: %s.", a.JobTitle, a.Org, StatusLabels[status])
		if note != "" {
			msg += " " + note
		}
		if _, err := s.notify.Send(ctx, notifications.Notice{UserID: a.userID, Type: NotificationType,
			Title: "Candidatura atualizada", Message: truncate(msg, 500), Link: "/oportunidades/candidaturas",
			Data:           map[string]string{"application_id": id, "job_id": a.JobID, "status": status},
			IdempotencyKey: fmt.Sprintf("job-application:%s:%d", id, eventID)}); err != nil {
			s.log.Warn("jobs: applicant not notified", "application", id, "err", err)
		}
	}
	return s.ManagedApplication(ctx, v, id)
}

// NotificationType is the notifications' type for jobs (application
// changes and saved-search alerts).
const NotificationType = "job"

func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// CV returns the CV of application id to its applicant or to v who manages
// its job: its name and bytes.
func (s *Service) CV(ctx context.Context, v Viewer, id string) (string, []byte, error) {
	if !validID(id) {
		return "", nil, core.Errorf(core.ENOTFOUND, "%s", MsgApplicationNotFound)
	}
	a, err := s.application(ctx, id)
	if err != nil {
		return "", nil, err
	}
	if a.userID != v.UserID {
		ok, err := s.Manages(ctx, v, a.JobID)
		if err != nil {
			return "", nil, err
		}
		if !ok {
			return "", nil, core.Errorf(core.ENOTFOUND, "%s", MsgApplicationNotFound)
		}
	}
	if a.cvKey == "" || s.files == nil {
		return "", nil, core.Errorf(core.ENOTFOUND, "%s", "Esta candidatura não tem currículo.")
	}
	data, err := s.files.Get(ctx, a.cvKey)
	if err != nil {
		return "", nil, fmt.Errorf("read cv: %w", err)
	}
	return a.CVName, data, nil
}

// Recruiter is one account assigned to a job.
type Recruiter struct {
	UserID string    `json:"user_id"`
	Email  string    `json:"email"`
	Name   string    `json:"name"`
	At     time.Time `json:"added_at"`
}

// staff are the roles that assign recruiters.
func staff(v Viewer) bool {
	return slices.ContainsFunc(v.Roles, func(r string) bool {
		return r == core.RoleEditor || r == core.RoleRevisor || r == core.RoleSuperAdmin
	})
}

// Recruiters lists the recruiters of job itemID, to staff who manage it.
func (s *Service) Recruiters(ctx context.Context, v Viewer, itemID string) ([]Recruiter, error) {
	if !staff(v) {
		return nil, core.Errorf(core.ENOTFOUND, "%s", MsgNotFound)
	}
	if err := s.mustManage(ctx, v, itemID); err != nil {
		return nil, err
	}
	rows, err := s.pool.Query(ctx, `SELECT r.user_id::text, u.email, r.added_at FROM job_recruiters r JOIN users u ON u.id = r.user_id
		WHERE r.item_id = $1 ORDER BY r.added_at`, itemID)
	if err != nil {
		return nil, fmt.Errorf("recruiters: %w", err)
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Recruiter, error) {
		var x Recruiter
		err := r.Scan(&x.UserID, &x.Email, &x.At)
		return x, err
	})
	if err != nil {
		return nil, fmt.Errorf("recruiters: %w", err)
	}
	for i := range list {
		if s.profiles != nil {
			list[i].Name = s.profiles.DisplayName(ctx, list[i].UserID)
		}
	}
	if list == nil {
		list = []Recruiter{}
	}
	return list, nil
}

// AddRecruiter assigns the account with email, which must hold the
// recrutador role, to job itemID; staff who manage the job may.
func (s *Service) AddRecruiter(ctx context.Context, v Viewer, itemID, email string) ([]Recruiter, error) {
	if !staff(v) {
		return nil, core.Errorf(core.ENOTFOUND, "%s", MsgNotFound)
	}
	if err := s.mustManage(ctx, v, itemID); err != nil {
		return nil, err
	}
	email = strings.ToLower(strings.TrimSpace(email))
	if email == "" || len(email) > 320 {
		return nil, core.Invalid(MsgNoAccount, map[string]string{"email": MsgNoAccount})
	}
	var userID string
	var recruiter bool
	err := s.pool.QueryRow(ctx, `SELECT u.id::text, EXISTS (SELECT 1 FROM user_roles r WHERE r.user_id = u.id AND r.role = 'recrutador')
		FROM users u WHERE lower(u.email) = $1`, email).Scan(&userID, &recruiter)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, core.Invalid(MsgNoAccount, map[string]string{"email": MsgNoAccount})
	}
	if err != nil {
		return nil, fmt.Errorf("find recruiter: %w", err)
	}
	if !recruiter {
		return nil, core.Invalid(MsgNotRecruiter, map[string]string{"email": MsgNotRecruiter})
	}
	if _, err := s.pool.Exec(ctx, `INSERT INTO job_recruiters (item_id, user_id, added_by) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
		itemID, userID, v.UserID); err != nil {
		return nil, fmt.Errorf("add recruiter: %w", err)
	}
	return s.Recruiters(ctx, v, itemID)
}

// RemoveRecruiter drops userID from job itemID's recruiters.
func (s *Service) RemoveRecruiter(ctx context.Context, v Viewer, itemID, userID string) ([]Recruiter, error) {
	if !staff(v) {
		return nil, core.Errorf(core.ENOTFOUND, "%s", MsgNotFound)
	}
	if err := s.mustManage(ctx, v, itemID); err != nil {
		return nil, err
	}
	if validID(userID) {
		if _, err := s.pool.Exec(ctx, `DELETE FROM job_recruiters WHERE item_id = $1 AND user_id = $2`, itemID, userID); err != nil {
			return nil, fmt.Errorf("remove recruiter: %w", err)
		}
	}
	return s.Recruiters(ctx, v, itemID)
}
