package jobs

import (
	"errors"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/httpx"
)

// HTTP serves the jobs API: /api/vagas for members, /api/admin/vagas for
// the people who manage jobs.
type HTTP struct {
	Service *Service
	// PublicURL is the origin of the PWA (share links).
	PublicURL string
	Log       *slog.Logger
}

func filterOf(r *http.Request) Filter {
	q := r.URL.Query()
	return Filter{Q: q.Get("q"), State: q.Get("state"), City: q.Get("city"), Area: q.Get("area"), Contract: q.Get("contract"),
		Workplace: q.Get("workplace"), SalaryGiven: q.Get("salary") == "1" || q.Get("salary") == "true"}
}

// List serves GET /api/vagas?q=&state=&city=&area=&contract=&workplace=&salary=1&sort=recentes|encerramento&page=.
func (h HTTP) List() http.Handler {
	return httpx.Handle(h.Log, func(w http.ResponseWriter, r *http.Request) error {
		page := 1
		if p := r.URL.Query().Get("page"); p != "" {
			n, err := strconv.Atoi(p)
			if err != nil {
				return core.Invalid(MsgBadPage, map[string]string{"page": MsgBadPage})
			}
			page = n
		}
		out, err := h.Service.List(r.Context(), core.PrincipalFrom(r.Context()).UserID, filterOf(r), r.URL.Query().Get("sort"), page)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, out)
	})
}

// DetailAnswer is a job page: the job and its share link.
type DetailAnswer struct {
	Job
	ShareURL string `json:"share_url"`
}

func (h HTTP) detail(w http.ResponseWriter, status int, j Job) error {
	return httpx.Encode(w, status, DetailAnswer{Job: j, ShareURL: strings.TrimRight(h.PublicURL, "/") + Link(j.Slug)})
}

// Get serves GET /api/vagas/{idOrSlug}.
func (h HTTP) Get() http.Handler {
	return httpx.SignedIn(h.Log, func(w http.ResponseWriter, r *http.Request, userID string) error {
		j, err := h.Service.Get(r.Context(), chi.URLParam(r, "idOrSlug"), userID)
		if err != nil {
			return err
		}
		return h.detail(w, http.StatusOK, j)
	})
}

// Save serves PUT /api/vagas/{idOrSlug}/salva.
func (h HTTP) Save() http.Handler {
	return httpx.SignedIn(h.Log, func(w http.ResponseWriter, r *http.Request, userID string) error {
		j, err := h.Service.Save(r.Context(), userID, chi.URLParam(r, "idOrSlug"))
		if err != nil {
			return err
		}
		return h.detail(w, http.StatusOK, j)
	})
}

// Unsave serves DELETE /api/vagas/{idOrSlug}/salva.
func (h HTTP) Unsave() http.Handler {
	return httpx.SignedIn(h.Log, func(w http.ResponseWriter, r *http.Request, userID string) error {
		j, err := h.Service.Unsave(r.Context(), userID, chi.URLParam(r, "idOrSlug"))
		if err != nil {
			return err
		}
		return h.detail(w, http.StatusOK, j)
	})
}

// Saved serves GET /api/vagas/salvas.
func (h HTTP) Saved() http.Handler {
	return httpx.SignedIn(h.Log, func(w http.ResponseWriter, r *http.Request, userID string) error {
		list, err := h.Service.Saved(r.Context(), userID)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, map[string][]Job{"jobs": list})
	})
}

const msgMultipart = "Envie a candidatura como multipart/form-data (campos message e cv) ou JSON."

