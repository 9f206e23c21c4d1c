package editorial

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/google/uuid"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/core/httpx"
)

// HTTP serves the backoffice's content API under /api/admin (the
// ra-data-simple-rest shape: arrays plus Content-Range). The route policy lets
// editors, revisors and super admins in; which workflow action each may take
// is Decide's answer on the principal's roles.
type HTTP struct {
	Store    *content.Store
	Workflow *Workflow
	Audit    *Audit
	Reviews  *Reviews
	Previews *content.Previews
	Log      *slog.Logger
	// Now is the clock of the agenda's overdue list (time.Now when nil).
	Now func() time.Time
	// IsStaff says whether a user holds an editorial role: only they may be
	// made co-editors (nil refuses every share).
	IsStaff func(ctx context.Context, userID string) (bool, error)
}

// LockHeader carries the edit lock token of the backoffice editor on saves
// and actions; a save under a lock someone took over is refused with 409.
const LockHeader = "X-Lock-Token"

// OverdueAfter is how late a scheduled publication must be to be listed as
// overdue on the dashboard.
const OverdueAfter = 2 * time.Minute

// Messages users read.
const (
	MsgUnknownAction = "Ação desconhecida."
	MsgBadRevision   = "Informe um número de revisão válido."
	MsgBadTime       = "Informe data e hora no formato ISO 8601 (por exemplo 2026-05-01T09:00:00-03:00)."
)

func (h HTTP) now() time.Time {
	if h.Now != nil {
		return h.Now()
	}
	return time.Now()
}

func (h HTTP) handle(fn httpx.HandlerFunc) http.Handler {
	return httpx.Handle(h.Log, func(w http.ResponseWriter, r *http.Request) error {
		w.Header().Set("Cache-Control", "no-store")
		return fn(w, r)
	})
}

// MsgMembersWrite refuses a backoffice write to a type whose items members
// write through the feature's own API (community posts).
const MsgMembersWrite = "Este conteúdo é escrito pelos membros e não pode ser alterado pelo painel. Para ocultar ou remover, use a moderação."

// write is handle for the routes that change items: a type members write
// through its own API (Registry.WriteOwnAPI) is refused before anything
// else, so a member's post is never rewritten, moved through the workflow
// or created under the community's limits from the backoffice; moderation
// acts on it through core/moderation, with its record and notice.
func (h HTTP) write(fn httpx.HandlerFunc) http.Handler {
	return h.handle(func(w http.ResponseWriter, r *http.Request) error {
		if h.Store.Types().WriteOwnAPI(chi.URLParam(r, "type")) {
			return core.Errorf(core.EFORBIDDEN, MsgMembersWrite)
		}
		return fn(w, r)
	})
}

// actor is the signed-in backoffice user writing through the backoffice.
func actor(r *http.Request) content.Actor {
	ip := r.RemoteAddr
	if host, _, err := net.SplitHostPort(ip); err == nil {
		ip = host
	}
	return content.Actor{UserID: core.PrincipalFrom(r.Context()).UserID, Channel: content.ChannelBackoffice, IP: ip,
		LockToken: strings.TrimSpace(r.Header.Get(LockHeader))}
}

func roles(r *http.Request) []Role { return RolesFrom(core.PrincipalFrom(r.Context()).Roles) }

func (h HTTP) typeParam(r *http.Request) (*content.Type, error) {
	t, ok := h.Store.Types().Get(chi.URLParam(r, "type"))
	if !ok {
		return nil, core.Errorf(core.ENOTFOUND, content.MsgTypeNotFound)
	}
	return t, nil
}

