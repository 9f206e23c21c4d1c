package toolfiles

import (
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/httpx"
)

// Gate says whether the signed-in member may use tool id: nil, or the
// refusal (ENOTFOUND for no such tool, EFORBIDDEN for a Premium tool).
type Gate func(r *http.Request, pluginID string) error

const msgMultipart = "Envie o arquivo como multipart/form-data, no campo file."

// readUpload reads the multipart field "file": its name and bytes, refusing
// past MaxFileBytes as soon as it is passed.
func readUpload(r *http.Request) (string, []byte, error) {
	mr, err := r.MultipartReader()
	if err != nil {
		return "", nil, invalid(msgMultipart)
	}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return "", nil, invalid(MsgEmpty)
		}
		if err != nil {
			var maxErr *http.MaxBytesError
			if errors.As(err, &maxErr) {
				return "", nil, &core.Error{Code: core.ETOOLARGE, Message: MsgTooLarge}
			}
			return "", nil, invalid(msgMultipart)
		}
		if part.FormName() != "file" {
			part.Close()
			continue
		}
		raw, err := io.ReadAll(io.LimitReader(part, MaxFileBytes+1))
		part.Close()
		var maxErr *http.MaxBytesError
		if errors.As(err, &maxErr) || len(raw) > MaxFileBytes {
			return "", nil, &core.Error{Code: core.ETOOLARGE, Message: MsgTooLarge, Fields: map[string]string{"file": MsgTooLarge}}
		}
		if err != nil {
			return "", nil, invalid(msgMultipart)
		}
		return part.FileName(), raw, nil
	}
}

// HandleUpload serves POST /api/tools/{id}/files.
func HandleUpload(log *slog.Logger, s *Service, gate Gate) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		id := chi.URLParam(r, "id")
		if err := gate(r, id); err != nil {
			return err
		}
		name, raw, err := readUpload(r)
		if err != nil {
			return err
		}
		f, err := s.Upload(r.Context(), id, core.PrincipalFrom(r.Context()).UserID, name, raw)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusCreated, f)
	})
}

// HandleList serves GET /api/tools/{id}/files: the member's own files.
func HandleList(log *slog.Logger, s *Service, gate Gate) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		id := chi.URLParam(r, "id")
		if err := gate(r, id); err != nil {
			return err
		}
		files, err := s.List(r.Context(), id, core.PrincipalFrom(r.Context()).UserID)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, map[string]any{"items": files})
	})
}

// HandleGet serves GET /api/tools/{id}/files/{fileId}: the bytes, to their
// owner only (404 for anyone else). A PDF is a download; nothing is ever
// run on the app's origin (sandboxing CSP, nosniff).
func HandleGet(log *slog.Logger, s *Service, gate Gate) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		id := chi.URLParam(r, "id")
		if err := gate(r, id); err != nil {
			return err
		}
		f, data, err := s.Read(r.Context(), id, core.PrincipalFrom(r.Context()).UserID, chi.URLParam(r, "fileId"))
		if err != nil {
			return err
		}
		h := w.Header()
		h.Set("Content-Type", f.ContentType)
		h.Set("Content-Length", strconv.Itoa(len(data)))
		h.Set("Cache-Control", "private, no-store")
		h.Set("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'; sandbox")
		h.Set("X-Content-Type-Options", "nosniff")
		disposition := "inline"
		if f.Kind == KindPDF {
			disposition = "attachment"
		}
		h.Set("Content-Disposition", disposition+`; filename="arquivo-`+f.ID[:8]+map[string]string{"image/jpeg": ".jpg", "image/png": ".png", "application/pdf": ".pdf"}[f.ContentType]+`"`)
		w.WriteHeader(http.StatusOK)
		if r.Method != http.MethodHead {
			_, _ = w.Write(data)
		}
		return nil
	})
}

// HandleDelete serves DELETE /api/tools/{id}/files/{fileId}: 204, or 404
// when the member has no such file.
func HandleDelete(log *slog.Logger, s *Service, gate Gate) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		id := chi.URLParam(r, "id")
		if err := gate(r, id); err != nil {
			return err
		}
		deleted, err := s.Delete(r.Context(), id, core.PrincipalFrom(r.Context()).UserID, chi.URLParam(r, "fileId"))
		if err != nil {
			return err
		}
		if !deleted {
			return core.Errorf(core.ENOTFOUND, MsgNotFound)
		}
		w.WriteHeader(http.StatusNoContent)
		return nil
	})
}
