// Package moderation is reports and moderation of community posts and
// comments: any member reports a target with a reason (once per target);
// three distinct reporters since the last decision hide it pending review;
// a moderator (role moderador, or a super admin) hides, restores or removes
// it at once; every change is appended to a log and tells the author.
// Lists that show posts or comments leave hidden and removed ones out with
// VisibleSQL. See README.md.
package moderation

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/notifications"
	"github.com/vetclube/vetclube/core/postgres"
	"github.com/vetclube/vetclube/core/ratelimit"
)

// RoleModerator is the role that moderates (super_admin inherits it).
const RoleModerator = core.RoleModerador

// IsModerator says whether p may moderate: a moderator or a super admin.
func IsModerator(p core.Principal) bool {
	return p.Authenticated() && (p.HasRole(RoleModerator) || p.HasRole(core.RoleSuperAdmin))
}

// State is a target's moderation state.
type State string

const (
	StatePublished State = "publicado"
	StateHidden    State = "oculto"
	StateRemoved   State = "removido"
)

// Action is a moderator's decision.
type Action string

const (
	ActionHide    Action = "hide"
	ActionRestore Action = "restore"
	ActionRemove  Action = "remove"
)

// HideThreshold is the weight the reports made since the last decision must
// add up to, from at least as many distinct reporters, to hide a published
// target pending review. A report weighs at most 1 (ReportWeight).
const HideThreshold = 3

// Categories of a report; "outro" needs the free text.
var Categories = []string{"spam", "ofensivo", "desinformacao", "improprio", "outro"}

// DefaultReportRule caps the reports one member makes: enough for anyone
// who meets a few bad posts, too few to sweep the community.
var DefaultReportRule = ratelimit.Rule{Max: 10, Window: time.Hour}

// Reporter is what moderation weighs a reporter by, from their account.
type Reporter struct {
	CreatedAt time.Time
	Confirmed bool
}

// ReportWeight is how much one report counts towards hiding (0..1): an
// unconfirmed account or one less than a day old counts nothing (accounts
// made for the purpose), one less than a week old half; past accuracy then
// scales it, (upheld+1)/(upheld+rejected+1), where upheld and rejected are
// the reporter's earlier reports a moderator decided against or for the
// target.
func ReportWeight(r Reporter, now time.Time, upheld, rejected int) float64 {
	age := now.Sub(r.CreatedAt)
	w := 1.0
	switch {
	case !r.Confirmed || r.CreatedAt.IsZero() || age < 24*time.Hour:
		return 0
	case age < 7*24*time.Hour:
		w = 0.5
	}
	return w * float64(upheld+1) / float64(upheld+rejected+1)
}

// Limits of the texts people type.
const (
	MaxReason  = 1000
	maxExcerpt = 500
)

// pt-BR messages.
const (
	MsgReasonRequired  = "Informe o motivo da denúncia"
	MsgReasonTooLong   = "O motivo deve ter no máximo 1000 caracteres"
	MsgBadTargetType   = "Tipo de conteúdo inválido. Use post ou comment."
	MsgTargetNotFound  = "Conteúdo não encontrado."
	MsgBadAction       = "Ação inválida. Use hide, restore ou remove."
	MsgBadTransition   = "Esta ação não é possível: o conteúdo já foi removido."
	MsgReasonThreshold = "Ocultado automaticamente após denúncias de 3 pessoas."
	MsgBadCategory     = "Motivo de denúncia inválido."
	MsgReportRate      = "Você enviou muitas denúncias em pouco tempo. Tente novamente mais tarde."
)

// Target is what moderation records about a post or a comment when it first
// meets it: who wrote it, the post it belongs to and an excerpt for the queue.
type Target struct {
	AuthorID string
	ItemID   string
	Text     string
}

// Resolver finds a target (ENOTFOUND when it does not exist). core/app
// answers posts from the content platform and comments from engagement.
type Resolver func(ctx context.Context, targetType, targetID string) (Target, error)

// Options are the service's dependencies.
type Options struct {
	Resolve Resolver
	// Notify tells authors about decisions on their content (nil: nobody).
	Notify notifications.Sender
	// OnRemoved runs after a target is removed (and again when a removal is
	// repeated): comments are deleted there so the post's comment count
	// follows. nil: nothing.
	OnRemoved func(ctx context.Context, targetType, targetID string) error
	// Reporter tells the reporter's account age and whether its e-mail is
	// confirmed (nil: every report weighs nothing, so reports never hide
	// by themselves).
	Reporter func(ctx context.Context, userID string) (Reporter, error)
	// ReportRule caps each member's reports (DefaultReportRule).
	ReportRule ratelimit.Rule
	Now        func() time.Time
	Log        *slog.Logger
}