// item returns the working copy named by {type} and {id}; an item of
// another type is not found.
func (h HTTP) item(r *http.Request) (content.Item, error) {
	t, err := h.typeParam(r)
	if err != nil {
		return content.Item{}, err
	}
	it, err := h.Store.Get(r.Context(), chi.URLParam(r, "id"))
	if err != nil {
		return content.Item{}, err
	}
	if it.Type != t.ID {
		return content.Item{}, core.Errorf(core.ENOTFOUND, content.MsgItemNotFound)
	}
	// An editor reaches only the items they wrote or that were shared with
	// them; others' items do not exist for them.
	if p := core.PrincipalFrom(r.Context()); seesOwnOnly(roles(r)) {
		ok, err := h.Store.EditorMaySee(r.Context(), it, p.UserID)
		if err != nil {
			return content.Item{}, err
		}
		if !ok {
			return content.Item{}, core.Errorf(core.ENOTFOUND, content.MsgItemNotFound)
		}
	}
	return it, nil
}

// seesOwnOnly reports whether the caller is only an editor: revisors and
// super admins see every item.
func seesOwnOnly(rs []Role) bool {
	return !slices.Contains(rs, RoleRevisor) && !slices.Contains(rs, RoleSuperAdmin)
}

// SeesOwnItemsOnly reports whether a staff member with these role names sees
// only own and shared items (an editor; revisors and super admins see all).
func SeesOwnItemsOnly(roleNames []string) bool { return seesOwnOnly(RolesFrom(roleNames)) }

func contentRange(w http.ResponseWriter, name string, offset, n int, total int64) {
	end := offset + n - 1
	if n == 0 {
		end = offset
	}
	w.Header().Set("Content-Range", fmt.Sprintf("%s %d-%d/%d", name, offset, end, total))
	w.Header().Set("Access-Control-Expose-Headers", "Content-Range")
}

// AdminItem is a working copy with the actions the caller may take on it.
type AdminItem struct {
	content.Item
	StatusLabel string        `json:"status_label"`
	Actions     []ActionLabel `json:"actions"`
}

// ActionLabel is a workflow button the caller may press.
type ActionLabel struct {
	Action Action `json:"action"`
	Label  string `json:"label"`
}

func adminItem(it content.Item, rs []Role) AdminItem {
	out := AdminItem{Item: it, StatusLabel: it.Status.Label(), Actions: []ActionLabel{}}
	for _, a := range Available(Item{Status: it.Status, Published: it.Published}, rs) {
		out.Actions = append(out.Actions, ActionLabel{Action: a, Label: a.Label()})
	}
	return out
}

// Types serves GET /api/admin/content/types: every registered type's
// declaration, from which the backoffice generates its resources.
func (h HTTP) Types() http.Handler {
	return h.handle(func(w http.ResponseWriter, r *http.Request) error {
		return httpx.Encode(w, http.StatusOK, h.Store.Types().Types())
	})
}

type adminFilter struct {
	Q        string   `json:"q"`
	Status   []string `json:"status"`
	AuthorID string   `json:"author_id"`
}

// List serves GET /api/admin/content/{type}: range, sort and filter
// ({"q","status":[…],"author_id"}) in react-admin's parameters.
func (h HTTP) List() http.Handler {
	return h.handle(func(w http.ResponseWriter, r *http.Request) error {
		t, err := h.typeParam(r)
		if err != nil {
			return err
		}
		var f adminFilter
		lq, err := httpx.ParseList(r, httpx.ListParams{MaxLimit: content.MaxPageSize,
			SortFields: []string{"title", "updated_at", "created_at", "status"}}, &f)
		if err != nil {
			return err
		}
		q := content.AdminQuery{Type: t.ID, Search: strings.TrimSpace(f.Q), Limit: lq.Limit, Offset: lq.Offset}
		if lq.SortField != "" {
			q.Sort = lq.SortField
			if lq.Descending {
				q.Sort = "-" + q.Sort
			}
		}
		for _, s := range f.Status {
			if !slices.Contains(content.Statuses, content.Status(s)) {
				return core.Invalid("Parâmetros de consulta inválidos.", map[string]string{"filter": "Estado desconhecido: " + s})
			}
			q.Statuses = append(q.Statuses, content.Status(s))
		}
		if f.AuthorID != "" {
			if uuid.Validate(f.AuthorID) != nil {
				return core.Invalid("Parâmetros de consulta inválidos.", map[string]string{"filter": "Autor inválido."})
			}
			q.AuthorID = f.AuthorID
		}
		if seesOwnOnly(roles(r)) {
			q.VisibleTo = core.PrincipalFrom(r.Context()).UserID
		}
		items, total, err := h.Store.AdminList(r.Context(), q)
		if err != nil {
			return err
		}
		rs := roles(r)
		out := make([]AdminItem, 0, len(items))
		for _, it := range items {
			out = append(out, adminItem(it, rs))
		}
		contentRange(w, t.ID, lq.Offset, len(out), total)
		return httpx.Encode(w, http.StatusOK, out)
	})
}

