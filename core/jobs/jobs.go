// Package jobs is the core side of the jobs content type (plugin
// plugins/vagas), "Oportunidades": the reading model of published jobs
// (job_listings, typed from each published snapshot by a trigger), search
// with accents ignored and filters, saved jobs, applications made in
// VetClube (the profile and an optional CV PDF in the private store), their
// status set by the people who manage the job (the applicant is notified),
// saved searches whose alerts announce a newly published job that matches,
// and the hand-over of each job's closing day to the content platform's
// publication timer (the job goes offline when applications close).
//
// Who sees an application: its applicant; a super admin or revisor (every
// job); an editor who wrote the job or shares it (content_item_editors);
// an account with the recrutador role assigned to the job (job_recruiters).
// Nobody else: to anyone else an application does not exist (404).
package jobs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/notifications"
	"github.com/vetclube/vetclube/core/profiles"
	"github.com/vetclube/vetclube/core/search"
)

// TypeID is the jobs content type (plugins/vagas).
const TypeID = "vagas"

// PageSize is how many jobs a list page holds.
const PageSize = 20

// Limits.
const (
	MaxSavedSearches = 20
	MaxNote          = 2000
	MaxMessage       = 3000
	MaxCVBytes       = 10 << 20
)

// Statuses of an application, in the order a hiring usually goes.
const (
	StatusReceived  = "recebida"
	StatusReview    = "em_analise"
	StatusInterview = "entrevista"
	StatusRefused   = "recusada"
	StatusHired     = "contratada"
)

// Statuses lists every status.
var Statuses = []string{StatusReceived, StatusReview, StatusInterview, StatusRefused, StatusHired}

// StatusLabels are the statuses as people read them.
var StatusLabels = map[string]string{
	StatusReceived: "Recebida", StatusReview: "Em análise", StatusInterview: "Entrevista",
	StatusRefused: "Recusada", StatusHired: "Contratada",
}

// Filter values a list accepts (the plugin's options).
var (
	States = []string{"AC", "AL", "AP", "AM", "BA", "CE", "DF", "ES", "GO", "MA", "MT", "MS", "MG", "PA", "PB", "PR", "PE", "PI",
		"RJ", "RN", "RS", "RO", "RR", "SC", "SP", "SE", "TO"}
	Workplaces = []string{"remoto", "hibrido", "presencial"}
	Contracts  = []string{"clt", "pj", "estagio", "residencia", "plantao", "freelance"}
	Areas      = []string{"pequenos_animais", "grandes_animais", "equinos", "silvestres_exoticos", "aves_suinos", "saude_publica",
		"laboratorio", "industria", "ensino_pesquisa"}
)

// Sorts.
const (
	SortNewest  = "recentes"
	SortClosing = "encerramento"
)

// Messages people read.
const (
	MsgNotFound            = "Vaga não encontrada."
	MsgApplicationNotFound = "Candidatura não encontrada."
	MsgBadState            = "Escolha um estado (UF) da lista."
	MsgBadWorkplace        = "Escolha remoto, híbrido ou presencial."
	MsgBadContract         = "Escolha um tipo de contrato da lista."
	MsgBadArea             = "Escolha uma área da lista."
	MsgBadSort             = "Ordene por mais recentes ou por encerramento."
	MsgBadPage             = "Página inválida."
	MsgCityTooLong         = "A cidade deve ter no máximo 120 caracteres."
	MsgNotInVetClube       = "Esta vaga recebe candidaturas fora do VetClube: use o link ou o e-mail indicado."
	MsgClosed              = "As candidaturas para esta vaga estão encerradas."
	MsgBadStatus           = "Escolha um status: recebida, em análise, entrevista, recusada ou contratada."
	MsgNoteTooLong         = "A observação deve ter no máximo 2000 caracteres."
	MsgMessageTooLong      = "A mensagem deve ter no máximo 3000 caracteres."
	MsgTooManySearches     = "Você pode salvar até 20 buscas. Exclua uma para salvar outra."
	MsgSearchNotFound      = "Busca salva não encontrada."
	MsgEmptySearch         = "Escolha ao menos um filtro ou digite uma busca para salvar."
	MsgNotRecruiter        = "Esta conta não tem o papel de recrutador."
	MsgNoAccount           = "Nenhuma conta com este e-mail."
	MsgForbidden           = "Você não gerencia esta vaga."
)

// Apply is how a candidate applies: link, email or vetclube.
type Apply struct {
	Kind  string `json:"kind"`
	Value string `json:"value"`
}