// Service records reports and decisions.
type Service struct {
	pool    *pgxpool.Pool
	opts    Options
	limiter *ratelimit.Limiter
}

// New returns the service on pool.
func New(pool *pgxpool.Pool, opts Options) *Service {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Log == nil {
		opts.Log = slog.Default()
	}
	if opts.ReportRule.Max <= 0 || opts.ReportRule.Window <= 0 {
		opts.ReportRule = DefaultReportRule
	}
	return &Service{pool: pool, opts: opts, limiter: ratelimit.New(pool, opts.Now)}
}

func targetNotFound() error { return core.Errorf(core.ENOTFOUND, MsgTargetNotFound) }

func checkTarget(targetType, targetID string) error {
	if targetType != TargetPost && targetType != TargetComment {
		return core.Invalid(MsgBadTargetType, map[string]string{"target_type": MsgBadTargetType})
	}
	if uuid.Validate(targetID) != nil {
		return targetNotFound()
	}
	return nil
}

// cleanCategory checks a report's category ("" for none); the free text is
// required without one and for "outro".
func cleanCategory(category string) (string, error) {
	category = strings.TrimSpace(category)
	if category == "" || slices.Contains(Categories, category) {
		return category, nil
	}
	return "", core.Invalid(MsgBadCategory, map[string]string{"category": MsgBadCategory})
}

func cleanReason(reason string, required bool) (string, error) {
	reason = strings.TrimSpace(reason)
	if reason == "" && required {
		return "", core.Invalid(MsgReasonRequired, map[string]string{"reason": MsgReasonRequired})
	}
	if utf8.RuneCountInString(reason) > MaxReason {
		return "", core.Invalid(MsgReasonTooLong, map[string]string{"reason": MsgReasonTooLong})
	}
	return reason, nil
}

func excerpt(text string) string {
	text = strings.Join(strings.Fields(text), " ")
	if utf8.RuneCountInString(text) <= maxExcerpt {
		return text
	}
	r := []rune(text)
	return string(r[:maxExcerpt-1]) + "…"
}

// resolve finds a target before any transaction opens (the resolver reads
// through the pool: asking it inside a transaction could leave every pooled
// connection waiting on the others). nil: the target no longer exists, which
// is fine only when moderation already has its row (a removed comment).
func (s *Service) resolve(ctx context.Context, targetType, targetID string) (*Target, error) {
	t, err := s.opts.Resolve(ctx, targetType, targetID)
	if core.ErrorCode(err) == core.ENOTFOUND {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &t, nil
}

// ensureRow creates the target's row the first time moderation meets it and
// locks it; it returns the state.
func (s *Service) ensureRow(ctx context.Context, tx pgx.Tx, targetType, targetID string, t *Target) (State, error) {
	if t != nil {
		var author, item any
		if t.AuthorID != "" {
			author = t.AuthorID
		}
		if t.ItemID != "" {
			item = t.ItemID
		}
		if _, err := tx.Exec(ctx, `INSERT INTO moderation_targets (target_type, target_id, author_id, item_id, excerpt, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $6) ON CONFLICT DO NOTHING`, targetType, targetID, author, item, excerpt(t.Text), s.opts.Now()); err != nil {
			return "", fmt.Errorf("moderation target: %w", err)
		}
	}
	var state State
	err := tx.QueryRow(ctx, `SELECT state FROM moderation_targets WHERE target_type = $1 AND target_id = $2 FOR UPDATE`,
		targetType, targetID).Scan(&state)
	if postgres.IsNoRows(err) {
		return "", targetNotFound()
	}
	return state, err
}

// change moves a locked target to state "to" and appends the log line; it
// returns the line's id.
func (s *Service) change(ctx context.Context, tx pgx.Tx, targetType, targetID string, from, to State, action Action, actorID, reason string) (int64, error) {
	now := s.opts.Now()
	// A moderator's restore is final for reports: from then on only a
	// moderator hides the target (auto_hide false).
	if _, err := tx.Exec(ctx, `UPDATE moderation_targets SET state = $3, open_reports = 0, open_weight = 0, updated_at = $4,
			auto_hide = auto_hide AND NOT ($5 AND $6)
		WHERE target_type = $1 AND target_id = $2`, targetType, targetID, to, now, action == ActionRestore, actorID != ""); err != nil {
		return 0, fmt.Errorf("moderation state: %w", err)
	}
	var actor any
	if actorID != "" {
		actor = actorID
	}
	var id int64
	err := tx.QueryRow(ctx, `INSERT INTO moderation_actions (target_type, target_id, action, from_state, to_state, actor_id, reason, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`, targetType, targetID, action, from, to, actor, reason, now).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("moderation log: %w", err)
	}
	return id, nil
}