// Get serves GET /api/admin/content/{type}/{id}: the working copy.
func (h HTTP) Get() http.Handler {
	return h.handle(func(w http.ResponseWriter, r *http.Request) error {
		it, err := h.item(r)
		if err != nil {
			return err
		}
		out := itemPage{AdminItem: adminItem(it, roles(r))}
		if it.Status == content.StatusChangesRequested && h.Reviews != nil {
			if out.ChangeRequest, err = h.Reviews.OpenChangeRequest(r.Context(), it.ID); err != nil {
				return err
			}
		}
		return httpx.Encode(w, http.StatusOK, out)
	})
}

// itemPage is an item as its backoffice page shows it: with the open
// request for changes (null unless alteracoes_solicitadas).
type itemPage struct {
	AdminItem
	ChangeRequest *ChangeRequest `json:"change_request"`
}

// Queue serves GET /api/admin/queue: the caller's work queues.
func (h HTTP) Queue() http.Handler {
	return h.handle(func(w http.ResponseWriter, r *http.Request) error {
		rs := roles(r)
		reviewer := slices.Contains(rs, RoleRevisor) || slices.Contains(rs, RoleSuperAdmin)
		q, err := h.Reviews.Queue(r.Context(), actor(r).UserID, reviewer)
		if err != nil {
			return err
		}
		w.Header().Set("Cache-Control", "no-store")
		return httpx.Encode(w, http.StatusOK, q)
	})
}

// IdempotencyHeader lets a create be retried without creating twice.
const IdempotencyHeader = "Idempotency-Key"

// Create serves POST /api/admin/content/{type}: a new rascunho.
func (h HTTP) Create() http.Handler {
	return h.write(func(w http.ResponseWriter, r *http.Request) error {
		t, err := h.typeParam(r)
		if err != nil {
			return err
		}
		in, err := httpx.Decode[content.Input](r)
		if err != nil {
			return err
		}
		key := strings.TrimSpace(r.Header.Get(IdempotencyHeader))
		if len(key) > 200 || httpx.TextProblem(key) != "" {
			return core.Invalid("Chave de idempotência inválida.", map[string]string{"idempotency_key": "Use até 200 caracteres visíveis."})
		}
		it, created, err := h.Store.Create(r.Context(), actor(r), t.ID, in, key)
		if err != nil {
			return err
		}
		status := http.StatusOK
		if created {
			status = http.StatusCreated
		}
		return httpx.Encode(w, status, adminItem(it, roles(r)))
	})
}

type updateBody struct {
	content.Input
	Version int `json:"version"`
}

// Update serves PUT /api/admin/content/{type}/{id} with the version the
// editor opened: 409 when someone saved since.
func (h HTTP) Update() http.Handler {
	return h.write(func(w http.ResponseWriter, r *http.Request) error {
		it, err := h.item(r)
		if err != nil {
			return err
		}
		body, err := httpx.Decode[updateBody](r)
		if err != nil {
			return err
		}
		next, err := h.Store.Update(r.Context(), actor(r), it.ID, body.Version, body.Input)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, adminItem(next, roles(r)))
	})
}