// Job is a job as members see it.
type Job struct {
	ID           string    `json:"id"`
	Slug         string    `json:"slug"`
	Title        string    `json:"title"`
	Summary      string    `json:"summary"`
	Organization string    `json:"organization"`
	City         string    `json:"city"`
	State        string    `json:"state"`
	Workplace    string    `json:"workplace"`
	Contract     string    `json:"contract"`
	Area         string    `json:"area"`
	Specialty    string    `json:"specialty"`
	SalaryMin    *int      `json:"salary_min"`
	SalaryMax    *int      `json:"salary_max"`
	Requirements string    `json:"requirements,omitempty"`
	CRMVRequired bool      `json:"crmv_required"`
	Apply        Apply     `json:"apply"`
	ClosesOn     string    `json:"closes_on"`
	ClosesAt     time.Time `json:"closes_at"`
	Featured     bool      `json:"featured"`
	Published    bool      `json:"published"`
	PublishedAt  time.Time `json:"published_at"`
	Saved        bool      `json:"saved"`
	Application  *MyStatus `json:"application"`
	BelowFloor   bool      `json:"below_salary_floor"`
	Revision     int       `json:"revision"`
}

// MyStatus is the reader's own application to a job.
type MyStatus struct {
	ID     string `json:"id"`
	Status string `json:"status"`
}

// SalaryFloor is the professional salary floor (Lei 4.950-A/1966: six
// minimum wages for six hours a day), in R$ per month; a posting whose top
// pay is below it is flagged. Kept as a setting of the service (the minimum
// wage changes every year).
const DefaultSalaryFloor = 6 * 1518

// Service serves jobs.
type Service struct {
	pool     *pgxpool.Pool
	notify   notifications.Sender
	profiles *profiles.Service
	files    Files
	closer   Closer
	floor    int
	now      func() time.Time
	log      *slog.Logger
}

// Files is the private store the CVs live in.
type Files interface {
	Put(ctx context.Context, key, contentType string, body []byte) error
	Get(ctx context.Context, key string) ([]byte, error)
	Delete(ctx context.Context, key string) error
}

// Closer takes item itemID offline at at, through the content platform's
// publication timer (core/app wires it to the editorial workflow).
type Closer func(ctx context.Context, itemID string, at time.Time) error

// Options configures a Service.
type Options struct {
	Notify   notifications.Sender
	Profiles *profiles.Service
	Files    Files
	Closer   Closer
	// SalaryFloor in R$ per month (0: DefaultSalaryFloor).
	SalaryFloor int
	Now         func() time.Time
	Log         *slog.Logger
}

// New returns a service on pool.
func New(pool *pgxpool.Pool, o Options) *Service {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.SalaryFloor <= 0 {
		o.SalaryFloor = DefaultSalaryFloor
	}
	return &Service{pool: pool, notify: o.Notify, profiles: o.Profiles, files: o.Files, closer: o.Closer, floor: o.SalaryFloor,
		now: o.Now, log: o.Log}
}

// SetCloser sets the closing timer once it exists.
func (s *Service) SetCloser(c Closer) { s.closer = c }

const jobColumns = `l.item_id::text, l.slug, l.title, l.summary, l.organization, l.city, l.state, l.workplace, l.contract, l.area,
	l.specialty, l.salary_min, l.salary_max, l.requirements, l.crmv_required, l.apply_kind, l.apply_value,
	to_char(l.closes_on, 'YYYY-MM-DD'), l.closes_at, l.featured, l.published, l.first_published_at, l.revision`

// readerColumns add the reader's flags ($1 is the reader's id, ” for none).
const readerColumns = `, EXISTS (SELECT 1 FROM saved_jobs s WHERE s.item_id = l.item_id AND s.user_id::text = $1),
	(SELECT a.id::text FROM job_applications a WHERE a.item_id = l.item_id AND a.user_id::text = $1),
	(SELECT a.status FROM job_applications a WHERE a.item_id = l.item_id AND a.user_id::text = $1)`

