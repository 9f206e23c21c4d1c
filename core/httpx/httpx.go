// Package httpx is the small JSON toolkit every feature's HTTP handlers share:
// decoding with pt-BR errors, encoding, and the single error shape
// {"error":{"code","message","fields"}} with the status its code maps to.
package httpx

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"

	"github.com/vetclube/vetclube/core"
)

// HandlerFunc is an http.HandlerFunc that may fail; Handle turns its error
// into the standard error response.
type HandlerFunc func(w http.ResponseWriter, r *http.Request) error

// Handle adapts fn to http.Handler.
func Handle(log *slog.Logger, fn HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := fn(w, r); err != nil {
			WriteError(w, r, log, err)
		}
	})
}

// Encode writes v as JSON with status.
func Encode(w http.ResponseWriter, status int, v any) error {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	if v == nil {
		return nil
	}
	if err := json.NewEncoder(w).Encode(v); err != nil {
		return fmt.Errorf("encode response: %w", err)
	}
	return nil
}

// Decode reads a JSON body into v. Malformed JSON, a body over the size
// limit and unknown fields are reported to the user in pt-BR.
func Decode[T any](r *http.Request) (T, error) {
	var v T
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		var maxErr *http.MaxBytesError
		var syntaxErr *json.SyntaxError
		var typeErr *json.UnmarshalTypeError
		switch {
		case errors.As(err, &maxErr):
			return v, core.Errorf(core.EINVALID, "A requisição é grande demais.")
		case errors.Is(err, io.EOF):
			return v, core.Errorf(core.EINVALID, "O corpo da requisição está vazio.")
		case errors.As(err, &typeErr):
			return v, core.Invalid("Dados inválidos.", map[string]string{typeErr.Field: "Tipo de valor inválido."})
		case errors.As(err, &syntaxErr), errors.Is(err, io.ErrUnexpectedEOF):
			return v, core.Errorf(core.EINVALID, "JSON inválido no corpo da requisição.")
		case strings.HasPrefix(err.Error(), "json: unknown field "):
			field := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
			return v, core.Invalid("Dados inválidos.", map[string]string{field: "Campo desconhecido."})
		default:
			return v, core.Errorf(core.EINVALID, "Dados inválidos.")
		}
	}
	return v, nil
}

// Status maps an error code to its HTTP status.
func Status(code string) int {
	switch code {
	case core.EINVALID:
		return http.StatusUnprocessableEntity
	case core.EUNAUTHORIZED:
		return http.StatusUnauthorized
	case core.EFORBIDDEN:
		return http.StatusForbidden
	case core.ENOTFOUND:
		return http.StatusNotFound
	case core.ECONFLICT:
		return http.StatusConflict
	case core.ERATELIMITED:
		return http.StatusTooManyRequests
	case core.ELOCKED:
		return http.StatusLocked
	case core.EUNAVAILABLE:
		return http.StatusServiceUnavailable
	default:
		return http.StatusInternalServerError
	}
}

// ErrorBody is the JSON shape of every error response.
type ErrorBody struct {
	Error ErrorDetail `json:"error"`
}

// ErrorDetail is the inside of ErrorBody.
type ErrorDetail struct {
	Code      string            `json:"code"`
	Message   string            `json:"message"`
	Fields    map[string]string `json:"fields,omitempty"`
	RequestID string            `json:"request_id,omitempty"`
}

// WriteError writes err in the standard shape. Unexpected errors are logged
// with the request id and answered with a generic message.
func WriteError(w http.ResponseWriter, r *http.Request, log *slog.Logger, err error) {
	code := core.ErrorCode(err)
	detail := ErrorDetail{Code: code, Message: core.ErrorMessage(err), RequestID: RequestID(r.Context())}
	var e *core.Error
	if errors.As(err, &e) {
		detail.Fields = e.Fields
	}
	if code == core.EINTERNAL || code == core.EUNAVAILABLE {
		if log != nil {
			log.ErrorContext(r.Context(), "request failed", "err", err, "method", r.Method, "path", r.URL.Path, "request_id", detail.RequestID)
		}
	}
	_ = Encode(w, Status(code), ErrorBody{Error: detail})
}