type actionBody struct {
	Version   int        `json:"version"`
	Reason    string     `json:"reason"`
	PublishAt *time.Time `json:"publish_at"`
}

// Act serves POST /api/admin/content/{type}/{id}/actions/{action}; schedule
// needs publish_at, request_changes a reason.
func (h HTTP) Act() http.Handler {
	return h.write(func(w http.ResponseWriter, r *http.Request) error {
		it, err := h.item(r)
		if err != nil {
			return err
		}
		action := Action(chi.URLParam(r, "action"))
		if !slices.Contains(Actions, action) {
			return core.Errorf(core.ENOTFOUND, MsgUnknownAction)
		}
		body, err := httpx.Decode[actionBody](r)
		if err != nil {
			return err
		}
		// The version the caller saw is required: without it the
		// staleness check cannot run, and an action could apply to a
		// working copy someone changed since.
		if body.Version <= 0 {
			return core.Invalid(content.MsgVersionRequired, map[string]string{"version": content.MsgVersionRequired})
		}
		var next content.Item
		if action == ActionSchedule {
			if body.PublishAt == nil {
				return core.Invalid(MsgScheduleInPast, map[string]string{"publish_at": MsgScheduleInPast})
			}
			next, err = h.Workflow.Schedule(r.Context(), actor(r), roles(r), it.ID, body.Version, *body.PublishAt)
		} else {
			next, err = h.Workflow.Act(r.Context(), actor(r), roles(r), it.ID, body.Version, action, body.Reason)
		}
		if err != nil {
			return err
		}
		// Sent for review, the item is the reviewer's to open: the sender's
		// edit lock goes with the sending.
		if action == ActionSubmit && actor(r).LockToken != "" {
			if err := h.Store.ReleaseLock(r.Context(), it.ID, actor(r).LockToken); err != nil {
				h.Log.Warn("editorial: lock not released on submit", "item", it.ID, "err", err)
			}
		}
		return httpx.Encode(w, http.StatusOK, adminItem(next, roles(r)))
	})
}

// Revisions serves GET …/revisions, newest first (before= pages back).
func (h HTTP) Revisions() http.Handler {
	return h.handle(func(w http.ResponseWriter, r *http.Request) error {
		it, err := h.item(r)
		if err != nil {
			return err
		}
		before, err := intParam(r.URL.Query().Get("before"), "before", true)
		if err != nil {
			return err
		}
		revs, err := h.Store.Revisions(r.Context(), it.ID, before, content.MaxPageSize)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, revs)
	})
}

func intParam(raw, name string, optional bool) (int, error) {
	if raw == "" && optional {
		return 0, nil
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < 1 || n > 1<<30 {
		return 0, core.Invalid(MsgBadRevision, map[string]string{name: MsgBadRevision})
	}
	return n, nil
}

// Diff serves GET …/revisions/diff?from=&to=: field-by-field changes.
func (h HTTP) Diff() http.Handler {
	return h.handle(func(w http.ResponseWriter, r *http.Request) error {
		it, err := h.item(r)
		if err != nil {
			return err
		}
		from, err := intParam(r.URL.Query().Get("from"), "from", false)
		if err != nil {
			return err
		}
		to, err := intParam(r.URL.Query().Get("to"), "to", false)
		if err != nil {
			return err
		}
		changes, err := h.Store.Diff(r.Context(), it.ID, from, to)
		if err != nil {
			return err
		}
		if changes == nil {
			changes = []content.Change{}
		}
		return httpx.Encode(w, http.StatusOK, changes)
	})
}

// Restore serves POST …/revisions/{rev}/restore {"version"}: the revision
// becomes a new revision of the working copy.
func (h HTTP) Restore() http.Handler {
	return h.write(func(w http.ResponseWriter, r *http.Request) error {
		it, err := h.item(r)
		if err != nil {
			return err
		}
		rev, err := intParam(chi.URLParam(r, "rev"), "rev", false)
		if err != nil {
			return core.Errorf(core.ENOTFOUND, MsgBadRevision)
		}
		body, err := httpx.Decode[struct {
			Version int `json:"version"`
		}](r)
		if err != nil {
			return err
		}
		next, err := h.Store.RestoreRevision(r.Context(), actor(r), it.ID, body.Version, rev)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, adminItem(next, roles(r)))
	})
}