func (s *Service) scanJob(row pgx.Row, reader bool) (Job, error) {
	var j Job
	dest := []any{&j.ID, &j.Slug, &j.Title, &j.Summary, &j.Organization, &j.City, &j.State, &j.Workplace, &j.Contract, &j.Area,
		&j.Specialty, &j.SalaryMin, &j.SalaryMax, &j.Requirements, &j.CRMVRequired, &j.Apply.Kind, &j.Apply.Value,
		&j.ClosesOn, &j.ClosesAt, &j.Featured, &j.Published, &j.PublishedAt, &j.Revision}
	var appID, appStatus *string
	if reader {
		dest = append(dest, &j.Saved, &appID, &appStatus)
	}
	if err := row.Scan(dest...); err != nil {
		return j, err
	}
	if appID != nil && appStatus != nil {
		j.Application = &MyStatus{ID: *appID, Status: *appStatus}
	}
	top := j.SalaryMax
	if top == nil {
		top = j.SalaryMin
	}
	j.BelowFloor = top != nil && *top < s.floor
	return j, nil
}

// Filter narrows a list.
type Filter struct {
	Q           string `json:"q"`
	State       string `json:"state"`
	City        string `json:"city"`
	Area        string `json:"area"`
	Contract    string `json:"contract"`
	Workplace   string `json:"workplace"`
	SalaryGiven bool   `json:"salary_given"`
}

// Check refuses a value outside the lists, with the field it names.
func (f Filter) Check() error {
	bad := map[string]string{}
	if f.State != "" && !slices.Contains(States, f.State) {
		bad["state"] = MsgBadState
	}
	if f.Workplace != "" && !slices.Contains(Workplaces, f.Workplace) {
		bad["workplace"] = MsgBadWorkplace
	}
	if f.Contract != "" && !slices.Contains(Contracts, f.Contract) {
		bad["contract"] = MsgBadContract
	}
	if f.Area != "" && !slices.Contains(Areas, f.Area) {
		bad["area"] = MsgBadArea
	}
	if utf8.RuneCountInString(f.City) > 120 {
		bad["city"] = MsgCityTooLong
	}
	if search.TooLong(f.Q) {
		bad["q"] = search.MsgTooLong
	}
	for field, msg := range bad {
		return core.Invalid(msg, map[string]string{field: msg})
	}
	return nil
}

func (f Filter) empty() bool {
	return strings.TrimSpace(f.Q) == "" && f.State == "" && strings.TrimSpace(f.City) == "" && f.Area == "" && f.Contract == "" &&
		f.Workplace == "" && !f.SalaryGiven
}

// where is f as SQL over job_listings l, args appended to *args.
func (f Filter) where(args *[]any) string {
	arg := func(v any) string { *args = append(*args, v); return fmt.Sprintf("$%d", len(*args)) }
	cond := []string{}
	if f.State != "" {
		cond = append(cond, "l.state = "+arg(f.State))
	}
	if c := strings.TrimSpace(f.City); c != "" {
		cond = append(cond, "vetclube_fold(l.city) = vetclube_fold("+arg(c)+")")
	}
	if f.Area != "" {
		cond = append(cond, "l.area = "+arg(f.Area))
	}
	if f.Contract != "" {
		cond = append(cond, "l.contract = "+arg(f.Contract))
	}
	if f.Workplace != "" {
		cond = append(cond, "l.workplace = "+arg(f.Workplace))
	}
	if f.SalaryGiven {
		cond = append(cond, "(l.salary_min IS NOT NULL OR l.salary_max IS NOT NULL)")
	}
	if q := search.Parse(f.Q); q.Given() {
		cond = append(cond, q.SQL(arg, search.Target{Alias: "l", Table: "job_listings", Vector: "search", Title: "title",
			Scope: "published"}).Where)
	}
	if len(cond) == 0 {
		return "true"
	}
	return strings.Join(cond, " AND ")
}

// Page is one page of a list.
type Page struct {
	Jobs     []Job `json:"jobs"`
	Total    int   `json:"total"`
	Page     int   `json:"page"`
	PageSize int   `json:"page_size"`
}