// ReportResult is the answer to a report.
type ReportResult struct {
	// Hidden says the target is now out of view (hidden or removed).
	Hidden bool `json:"hidden"`
	// Created is false when this reporter had already reported the target.
	Created bool `json:"-"`
}

// Report records reporterID's report of a target, with a category ("" for
// none: then, and for "outro", the reason is required). A second report by
// the same member changes nothing. Reports are rate limited per member and
// weigh by reporter (ReportWeight); when the open reports of a published
// target weigh HideThreshold, from at least HideThreshold reporters, it is
// hidden and its author told, unless a moderator restored it before: then
// only a moderator hides it.
func (s *Service) Report(ctx context.Context, reporterID, targetType, targetID, category, reason string) (ReportResult, error) {
	if err := checkTarget(targetType, targetID); err != nil {
		return ReportResult{}, err
	}
	category, err := cleanCategory(category)
	if err != nil {
		return ReportResult{}, err
	}
	reason, err = cleanReason(reason, category == "" || category == "outro")
	if err != nil {
		return ReportResult{}, err
	}
	if uuid.Validate(reporterID) != nil {
		return ReportResult{}, fmt.Errorf("moderation: reporter id %q is not a uuid", reporterID)
	}
	t, err := s.resolve(ctx, targetType, targetID)
	if err != nil {
		return ReportResult{}, err
	}
	weight, err := s.weigh(ctx, reporterID)
	if err != nil {
		return ReportResult{}, err
	}
	var res ReportResult
	var hiddenBy int64
	err = postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		ok, err := s.limiter.AllowTx(ctx, tx, "report:"+reporterID, s.opts.ReportRule)
		if err != nil {
			return err
		}
		if !ok {
			return core.Errorf(core.ERATELIMITED, MsgReportRate)
		}
		state, err := s.ensureRow(ctx, tx, targetType, targetID, t)
		if err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `INSERT INTO moderation_reports (target_type, target_id, reporter_id, reason, category, weight, created_at)
			VALUES ($1, $2, $3, $4, nullif($5, ''), $6, $7) ON CONFLICT ON CONSTRAINT moderation_reports_once DO NOTHING`,
			targetType, targetID, reporterID, reason, category, weight, s.opts.Now())
		if err != nil {
			return fmt.Errorf("report: %w", err)
		}
		res.Created = tag.RowsAffected() == 1
		if res.Created {
			var open int
			var openWeight float64
			var autoHide bool
			err := tx.QueryRow(ctx, `UPDATE moderation_targets SET report_count = report_count + 1, open_reports = open_reports + 1,
					open_weight = open_weight + $3
				WHERE target_type = $1 AND target_id = $2 RETURNING open_reports, open_weight, auto_hide`,
				targetType, targetID, weight).Scan(&open, &openWeight, &autoHide)
			if err != nil {
				return fmt.Errorf("report count: %w", err)
			}
			// A small tolerance: weights are stored as real.
			if state == StatePublished && autoHide && open >= HideThreshold && openWeight >= HideThreshold-1e-3 {
				if hiddenBy, err = s.change(ctx, tx, targetType, targetID, state, StateHidden, ActionHide, "", MsgReasonThreshold); err != nil {
					return err
				}
				state = StateHidden
			}
		}
		res.Hidden = state != StatePublished
		return nil
	})
	if err != nil {
		return ReportResult{}, err
	}
	if hiddenBy != 0 {
		s.notifyAuthor(ctx, targetType, targetID, ActionHide, hiddenBy, "")
	}
	return res, nil
}

// weigh is ReportWeight for reporterID now, with their record: earlier
// reports whose target a moderator then hid or removed (upheld) or restored
// (rejected), by the moderator's latest decision.
func (s *Service) weigh(ctx context.Context, reporterID string) (float64, error) {
	if s.opts.Reporter == nil {
		return 0, nil
	}
	r, err := s.opts.Reporter(ctx, reporterID)
	if err != nil {
		return 0, fmt.Errorf("reporter: %w", err)
	}
	var upheld, rejected int
	err = s.pool.QueryRow(ctx, `SELECT count(*) FILTER (WHERE d.action IN ('hide', 'remove')), count(*) FILTER (WHERE d.action = 'restore')
		FROM moderation_reports r
		JOIN LATERAL (SELECT a.action FROM moderation_actions a
			WHERE a.target_type = r.target_type AND a.target_id = r.target_id AND a.actor_id IS NOT NULL AND a.created_at >= r.created_at
			ORDER BY a.id DESC LIMIT 1) d ON true
		WHERE r.reporter_id = $1`, reporterID).Scan(&upheld, &rejected)
	if err != nil {
		return 0, fmt.Errorf("reporter record: %w", err)
	}
	return ReportWeight(r, s.opts.Now(), upheld, rejected), nil
}