// Timeline serves GET …/timeline: the item's audit events, newest first.
func (h HTTP) Timeline() http.Handler {
	return h.handle(func(w http.ResponseWriter, r *http.Request) error {
		it, err := h.item(r)
		if err != nil {
			return err
		}
		lq, err := httpx.ParseList(r, httpx.ListParams{MaxLimit: content.MaxPageSize}, nil)
		if err != nil {
			return err
		}
		events, total, err := h.Audit.Timeline(r.Context(), it.ID, lq.Limit, lq.Offset)
		if err != nil {
			return err
		}
		hideIPs(events, roles(r))
		contentRange(w, "events", lq.Offset, len(events), total)
		return httpx.Encode(w, http.StatusOK, events)
	})
}

type auditFilter struct {
	ItemID   string     `json:"item_id"`
	ItemType string     `json:"item_type"`
	ActorID  string     `json:"actor_id"`
	Action   string     `json:"action"`
	Since    *time.Time `json:"since"`
	Until    *time.Time `json:"until"`
}

// AuditList serves GET /api/admin/audit: every audit event, filtered. The
// log is append-only: no route changes or deletes an event.
func (h HTTP) AuditList() http.Handler {
	return h.handle(func(w http.ResponseWriter, r *http.Request) error {
		var f auditFilter
		lq, err := httpx.ParseList(r, httpx.ListParams{MaxLimit: content.MaxPageSize, SortFields: []string{"created_at", "id"}}, &f)
		if err != nil {
			return err
		}
		for name, id := range map[string]string{"item_id": f.ItemID, "actor_id": f.ActorID} {
			if id != "" && uuid.Validate(id) != nil {
				return core.Invalid("Parâmetros de consulta inválidos.", map[string]string{"filter": name + ": identificador inválido."})
			}
		}
		q := AuditQuery{ItemID: f.ItemID, ItemType: f.ItemType, ActorID: f.ActorID, Action: f.Action, Limit: lq.Limit, Offset: lq.Offset,
			Ascending: lq.SortField != "" && !lq.Descending}
		if f.Since != nil {
			q.Since = *f.Since
		}
		if f.Until != nil {
			q.Until = *f.Until
		}
		if seesOwnOnly(roles(r)) {
			q.VisibleTo = core.PrincipalFrom(r.Context()).UserID
		}
		events, total, err := h.Audit.List(r.Context(), q)
		if err != nil {
			return err
		}
		hideIPs(events, roles(r))
		contentRange(w, "events", lq.Offset, len(events), total)
		return httpx.Encode(w, http.StatusOK, events)
	})
}

// hideIPs blanks the staff IPs of events for anyone but a super admin: an
// IP locates a colleague, and only the person answerable for the platform's
// security needs it.
func hideIPs(events []Event, rs []Role) {
	if slices.Contains(rs, RoleSuperAdmin) {
		return
	}
	for i := range events {
		events[i].IP = ""
	}
}

// LockAction is one of the lock routes' verbs.
type LockAction int

const (
	LockAcquire LockAction = iota
	LockHeartbeat
	LockTakeOver
	LockRelease
)