// List returns page (from 1) of the open jobs f matches for readerID ("" for
// none): newest first, or closing soonest first; featured jobs lead.
func (s *Service) List(ctx context.Context, readerID string, f Filter, sort string, page int) (Page, error) {
	if err := f.Check(); err != nil {
		return Page{}, err
	}
	order := `l.featured DESC, l.first_published_at DESC, l.item_id`
	switch sort {
	case SortNewest, "":
	case SortClosing:
		order = `l.closes_at, l.featured DESC, l.item_id`
	default:
		return Page{}, core.Invalid(MsgBadSort, map[string]string{"sort": MsgBadSort})
	}
	if page < 1 || page > 10000 {
		return Page{}, core.Invalid(MsgBadPage, map[string]string{"page": MsgBadPage})
	}
	args := []any{readerID, s.now()}
	cond := `l.published AND l.closes_at > $2 AND ` + f.where(&args)
	var total int
	// The count shares the list's placeholders, the reader's id ($1) unused.
	if err := s.pool.QueryRow(ctx, `SELECT count(*) FROM job_listings l WHERE $1::text IS NOT NULL AND `+cond, args...).Scan(&total); err != nil {
		return Page{}, fmt.Errorf("count jobs: %w", err)
	}
	rows, err := s.pool.Query(ctx, `SELECT `+jobColumns+readerColumns+` FROM job_listings l WHERE `+cond+
		` ORDER BY `+order+fmt.Sprintf(` LIMIT %d OFFSET %d`, PageSize, (page-1)*PageSize), args...)
	if err != nil {
		return Page{}, fmt.Errorf("list jobs: %w", err)
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Job, error) {
		j, err := s.scanJob(r, true)
		j.Requirements = ""
		return j, err
	})
	if err != nil {
		return Page{}, fmt.Errorf("list jobs: %w", err)
	}
	if list == nil {
		list = []Job{}
	}
	return Page{Jobs: list, Total: total, Page: page, PageSize: PageSize}, nil
}

var uuidPattern = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

func validID(id string) bool { return uuidPattern.MatchString(id) }

// Get returns the published job idOrSlug for readerID. A job that went
// offline stays readable to someone who applied to it (their application
// names it); to anyone else it is not found.
func (s *Service) Get(ctx context.Context, idOrSlug, readerID string) (Job, error) {
	col := "l.slug"
	if validID(idOrSlug) {
		col = "l.item_id::text"
	}
	if idOrSlug == "" || len(idOrSlug) > 200 {
		return Job{}, core.Errorf(core.ENOTFOUND, "%s", MsgNotFound)
	}
	j, err := s.scanJob(s.pool.QueryRow(ctx, `SELECT `+jobColumns+readerColumns+` FROM job_listings l WHERE `+col+` = $2
		ORDER BY l.published DESC LIMIT 1`, readerID, idOrSlug), true)
	if errors.Is(err, pgx.ErrNoRows) || (err == nil && !j.Published && j.Application == nil) {
		return Job{}, core.Errorf(core.ENOTFOUND, "%s", MsgNotFound)
	}
	if err != nil {
		return Job{}, fmt.Errorf("get job: %w", err)
	}
	return j, nil
}

// Save keeps job idOrSlug among userID's saved jobs (saving twice is one).
func (s *Service) Save(ctx context.Context, userID, idOrSlug string) (Job, error) {
	j, err := s.Get(ctx, idOrSlug, userID)
	if err != nil {
		return Job{}, err
	}
	if !j.Published {
		return Job{}, core.Errorf(core.ENOTFOUND, "%s", MsgNotFound)
	}
	if _, err := s.pool.Exec(ctx, `INSERT INTO saved_jobs (user_id, item_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, userID, j.ID); err != nil {
		return Job{}, fmt.Errorf("save job: %w", err)
	}
	j.Saved = true
	return j, nil
}

// Unsave drops job idOrSlug from userID's saved jobs.
func (s *Service) Unsave(ctx context.Context, userID, idOrSlug string) (Job, error) {
	j, err := s.Get(ctx, idOrSlug, userID)
	if err != nil {
		return Job{}, err
	}
	if _, err := s.pool.Exec(ctx, `DELETE FROM saved_jobs WHERE user_id = $1 AND item_id = $2`, userID, j.ID); err != nil {
		return Job{}, fmt.Errorf("unsave job: %w", err)
	}
	j.Saved = false
	return j, nil
}

// Saved lists userID's saved jobs still published, closing soonest first.
func (s *Service) Saved(ctx context.Context, userID string) ([]Job, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+jobColumns+readerColumns+` FROM job_listings l
		JOIN saved_jobs sj ON sj.item_id = l.item_id AND sj.user_id::text = $1
		WHERE l.published ORDER BY l.closes_at, l.item_id LIMIT 200`, userID)
	if err != nil {
		return nil, fmt.Errorf("saved jobs: %w", err)
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Job, error) {
		j, err := s.scanJob(r, true)
		j.Requirements = ""
		return j, err
	})
	if err != nil {
		return nil, fmt.Errorf("saved jobs: %w", err)
	}
	if list == nil {
		list = []Job{}
	}
	return list, nil
}

// Link is a job's page in the PWA (the share link).
func Link(slug string) string { return "/oportunidades/" + slug }
