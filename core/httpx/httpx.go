// Package httpx is the small JSON toolkit every feature's HTTP handlers share:
// decoding with pt-BR errors, encoding, and the single error shape
// {"error":{"code","message","fields"}} with the status its code maps to.
package httpx

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"reflect"
	"strings"
	"unicode/utf8"

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

// MaxJSONBody is the largest JSON request body any handler reads. The
// server's body limit enforces it too; Decode checks it again so a request
// labelled multipart (which gets a larger envelope) cannot smuggle a larger
// JSON document.
const MaxJSONBody = 1 << 20

// Decode reads a JSON body into v. Malformed JSON, a body over MaxJSONBody
// (413), invalid UTF-8, control characters in any string (see TextProblem),
// unknown fields and data after the document are refused with pt-BR
// messages naming the field where there is one.
func Decode[T any](r *http.Request) (T, error) {
	var v T
	body, err := io.ReadAll(io.LimitReader(r.Body, MaxJSONBody+1))
	if err != nil {
		var maxErr *http.MaxBytesError
		if errors.As(err, &maxErr) {
			return v, errTooLarge()
		}
		return v, &core.Error{Code: core.EINVALID, Message: "Não foi possível ler o corpo da requisição.", Err: err}
	}
	if len(body) > MaxJSONBody {
		return v, errTooLarge()
	}
	if err := unmarshal(body, &v, "O corpo da requisição está vazio.", "JSON inválido no corpo da requisição."); err != nil {
		return v, err
	}
	return v, nil
}

// DecodeParam decodes a JSON-valued query parameter (react-admin's sort,
// range and filter) into v with the same rules as Decode; param names the
// parameter in the error's fields.
func DecodeParam(raw, param string, v any) error {
	if len(raw) > MaxJSONBody {
		return errTooLarge()
	}
	err := unmarshal([]byte(raw), v, "Parâmetro vazio.", "JSON inválido no parâmetro.")
	var e *core.Error
	if err != nil && errors.As(err, &e) {
		fields := map[string]string{param: e.Message}
		for f, msg := range e.Fields {
			fields[param] = f + ": " + msg
		}
		return core.Invalid("Parâmetros de consulta inválidos.", fields)
	}
	return err
}

func errTooLarge() error {
	return core.Errorf(core.ETOOLARGE, "A requisição é grande demais (máximo de %d KB).", MaxJSONBody>>10)
}

func unmarshal(body []byte, v any, emptyMsg, syntaxMsg string) error {
	if len(bytes.TrimSpace(body)) == 0 {
		return &core.Error{Code: core.EINVALID, Message: emptyMsg, Err: core.ErrEmptyBody}
	}
	if !utf8.Valid(body) {
		return core.Errorf(core.EINVALID, "%s", MsgInvalidUTF8)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var syntaxErr *json.SyntaxError
		var typeErr *json.UnmarshalTypeError
		switch {
		case errors.As(err, &typeErr) && typeErr.Field != "":
			return core.Invalid(msgInvalidFields, map[string]string{typeErr.Field: "Tipo de valor inválido."})
		case errors.As(err, &typeErr):
			return core.Errorf(core.EINVALID, "Tipo de valor inválido (esperado: %s).", jsonKind(typeErr.Type))
		case errors.As(err, &syntaxErr), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
			return core.Errorf(core.EINVALID, "%s", syntaxMsg)
		case strings.HasPrefix(err.Error(), "json: unknown field "):
			field := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
			return core.Invalid(msgInvalidFields, map[string]string{field: "Campo desconhecido."})
		default:
			return &core.Error{Code: core.EINVALID, Message: msgInvalidFields, Err: err}
		}
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return core.Errorf(core.EINVALID, "%s Há dados depois do documento JSON.", syntaxMsg)
	}
	if field, problem := badText(reflect.ValueOf(v), ""); problem != "" {
		if field == "" {
			return core.Errorf(core.EINVALID, "%s", problem)
		}
		return core.Invalid(msgInvalidFields, map[string]string{field: problem})
	}
	if problem := rawJSONTextProblem(body); problem != "" {
		return core.Errorf(core.EINVALID, "%s", problem)
	}
	return nil
}

// jsonKind names a Go type as the JSON value a client should have sent.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return "objeto"
	case reflect.Slice, reflect.Array:
		return "lista"
	case reflect.String:
		return "texto"
	case reflect.Bool:
		return "booleano"
	default:
		return "número"
	}
}

// Status maps an error code to its HTTP status.
func Status(code string) int {
	switch code {
	case core.EINVALID:
		return http.StatusUnprocessableEntity
	case core.ETOOLARGE:
		return http.StatusRequestEntityTooLarge
	case core.EMETHOD:
		return http.StatusMethodNotAllowed
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

// SignedIn serves fn to signed-in members only (a visitor gets 401
// core.MsgNotSignedIn, as the route policy would say it) with their user id; answers
// are a member's own, so they are never cached.
func SignedIn(log *slog.Logger, fn func(w http.ResponseWriter, r *http.Request, userID string) error) http.Handler {
	return Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		p := core.PrincipalFrom(r.Context())
		if !p.Authenticated() {
			return core.NotSignedIn()
		}
		w.Header().Set("Cache-Control", "no-store")
		return fn(w, r, p.UserID)
	})
}

// ClientIP is the address rate limits count per IP: the TCP peer. Behind a
// proxy this is the proxy; trusting X-Forwarded-For needs a known proxy list.
func ClientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