// Lock serves the edit lock routes: POST …/lock (acquire, or see who holds
// it), POST …/lock/heartbeat and DELETE …/lock with the token in
// X-Lock-Token, POST …/lock/takeover.
func (h HTTP) Lock(what LockAction) http.Handler {
	return h.write(func(w http.ResponseWriter, r *http.Request) error {
		it, err := h.item(r)
		if err != nil {
			return err
		}
		user := core.PrincipalFrom(r.Context()).UserID
		token := strings.TrimSpace(r.Header.Get(LockHeader))
		var l content.Lock
		switch what {
		case LockAcquire:
			l, err = h.Store.AcquireLock(r.Context(), it.ID, user)
		case LockTakeOver:
			l, err = h.Store.TakeOverLock(r.Context(), it.ID, user)
		case LockHeartbeat:
			l, err = h.Store.HeartbeatLock(r.Context(), it.ID, token)
		case LockRelease:
			if err := h.Store.ReleaseLock(r.Context(), it.ID, token); err != nil {
				return err
			}
			w.WriteHeader(http.StatusNoContent)
			return nil
		}
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, l)
	})
}

// Preview serves POST …/preview: a signed link to the working copy, valid
// for content.PreviewTTL.
func (h HTTP) Preview() http.Handler {
	return h.handle(func(w http.ResponseWriter, r *http.Request) error {
		it, err := h.item(r)
		if err != nil {
			return err
		}
		token, expires := h.Previews.Sign(it.ID)
		return httpx.Encode(w, http.StatusOK, map[string]any{
			"token": token, "url": "/api/preview/" + token, "expires_at": expires.UTC(),
		})
	})
}

func timeParam(r *http.Request, name string) (time.Time, error) {
	raw := r.URL.Query().Get(name)
	if raw == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.RFC3339, raw)
	if err != nil || t.Year() < 1 || t.Year() > 9999 {
		return time.Time{}, core.Invalid(MsgBadTime, map[string]string{name: MsgBadTime})
	}
	return t, nil
}

// agendaSpan is how far ahead the agenda looks without a to=.
const agendaSpan = 31 * 24 * time.Hour

// Agenda serves GET /api/admin/agenda?from=&to=: scheduled publications and
// unpublications in [from, to), and the overdue ones (more than
// OverdueAfter late, whatever the range).
func (h HTTP) Agenda() http.Handler {
	return h.handle(func(w http.ResponseWriter, r *http.Request) error {
		from, err := timeParam(r, "from")
		if err != nil {
			return err
		}
		to, err := timeParam(r, "to")
		if err != nil {
			return err
		}
		now := h.now()
		if from.IsZero() {
			from = now.Add(-24 * time.Hour)
		}
		if to.IsZero() {
			to = from.Add(agendaSpan)
		}
		if !to.After(from) {
			return core.Invalid(MsgBadTime, map[string]string{"to": "O fim deve ser depois do início."})
		}
		// An editor's agenda holds only the items they may open (their own
		// and those shared with them), as their lists do.
		visibleTo := ""
		if seesOwnOnly(roles(r)) {
			visibleTo = core.PrincipalFrom(r.Context()).UserID
		}
		publish, err := h.Store.ScheduledVisibleTo(r.Context(), false, from, to, visibleTo)
		if err != nil {
			return err
		}
		unpublish, err := h.Store.ScheduledVisibleTo(r.Context(), true, from, to, visibleTo)
		if err != nil {
			return err
		}
		overdue, err := h.Store.ScheduledVisibleTo(r.Context(), false, time.Time{}, now.Add(-OverdueAfter), visibleTo)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, map[string]any{
			"publish": publish, "unpublish": unpublish, "overdue": overdue,
		})
	})
}

// AssignReviewer serves PUT …/reviewer {"reviewer_id"}: the revisor (or
// super admin) in charge of the item, told on submit and publish.
func (h HTTP) AssignReviewer() http.Handler {
	return h.write(func(w http.ResponseWriter, r *http.Request) error {
		it, err := h.item(r)
		if err != nil {
			return err
		}
		body, err := httpx.Decode[struct {
			ReviewerID string `json:"reviewer_id"`
		}](r)
		if err != nil {
			return err
		}
		as, err := h.Reviews.Assign(r.Context(), actor(r), roles(r), it.ID, strings.TrimSpace(body.ReviewerID))
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, as)
	})
}