// Act applies a moderator's decision and returns the target's row. Asking
// for the state a target is already in changes nothing (a retried request
// is harmless); a removed target stays removed.
func (s *Service) Act(ctx context.Context, actorID, targetType, targetID string, action Action, reason string) (Row, error) {
	if err := checkTarget(targetType, targetID); err != nil {
		return Row{}, err
	}
	var to State
	switch action {
	case ActionHide:
		to = StateHidden
	case ActionRestore:
		to = StatePublished
	case ActionRemove:
		to = StateRemoved
	default:
		return Row{}, core.Invalid(MsgBadAction, map[string]string{"action": MsgBadAction})
	}
	reason, err := cleanReason(reason, false)
	if err != nil {
		return Row{}, err
	}
	t, err := s.resolve(ctx, targetType, targetID)
	if err != nil {
		return Row{}, err
	}
	var logID int64
	err = postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		from, err := s.ensureRow(ctx, tx, targetType, targetID, t)
		if err != nil {
			return err
		}
		if from == to {
			return nil
		}
		if from == StateRemoved {
			return core.Errorf(core.ECONFLICT, MsgBadTransition)
		}
		logID, err = s.change(ctx, tx, targetType, targetID, from, to, action, actorID, reason)
		return err
	})
	if err != nil {
		return Row{}, err
	}
	if logID != 0 {
		s.notifyAuthor(ctx, targetType, targetID, action, logID, reason)
	}
	if to == StateRemoved && s.opts.OnRemoved != nil {
		if err := s.opts.OnRemoved(ctx, targetType, targetID); err != nil && core.ErrorCode(err) != core.ENOTFOUND {
			return Row{}, fmt.Errorf("remove %s %s: %w", targetType, targetID, err)
		}
	}
	return s.Row(ctx, targetType, targetID)
}

// notifyAuthor tells the target's author about a decision, once per log line.
func (s *Service) notifyAuthor(ctx context.Context, targetType, targetID string, action Action, logID int64, reason string) {
	if s.opts.Notify == nil {
		return
	}
	var author, item string
	err := s.pool.QueryRow(ctx, `SELECT coalesce(author_id::text, ''), coalesce(item_id::text, '') FROM moderation_targets
		WHERE target_type = $1 AND target_id = $2`, targetType, targetID).Scan(&author, &item)
	if err != nil || author == "" {
		if err != nil {
			s.opts.Log.WarnContext(ctx, "moderation notice", "target", targetType+":"+targetID, "err", err)
		}
		return
	}
	what, done := "Sua publicação foi", map[Action]string{ActionHide: "ocultada", ActionRestore: "restaurada", ActionRemove: "removida"}[action]
	if targetType == TargetComment {
		what = "Seu comentário foi"
		done = map[Action]string{ActionHide: "ocultado", ActionRestore: "restaurado", ActionRemove: "removido"}[action]
	}
	title := map[Action]string{ActionHide: "Conteúdo ocultado", ActionRestore: "Conteúdo restaurado", ActionRemove: "Conteúdo removido"}[action]
	msg := what + " " + done
	switch action {
	case ActionHide:
		msg += " e está em análise pela moderação."
	case ActionRestore:
		msg += " após análise da moderação."
	case ActionRemove:
		msg += " por não seguir as regras da comunidade."
	}
	if reason != "" && reason != MsgReasonThreshold {
		msg += " Motivo: " + reason
	}
	n := notifications.Notice{
		UserID:         author,
		Type:           "other",
		Title:          title,
		Message:        msg,
		IdempotencyKey: fmt.Sprintf("moderation:%d", logID),
	}
	if item != "" {
		n.RelatedPostID = item
		if action != ActionRemove || targetType == TargetComment {
			n.Link = "/community?post=" + item
		}
	}
	if targetType == TargetComment {
		n.RelatedCommentID = targetID
	}
	if _, err := s.opts.Notify.Send(ctx, n); err != nil {
		s.opts.Log.WarnContext(ctx, "moderation notice", "target", targetType+":"+targetID, "err", err)
	}
}

// ParseRowID splits a queue row id ("comment:<uuid>").
func ParseRowID(id string) (targetType, targetID string, err error) {
	t, i, ok := strings.Cut(id, ":")
	if !ok {
		return "", "", targetNotFound()
	}
	if err := checkTarget(t, i); err != nil {
		var e *core.Error
		if errors.As(err, &e) && e.Code == core.EINVALID {
			return "", "", targetNotFound()
		}
		return "", "", err
	}
	return t, i, nil
}
