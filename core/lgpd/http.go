package lgpd

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/jackc/pgx/v5"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/httpx"
)

// HTTP serves the member's data routes and the backoffice's request list.
type HTTP struct {
	Service *Service
	Log     *slog.Logger
}

// Overview is what "Meus dados" shows: the member's requests and the
// scheduled deletion, if any.
type Overview struct {
	Requests []Request `json:"requests"`
	Deletion *Request  `json:"deletion"`
	Areas    []string  `json:"areas"`
}

// Get serves GET /api/me/data: the caller's requests.
func (h HTTP) Get() http.Handler {
	return httpx.SignedIn(h.Log, func(w http.ResponseWriter, r *http.Request, userID string) error {
		list, err := h.Service.Requests(r.Context(), userID)
		if err != nil {
			return err
		}
		del, err := h.Service.PendingDeletion(r.Context(), userID)
		if err != nil {
			return err
		}
		w.Header().Set("Cache-Control", "no-store")
		return httpx.Encode(w, http.StatusOK, Overview{Requests: list, Deletion: del, Areas: h.Service.o.Registry.Areas()})
	})
}

// RequestExport serves POST /api/me/data-exports: a new export (202), one a day.
func (h HTTP) RequestExport() http.Handler {
	return httpx.SignedIn(h.Log, func(w http.ResponseWriter, r *http.Request, userID string) error {
		req, err := h.Service.RequestExport(r.Context(), userID)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusAccepted, req)
	})
}

// Download serves GET /api/me/data-exports/{id}/download: the ZIP, to its
// signed-in owner only (anyone else: 404), while the link is valid.
func (h HTTP) Download() http.Handler {
	return httpx.SignedIn(h.Log, func(w http.ResponseWriter, r *http.Request, userID string) error {
		p, name, err := h.Service.ExportFile(r.Context(), userID, chi.URLParam(r, "id"))
		if err != nil {
			return err
		}
		w.Header().Set("Content-Type", "application/zip")
		w.Header().Set("Content-Disposition", `attachment; filename="`+name+`"`)
		w.Header().Set("Cache-Control", "private, no-store")
		http.ServeFile(w, r, p)
		return nil
	})
}

// SendCode serves POST /api/me/account-deletion/code: e-mails the code.
func (h HTTP) SendCode() http.Handler {
	return httpx.SignedIn(h.Log, func(w http.ResponseWriter, r *http.Request, userID string) error {
		if err := h.Service.SendDeletionCode(r.Context(), userID); err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, map[string]string{"message": "Enviamos um código para o seu e-mail. Ele vale 15 minutos."})
	})
}

// RequestDeletion serves POST /api/me/account-deletion {password | code}.
func (h HTTP) RequestDeletion() http.Handler {
	return httpx.SignedIn(h.Log, func(w http.ResponseWriter, r *http.Request, userID string) error {
		in, err := httpx.Decode[DeletionInput](r)
		if err != nil {
			return err
		}
		if len(in.Password) > 1024 || len(in.Code) > 32 {
			return core.Invalid(MsgConfirmNeeded, map[string]string{"password": MsgConfirmNeeded})
		}
		req, err := h.Service.RequestDeletion(r.Context(), userID, in)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusAccepted, req)
	})
}

// CancelDeletion serves DELETE /api/me/account-deletion.
func (h HTTP) CancelDeletion() http.Handler {
	return httpx.SignedIn(h.Log, func(w http.ResponseWriter, r *http.Request, userID string) error {
		ok, err := h.Service.CancelDeletion(r.Context(), userID, "membro")
		if err != nil {
			return err
		}
		if !ok {
			return core.Errorf(core.ENOTFOUND, MsgNoDeletion)
		}
		w.WriteHeader(http.StatusNoContent)
		return nil
	})
}

// AdminRequest is one request as the backoffice lists it: no personal data
// beyond the account id (empty once the account is deleted).
type AdminRequest struct {
	Request
	UserID string       `json:"user_id"`
	Error  string       `json:"error,omitempty"`
	Report []StepReport `json:"report,omitempty"`
}

type adminFilter struct {
	Kind   string `json:"kind"`
	Status string `json:"status"`
}

var adminListParams = httpx.ListParams{SortFields: []string{"requested_at", "status", "kind"}}

// AdminList serves GET /api/admin/lgpd-requests (super admins): exports
// and deletions with their state and deletion reports.
func (h HTTP) AdminList() http.Handler {
	return httpx.Handle(h.Log, func(w http.ResponseWriter, r *http.Request) error {
		var f adminFilter
		lq, err := httpx.ParseList(r, adminListParams, &f)
		if err != nil {
			return err
		}
		list, total, err := h.Service.AdminList(r.Context(), f, lq)
		if err != nil {
			return err
		}
		end := lq.Offset + len(list) - 1
		if len(list) == 0 {
			end = lq.Offset
		}
		w.Header().Set("Content-Range", fmt.Sprintf("lgpd-requests %d-%d/%d", lq.Offset, end, total))
		w.Header().Set("Access-Control-Expose-Headers", "Content-Range")
		w.Header().Set("Cache-Control", "no-store")
		return httpx.Encode(w, http.StatusOK, list)
	})
}

// AdminList is one page of every request.
func (s *Service) AdminList(ctx context.Context, f adminFilter, lq httpx.ListQuery) ([]AdminRequest, int, error) {
	if f.Kind != "" && f.Kind != "export" && f.Kind != "deletion" {
		return nil, 0, core.Invalid("Filtro inválido.", map[string]string{"kind": "Use export ou deletion."})
	}
	if len(f.Status) > 20 {
		return nil, 0, core.Invalid("Filtro inválido.", map[string]string{"status": "Estado desconhecido."})
	}
	order := "requested_at DESC"
	if lq.SortField != "" {
		dir := "ASC"
		if lq.Descending {
			dir = "DESC"
		}
		order = lq.SortField + " " + dir + ", requested_at DESC"
	}
	where := `($1 = '' OR r.kind = $1) AND ($2 = '' OR r.status = $2)`
	var total int
	if err := s.pool.QueryRow(ctx, `SELECT count(*) FROM lgpd_requests r WHERE `+where, f.Kind, f.Status).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count requests: %w", err)
	}
	rows, err := s.pool.Query(ctx, `SELECT r.id::text, r.kind, r.status, r.requested_at, r.scheduled_for, r.finished_at, r.expires_at,
		r.file_size, r.detail, coalesce(r.user_id::text, ''), r.error, coalesce(rep.steps, '[]')
		FROM lgpd_requests r LEFT JOIN lgpd_deletion_reports rep ON rep.request_id = r.id
		WHERE `+where+` ORDER BY r.`+order+` OFFSET $3 LIMIT $4`, f.Kind, f.Status, lq.Offset, lq.Limit)
	if err != nil {
		return nil, 0, fmt.Errorf("list requests: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (AdminRequest, error) {
		var a AdminRequest
		err := row.Scan(&a.ID, &a.Kind, &a.Status, &a.RequestedAt, &a.ScheduledFor, &a.FinishedAt, &a.ExpiresAt,
			&a.Size, &a.Detail, &a.UserID, &a.Error, &a.Report)
		return a, err
	})
	if err != nil {
		return nil, 0, fmt.Errorf("list requests: %w", err)
	}
	if out == nil {
		out = []AdminRequest{}
	}
	return out, total, nil
}