// readApplication reads the multipart fields message and cv (the CV's
// bytes, refused past MaxCVBytes as soon as they pass it), or a JSON
// {"message"} without a CV.
func readApplication(r *http.Request) (ApplyInput, error) {
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if ct != "multipart/form-data" {
		if r.ContentLength == 0 || r.Body == nil || r.Body == http.NoBody {
			return ApplyInput{}, nil
		}
		body, err := httpx.Decode[struct {
			Message string `json:"message"`
		}](r)
		if err != nil {
			return ApplyInput{}, err
		}
		return ApplyInput{Message: body.Message}, nil
	}
	mr, err := r.MultipartReader()
	if err != nil {
		return ApplyInput{}, core.Invalid(msgMultipart, nil)
	}
	var in ApplyInput
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return in, nil
		}
		if err != nil {
			var maxErr *http.MaxBytesError
			if errors.As(err, &maxErr) {
				return ApplyInput{}, &core.Error{Code: core.ETOOLARGE, Message: MsgCVNotPDF, Fields: map[string]string{"cv": MsgCVNotPDF}}
			}
			return ApplyInput{}, core.Invalid(msgMultipart, nil)
		}
		switch part.FormName() {
		case "message":
			raw, err := io.ReadAll(io.LimitReader(part, MaxMessage*4+1))
			if err != nil {
				return ApplyInput{}, core.Invalid(msgMultipart, nil)
			}
			if len(raw) > MaxMessage*4 {
				return ApplyInput{}, core.Invalid(MsgMessageTooLong, map[string]string{"message": MsgMessageTooLong})
			}
			in.Message = string(raw)
		case "cv":
			raw, err := io.ReadAll(io.LimitReader(part, MaxCVBytes+1))
			var maxErr *http.MaxBytesError
			if errors.As(err, &maxErr) || len(raw) > MaxCVBytes {
				return ApplyInput{}, &core.Error{Code: core.ETOOLARGE, Message: MsgCVNotPDF, Fields: map[string]string{"cv": MsgCVNotPDF}}
			}
			if err != nil {
				return ApplyInput{}, core.Invalid(msgMultipart, nil)
			}
			in.CV, in.CVName = raw, part.FileName()
		}
		part.Close()
	}
}

// Apply serves POST /api/vagas/{idOrSlug}/candidatura: 201 with the new
// application, 200 with the existing one.
func (h HTTP) Apply() http.Handler {
	return httpx.SignedIn(h.Log, func(w http.ResponseWriter, r *http.Request, userID string) error {
		in, err := readApplication(r)
		if err != nil {
			return err
		}
		if msg := httpx.TextProblem(in.Message); msg != "" {
			return core.Invalid(msg, map[string]string{"message": msg})
		}
		a, created, err := h.Service.Apply(r.Context(), userID, chi.URLParam(r, "idOrSlug"), in)
		if err != nil {
			return err
		}
		status := http.StatusOK
		if created {
			status = http.StatusCreated
		}
		return httpx.Encode(w, status, a)
	})
}

// Mine serves GET /api/vagas/candidaturas.
func (h HTTP) Mine() http.Handler {
	return httpx.SignedIn(h.Log, func(w http.ResponseWriter, r *http.Request, userID string) error {
		list, err := h.Service.Mine(r.Context(), userID)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, map[string][]Application{"applications": list})
	})
}

// CV serves GET /api/vagas/candidaturas/{id}/curriculo: the PDF, to its
// applicant and the people who manage the job.
func (h HTTP) CV() http.Handler {
	return httpx.SignedIn(h.Log, func(w http.ResponseWriter, r *http.Request, userID string) error {
		name, data, err := h.Service.CV(r.Context(), ViewerOf(core.PrincipalFrom(r.Context())), chi.URLParam(r, "id"))
		if err != nil {
			return err
		}
		w.Header().Set("Content-Type", "application/pdf")
		w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": name}))
		w.Header().Set("Content-Security-Policy", "sandbox")
		w.WriteHeader(http.StatusOK)
		_, err = w.Write(data)
		return err
	})
}

// Searches serves GET /api/vagas/buscas.
func (h HTTP) Searches() http.Handler {
	return httpx.SignedIn(h.Log, func(w http.ResponseWriter, r *http.Request, userID string) error {
		list, err := h.Service.Searches(r.Context(), userID)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, map[string][]SavedSearch{"searches": list})
	})
}

// SearchInput is POST /api/vagas/buscas.
type SearchInput struct {
	Filter
	Alerts *bool `json:"alerts"`
}

// SaveSearch serves POST /api/vagas/buscas.
func (h HTTP) SaveSearch() http.Handler {
	return httpx.SignedIn(h.Log, func(w http.ResponseWriter, r *http.Request, userID string) error {
		in, err := httpx.Decode[SearchInput](r)
		if err != nil {
			return err
		}
		alerts := in.Alerts == nil || *in.Alerts
		x, err := h.Service.SaveSearch(r.Context(), userID, in.Filter, alerts)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusCreated, x)
	})
}

