package media

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/httpx"
)

// refusedCode marks the library's own refusals in tusd's error bodies:
// their message is already the pt-BR text staff read.
const refusedCode = "ERR_MEDIA_REFUSED"

// tusMessages are the pt-BR messages of tusd's own errors (its bodies are
// "ERR_CODE: English text").
var tusMessages = map[string]string{
	"ERR_UNSUPPORTED_VERSION":         "Envio retomável: informe o cabeçalho Tus-Resumable: 1.0.0.",
	"ERR_INVALID_CONTENT_TYPE":        "Os dados do envio devem vir como application/offset+octet-stream.",
	"ERR_INVALID_UPLOAD_LENGTH":       MsgNoLength,
	"ERR_AMBIGUOUS_UPLOAD_LENGTH":     MsgNoLength,
	"ERR_INVALID_UPLOAD_LENGTH_DEFER": MsgNoLength,
	"ERR_INVALID_OFFSET":              "Informe a posição do envio (Upload-Offset).",
	"ERR_UPLOAD_NOT_FOUND":            "Envio não encontrado. Comece o envio de novo.",
	"ERR_UPLOAD_LOCKED":               "Este envio está sendo usado por outra conexão. Tente de novo em instantes.",
	"ERR_LOCK_TIMEOUT":                "Este envio está sendo usado por outra conexão. Tente de novo em instantes.",
	"ERR_MISMATCHED_OFFSET":           "A posição do envio não confere. Consulte o progresso e continue de onde parou.",
	"ERR_UPLOAD_SIZE_EXCEEDED":        "O envio passa do tamanho informado.",
	"ERR_MAX_SIZE_EXCEEDED":           "O envio passa do tamanho informado.",
	"ERR_UNEXPECTED_EOF":              "O envio foi interrompido. Continue de onde parou.",
	"ERR_UPLOAD_INTERRUPTED":          "O envio foi interrompido. Continue de onde parou.",
	"ERR_UPLOAD_STOPPED":              "O envio foi interrompido. Continue de onde parou.",
	"ERR_READ_TIMEOUT":                "O envio foi interrompido. Continue de onde parou.",
	"ERR_CONNECTION_RESET":            "O envio foi interrompido. Continue de onde parou.",
	"ERR_CONCATENATION_UNSUPPORTED":   "Envios em partes concatenadas não são aceitos.",
	"ERR_INVALID_CONCAT":              "Envios em partes concatenadas não são aceitos.",
	"ERR_SERVER_SHUTDOWN":             "O servidor está reiniciando. Continue o envio em instantes.",
}

// interrupted are the tusd errors of a connection that broke: the client
// resumes, nothing failed on the server.
var interrupted = map[string]bool{"ERR_READ_TIMEOUT": true, "ERR_CONNECTION_RESET": true}

// jsonErrors answers tusd's plain-text errors in the API's error shape
// ({"error":{"code","message"}}) with pt-BR messages, as every other route
// does; successful tus answers pass untouched.
func jsonErrors(next http.Handler, log *slog.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tw := &tusWriter{ResponseWriter: w}
		next.ServeHTTP(tw, r)
		if !tw.failed {
			return
		}
		status, code, msg := tusError(tw.status, tw.body.String())
		if status >= 500 {
			log.ErrorContext(r.Context(), "media: tus error", "status", tw.status, "body", tw.body.String(), "path", r.URL.Path)
		}
		h := w.Header()
		h.Del("Content-Length")
		h.Set("Content-Type", "application/json; charset=utf-8")
		w.WriteHeader(status)
		if r.Method != http.MethodHead {
			_ = json.NewEncoder(w).Encode(httpx.ErrorBody{Error: httpx.ErrorDetail{Code: code, Message: msg, RequestID: httpx.RequestID(r.Context())}})
		}
	})
}

// tusError turns one tusd error answer into a status, an error code of the
// API and a pt-BR message.
func tusError(status int, body string) (int, string, string) {
	errCode, text, _ := strings.Cut(strings.TrimSpace(body), ": ")
	if interrupted[errCode] {
		status = http.StatusBadRequest
	}
	var msg string
	switch {
	case errCode == refusedCode:
		msg = text
	case tusMessages[errCode] != "":
		msg = tusMessages[errCode]
	case status == http.StatusMethodNotAllowed:
		msg = "Método não permitido neste endereço do envio."
	case status >= 500:
		msg = "Erro interno. Tente novamente."
	default:
		msg = "Não foi possível processar o envio."
	}
	code := core.EINVALID
	switch {
	case status == http.StatusNotFound:
		code = core.ENOTFOUND
	case status == http.StatusConflict:
		code = core.ECONFLICT
	case status == http.StatusRequestEntityTooLarge:
		code = core.ETOOLARGE
	case status == http.StatusLocked:
		code = core.ELOCKED
	case status == http.StatusForbidden:
		code = core.EFORBIDDEN
	case status == http.StatusMethodNotAllowed:
		code = core.EMETHOD
	case status == http.StatusServiceUnavailable:
		code = core.EUNAVAILABLE
	case status >= 500:
		code = core.EINTERNAL
	}
	return status, code, msg
}

// tusWriter holds back an error answer of tusd so jsonErrors can rewrite it.
type tusWriter struct {
	http.ResponseWriter
	failed bool
	status int
	body   bytes.Buffer
}

func (w *tusWriter) WriteHeader(code int) {
	if code >= 400 && !w.failed {
		w.failed, w.status = true, code
		return
	}
	if !w.failed {
		w.ResponseWriter.WriteHeader(code)
	}
}

func (w *tusWriter) Write(b []byte) (int, error) {
	if w.failed {
		return w.body.Write(b)
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets tusd's http.ResponseController reach the connection (read
// deadlines of long chunks).
func (w *tusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