// Reviewer serves GET …/reviewer: {"reviewer_id"} of the item's assigned
// reviewer ("" when none).
func (h HTTP) Reviewer() http.Handler {
	return h.handle(func(w http.ResponseWriter, r *http.Request) error {
		it, err := h.item(r)
		if err != nil {
			return err
		}
		id, err := h.Reviews.Assignee(r.Context(), it.ID)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, map[string]string{"reviewer_id": id})
	})
}

// Comments serves GET …/comments (revision= narrows to one revision).
func (h HTTP) Comments() http.Handler {
	return h.handle(func(w http.ResponseWriter, r *http.Request) error {
		it, err := h.item(r)
		if err != nil {
			return err
		}
		rev, err := intParam(r.URL.Query().Get("revision"), "revision", true)
		if err != nil {
			return err
		}
		comments, err := h.Reviews.Comments(r.Context(), it.ID, rev)
		if err != nil {
			return err
		}
		if comments == nil {
			comments = []Comment{}
		}
		return httpx.Encode(w, http.StatusOK, comments)
	})
}

// AddComment serves POST …/comments {"body"}: a review comment on the
// item's current revision.
func (h HTTP) AddComment() http.Handler {
	return h.write(func(w http.ResponseWriter, r *http.Request) error {
		it, err := h.item(r)
		if err != nil {
			return err
		}
		body, err := httpx.Decode[struct {
			Body string `json:"body"`
		}](r)
		if err != nil {
			return err
		}
		c, err := h.Reviews.AddComment(r.Context(), actor(r), roles(r), it.ID, body.Body)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusCreated, c)
	})
}

// SetUnpublishAt serves PUT …/unpublish_at {"version","unpublish_at"}: the
// moment a published or scheduled item goes offline; null cancels it.
func (h HTTP) SetUnpublishAt() http.Handler {
	return h.write(func(w http.ResponseWriter, r *http.Request) error {
		it, err := h.item(r)
		if err != nil {
			return err
		}
		body, err := httpx.Decode[struct {
			Version     int        `json:"version"`
			UnpublishAt *time.Time `json:"unpublish_at"`
		}](r)
		if err != nil {
			return err
		}
		if body.Version <= 0 {
			return core.Invalid(content.MsgVersionRequired, map[string]string{"version": content.MsgVersionRequired})
		}
		next, err := h.Workflow.ScheduleUnpublish(r.Context(), actor(r), roles(r), it.ID, body.Version, body.UnpublishAt)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, adminItem(next, roles(r)))
	})
}

// MsgShareNotAllowed refuses sharing by a co-editor: only the author, a
// revisor or a super admin decides who else edits an item.
const MsgShareNotAllowed = "Só a autoria, a revisão ou a administração podem compartilhar este conteúdo."

// MsgShareNotStaff refuses a co-editor outside the editorial team.
const MsgShareNotStaff = "Só é possível compartilhar com pessoas da equipe editorial."

// Editors serves GET …/{id}/editors: the co-editors the item is shared with.
func (h HTTP) Editors() http.Handler {
	return h.handle(func(w http.ResponseWriter, r *http.Request) error {
		it, err := h.item(r)
		if err != nil {
			return err
		}
		list, err := h.Store.SharedWith(r.Context(), it.ID)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, list)
	})
}

// Share serves PUT (add) and DELETE (remove) …/{id}/editors/{userId}; both
// are idempotent and answer the co-editors after the change.
func (h HTTP) Share(add bool) http.Handler {
	return h.write(func(w http.ResponseWriter, r *http.Request) error {
		it, err := h.item(r)
		if err != nil {
			return err
		}
		if seesOwnOnly(roles(r)) && it.AuthorID != core.PrincipalFrom(r.Context()).UserID {
			return core.Errorf(core.EFORBIDDEN, MsgShareNotAllowed)
		}
		userID := chi.URLParam(r, "userId")
		if add {
			// Only the editorial team may co-edit: sharing with a member
			// would hand a working copy to someone outside the team. A
			// member's id gets the same answer as an unknown one.
			staff := false
			if h.IsStaff != nil {
				if staff, err = h.IsStaff(r.Context(), userID); err != nil {
					return err
				}
			}
			if !staff {
				return core.Errorf(core.ENOTFOUND, MsgShareNotStaff)
			}
			err = h.Store.Share(r.Context(), actor(r), it.ID, userID)
		} else {
			err = h.Store.Unshare(r.Context(), actor(r), it.ID, userID)
		}
		if err != nil {
			return err
		}
		list, err := h.Store.SharedWith(r.Context(), it.ID)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, list)
	})
}