// SetAlerts serves PUT /api/vagas/buscas/{id}/alertas {"alerts": bool}.
func (h HTTP) SetAlerts() http.Handler {
	return httpx.SignedIn(h.Log, func(w http.ResponseWriter, r *http.Request, userID string) error {
		in, err := httpx.Decode[struct {
			Alerts bool `json:"alerts"`
		}](r)
		if err != nil {
			return err
		}
		x, err := h.Service.SetAlerts(r.Context(), userID, chi.URLParam(r, "id"), in.Alerts)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, x)
	})
}

// DeleteSearch serves DELETE /api/vagas/buscas/{id}.
func (h HTTP) DeleteSearch() http.Handler {
	return httpx.SignedIn(h.Log, func(w http.ResponseWriter, r *http.Request, userID string) error {
		if err := h.Service.DeleteSearch(r.Context(), userID, chi.URLParam(r, "id")); err != nil {
			return err
		}
		w.WriteHeader(http.StatusNoContent)
		return nil
	})
}

func viewer(r *http.Request) Viewer { return ViewerOf(core.PrincipalFrom(r.Context())) }

// Managed serves GET /api/admin/vagas: the jobs the caller manages, with
// their application counts.
func (h HTTP) Managed() http.Handler {
	return httpx.SignedIn(h.Log, func(w http.ResponseWriter, r *http.Request, _ string) error {
		list, err := h.Service.ManagedJobs(r.Context(), viewer(r))
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, map[string][]ManagedJob{"jobs": list})
	})
}

// Applications serves GET /api/admin/vagas/{id}/candidaturas.
func (h HTTP) Applications() http.Handler {
	return httpx.SignedIn(h.Log, func(w http.ResponseWriter, r *http.Request, _ string) error {
		list, err := h.Service.JobApplications(r.Context(), viewer(r), chi.URLParam(r, "id"))
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, map[string][]Application{"applications": list})
	})
}

// SetStatus serves PUT /api/admin/vagas/candidaturas/{id} {"status","note"}.
func (h HTTP) SetStatus() http.Handler {
	return httpx.SignedIn(h.Log, func(w http.ResponseWriter, r *http.Request, _ string) error {
		in, err := httpx.Decode[struct {
			Status string `json:"status"`
			Note   string `json:"note"`
		}](r)
		if err != nil {
			return err
		}
		a, err := h.Service.SetStatus(r.Context(), viewer(r), chi.URLParam(r, "id"), in.Status, in.Note)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, a)
	})
}

// Recruiters serves GET /api/admin/vagas/{id}/recrutadores.
func (h HTTP) Recruiters() http.Handler {
	return httpx.SignedIn(h.Log, func(w http.ResponseWriter, r *http.Request, _ string) error {
		list, err := h.Service.Recruiters(r.Context(), viewer(r), chi.URLParam(r, "id"))
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, map[string][]Recruiter{"recruiters": list})
	})
}

// AddRecruiter serves POST /api/admin/vagas/{id}/recrutadores {"email"}.
func (h HTTP) AddRecruiter() http.Handler {
	return httpx.SignedIn(h.Log, func(w http.ResponseWriter, r *http.Request, _ string) error {
		in, err := httpx.Decode[struct {
			Email string `json:"email"`
		}](r)
		if err != nil {
			return err
		}
		list, err := h.Service.AddRecruiter(r.Context(), viewer(r), chi.URLParam(r, "id"), in.Email)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, map[string][]Recruiter{"recruiters": list})
	})
}

// RemoveRecruiter serves DELETE /api/admin/vagas/{id}/recrutadores/{userId}.
func (h HTTP) RemoveRecruiter() http.Handler {
	return httpx.SignedIn(h.Log, func(w http.ResponseWriter, r *http.Request, _ string) error {
		list, err := h.Service.RemoveRecruiter(r.Context(), viewer(r), chi.URLParam(r, "id"), chi.URLParam(r, "userId"))
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, map[string][]Recruiter{"recruiters": list})
	})
}
