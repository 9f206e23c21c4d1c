package moderation

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/httpx"
)

// HTTP serves reports (any signed-in member) and the backoffice queue (the
// route policy lets moderators and super admins in).
type HTTP struct {
	Service *Service
	Log     *slog.Logger
}

// Report serves POST /api/reports {target_type, target_id, category, reason} →
// 201 {hidden} (200 when this member had already reported the target).
func (h HTTP) Report() http.Handler {
	return httpx.Handle(h.Log, func(w http.ResponseWriter, r *http.Request) error {
		p := core.PrincipalFrom(r.Context())
		if !p.Authenticated() {
			return core.NotSignedInToWrite()
		}
		body, err := httpx.Decode[struct {
			TargetType string `json:"target_type"`
			TargetID   string `json:"target_id"`
			Category   string `json:"category"`
			Reason     string `json:"reason"`
		}](r)
		if err != nil {
			return err
		}
		res, err := h.Service.Report(r.Context(), p.UserID, body.TargetType, body.TargetID, body.Category, body.Reason)
		if err != nil {
			return err
		}
		status := http.StatusOK
		if res.Created {
			status = http.StatusCreated
		}
		return httpx.Encode(w, status, res)
	})
}

var queueParams = httpx.ListParams{DefaultLimit: 25, MaxLimit: 100, SortFields: QueueSortFields}

// Queue serves GET /api/admin/moderation: ra-data-simple-rest's range, sort
// and filter {"state","target_type"}; state, _start and _end are accepted
// as plain parameters too. Answers Row[] with Content-Range.
func (h HTTP) Queue() http.Handler {
	return httpx.Handle(h.Log, func(w http.ResponseWriter, r *http.Request) error {
		var f struct {
			State      string `json:"state"`
			TargetType string `json:"target_type"`
		}
		lq, err := httpx.ParseList(r, queueParams, &f)
		if err != nil {
			return err
		}
		v := r.URL.Query()
		if s := v.Get("state"); s != "" {
			f.State = s
		}
		if s, e := v.Get("_start"), v.Get("_end"); s != "" || e != "" {
			start, err1 := strconv.Atoi(s)
			end, err2 := strconv.Atoi(e)
			if err1 != nil || err2 != nil || start < 0 || end <= start || start > httpx.MaxListOffset {
				return core.Invalid("Parâmetros de consulta inválidos.", map[string]string{"_start": "Use 0 ≤ _start < _end."})
			}
			lq.Offset, lq.Limit = start, min(end-start, queueParams.MaxLimit)
		}
		switch State(f.State) {
		case "", StatePublished, StateHidden, StateRemoved:
		default:
			return core.Invalid("Parâmetros de consulta inválidos.", map[string]string{"state": "Use publicado, oculto ou removido."})
		}
		if f.TargetType != "" && f.TargetType != TargetPost && f.TargetType != TargetComment {
			return core.Invalid("Parâmetros de consulta inválidos.", map[string]string{"target_type": MsgBadTargetType})
		}
		list, total, err := h.Service.Queue(r.Context(), QueueQuery{State: State(f.State), TargetType: f.TargetType,
			SortField: lq.SortField, Ascending: lq.SortField != "" && !lq.Descending, Offset: lq.Offset, Limit: lq.Limit})
		if err != nil {
			return err
		}
		end := lq.Offset + len(list) - 1
		if len(list) == 0 {
			end = lq.Offset
		}
		w.Header().Set("Content-Range", fmt.Sprintf("moderation %d-%d/%d", lq.Offset, end, total))
		w.Header().Set("Access-Control-Expose-Headers", "Content-Range")
		w.Header().Set("Cache-Control", "no-store")
		return httpx.Encode(w, http.StatusOK, list)
	})
}

// Get serves GET /api/admin/moderation/{id} with a row id "post:<uuid>".
func (h HTTP) Get() http.Handler {
	return httpx.Handle(h.Log, func(w http.ResponseWriter, r *http.Request) error {
		t, id, err := ParseRowID(chi.URLParam(r, "id"))
		if err != nil {
			return err
		}
		row, err := h.Service.Row(r.Context(), t, id)
		if err != nil {
			return err
		}
		w.Header().Set("Cache-Control", "no-store")
		return httpx.Encode(w, http.StatusOK, row)
	})
}

// Act serves POST /api/admin/moderation/{target_type}/{target_id}/{action}
// with an optional body {reason} → the row.
func (h HTTP) Act() http.Handler {
	return httpx.Handle(h.Log, func(w http.ResponseWriter, r *http.Request) error {
		p := core.PrincipalFrom(r.Context())
		if !IsModerator(p) {
			return core.Errorf(core.EFORBIDDEN, "Você não tem permissão para acessar este recurso.")
		}
		raw, err := io.ReadAll(io.LimitReader(r.Body, httpx.MaxJSONBody+1))
		if err != nil {
			return core.Errorf(core.EINVALID, "Não foi possível ler o corpo da requisição.")
		}
		var body struct {
			Reason string `json:"reason"`
		}
		if len(bytes.TrimSpace(raw)) > 0 {
			r.Body = io.NopCloser(bytes.NewReader(raw))
			if body, err = httpx.Decode[struct {
				Reason string `json:"reason"`
			}](r); err != nil {
				return err
			}
		}
		row, err := h.Service.Act(r.Context(), p.UserID, chi.URLParam(r, "target_type"), chi.URLParam(r, "target_id"),
			Action(chi.URLParam(r, "action")), body.Reason)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, row)
	})
}