// MaxBulk bounds one bulk request.
const MaxBulk = 100

// Messages of bulk actions.
const (
	MsgBulkEmpty    = "Selecione ao menos um conteúdo."
	MsgBulkTooMany  = "Selecione no máximo 100 conteúdos por vez."
	MsgBulkNoAction = "Esta ação não pode ser feita em lote."
)

// bulkActions are the workflow moves a list may apply to several items at
// once; each item still passes the same gate as one by one (publishing
// requires the approved state).
var bulkActions = []Action{ActionPublish, ActionUnpublish, ActionArchive, ActionApprove, ActionSubmit}

type bulkBody struct {
	Items []struct {
		ID      string `json:"id"`
		Version int    `json:"version"`
	} `json:"items"`
}

// BulkResult is one item's outcome in a bulk action.
type BulkResult struct {
	ID     string         `json:"id"`
	OK     bool           `json:"ok"`
	Status content.Status `json:"status,omitempty"`
	// Error is the pt-BR reason the item was left as it was.
	Error string `json:"error,omitempty"`
}

// Bulk serves POST /api/admin/content/{type}/bulk/{action} with
// {"items":[{"id","version"}]}: each item is moved on its own (one refusal
// does not undo the others) and the answer lists every outcome.
func (h HTTP) Bulk() http.Handler {
	return h.write(func(w http.ResponseWriter, r *http.Request) error {
		t, err := h.typeParam(r)
		if err != nil {
			return err
		}
		action := Action(chi.URLParam(r, "action"))
		if !slices.Contains(bulkActions, action) {
			return core.Errorf(core.ENOTFOUND, MsgBulkNoAction)
		}
		body, err := httpx.Decode[bulkBody](r)
		if err != nil {
			return err
		}
		switch {
		case len(body.Items) == 0:
			return core.Invalid(MsgBulkEmpty, map[string]string{"items": MsgBulkEmpty})
		case len(body.Items) > MaxBulk:
			return core.Invalid(MsgBulkTooMany, map[string]string{"items": MsgBulkTooMany})
		}
		out := make([]BulkResult, 0, len(body.Items))
		for _, ref := range body.Items {
			res := BulkResult{ID: ref.ID}
			it, err := h.Store.Get(r.Context(), ref.ID)
			if err == nil && it.Type != t.ID {
				err = core.Errorf(core.ENOTFOUND, content.MsgItemNotFound)
			}
			if err == nil && seesOwnOnly(roles(r)) {
				var ok bool
				if ok, err = h.Store.EditorMaySee(r.Context(), it, core.PrincipalFrom(r.Context()).UserID); err == nil && !ok {
					err = core.Errorf(core.ENOTFOUND, content.MsgItemNotFound)
				}
			}
			if err == nil && ref.Version <= 0 {
				err = core.Invalid(content.MsgVersionRequired, map[string]string{"version": content.MsgVersionRequired})
			}
			if err == nil {
				it, err = h.Workflow.Act(r.Context(), actor(r), roles(r), it.ID, ref.Version, action, "")
			}
			if err != nil {
				if core.ErrorCode(err) == core.EINTERNAL {
					return err
				}
				res.Error = core.ErrorMessage(err)
			} else {
				res.OK, res.Status = true, it.Status
			}
			out = append(out, res)
		}
		return httpx.Encode(w, http.StatusOK, out)
	})
}
