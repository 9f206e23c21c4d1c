package sdk

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

type errorBody struct {
	Error struct {
		Code    string            `json:"code"`
		Message string            `json:"message"`
		Fields  map[string]string `json:"fields"`
	} `json:"error"`
}

func decodeError(t *testing.T, rec *httptest.ResponseRecorder) errorBody {
	t.Helper()
	var e errorBody
	if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil {
		t.Fatalf("body %q is not the error shape: %v", rec.Body.String(), err)
	}
	return e
}

func TestWriteJSONNeverAnswers200WithAnEmptyBody(t *testing.T) {
	rec := httptest.NewRecorder()
	WriteJSON(rec, http.StatusOK, map[string]any{"value": math.Inf(1)})
	if rec.Code != http.StatusInternalServerError {
		t.Fatalf("status %d, want 500 (body %q)", rec.Code, rec.Body.String())
	}
	e := decodeError(t, rec)
	if e.Error.Code != "internal" || e.Error.Message != "A ferramenta não conseguiu montar a resposta. Tente novamente." {
		t.Fatalf("error %+v", e.Error)
	}
	if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("content type %q", ct)
	}

	rec = httptest.NewRecorder()
	WriteJSON(rec, http.StatusCreated, map[string]int{"n": 1})
	if rec.Code != http.StatusCreated || strings.TrimSpace(rec.Body.String()) != `{"n":1}` {
		t.Fatalf("ordinary answer: %d %q", rec.Code, rec.Body.String())
	}
}

func TestResultWithANonFiniteFigureIsRefusedWith422(t *testing.T) {
	for _, bad := range []float64{math.Inf(1), math.Inf(-1), math.NaN()} {
		rec := httptest.NewRecorder()
		Result{Values: []Value{{Label: "Dose total", Number: bad, Display: "?"}}}.Write(rec)
		if rec.Code != http.StatusUnprocessableEntity {
			t.Fatalf("%v: status %d body %q", bad, rec.Code, rec.Body.String())
		}
		if e := decodeError(t, rec); e.Error.Message != nonFiniteResult || e.Error.Code != "invalid" {
			t.Fatalf("%v: %+v", bad, e.Error)
		}
	}
}

func TestProblemsFiniteNamesTheField(t *testing.T) {
	p := Problems{}
	if !p.Finite("dose", "grande demais", 1, 2) || len(p) != 0 {
		t.Fatalf("finite figures refused: %v", p)
	}
	if p.Finite("dose", "A dose é grande demais.", 1, math.Inf(1)) || p["dose"] != "A dose é grande demais." {
		t.Fatalf("infinite figure accepted: %v", p)
	}
}

func TestRoundNeverTurnsAFiniteNumberIntoInfinity(t *testing.T) {
	if got := Round(math.MaxFloat64, 2); math.IsInf(got, 0) || got != math.MaxFloat64 {
		t.Fatalf("Round(MaxFloat64, 2) = %v", got)
	}
	if got := Round(1.005*100, 1); got != 100.5 {
		t.Fatalf("Round(100.5, 1) = %v", got)
	}
}

func decode(body string) (*httptest.ResponseRecorder, map[string]any, bool) {
	rec := httptest.NewRecorder()
	var v map[string]any
	ok := DecodeJSON(rec, httptest.NewRequest("POST", "/", strings.NewReader(body)), &v)
	return rec, v, ok
}

func TestDecodeJSONRefusesControlCharactersNamingTheField(t *testing.T) {
	cases := []struct{ name, body, field string }{
		{"NUL in a top-level text", `{"title":"Clínica\u0000 2027"}`, "title"},
		{"bell in a list item", `{"title":"ok","quadrants":{"strengths":["Equipe","x\u0007y"]}}`, "strengths"},
		{"escape after a nested object", `{"quadrants":{"threats":[]},"title":"a\u001bb"}`, "title"},
		{"DEL", `{"nome":"a\u007fb"}`, "nome"},
		{"C1 next line", `{"nome":"a\u0085b"}`, "nome"},
		{"inside a list of objects", `{"itens":[{"rotulo":"ok"},{"rotulo":"\u0000"}]}`, "rotulo"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec, _, ok := decode(c.body)
			if ok || rec.Code != http.StatusUnprocessableEntity {
				t.Fatalf("ok=%v status %d", ok, rec.Code)
			}
			e := decodeError(t, rec)
			if e.Error.Message != "Verifique os campos destacados." || e.Error.Fields[c.field] != "Este campo contém caracteres de controle não permitidos." {
				t.Fatalf("error %+v, want a message on %q", e.Error, c.field)
			}
		})
	}

	// A control character outside any field (a key, a bare string) still gets a clear 422.
	for _, body := range []string{`{"ti\u0000tle":"x"}`, `"\u0000"`} {
		rec := httptest.NewRecorder()
		var v any
		if DecodeJSON(rec, httptest.NewRequest("POST", "/", strings.NewReader(body)), &v) || rec.Code != 422 {
			t.Fatalf("%s: status %d", body, rec.Code)
		}
		if e := decodeError(t, rec); e.Error.Message != "O texto enviado contém caracteres de controle não permitidos." {
			t.Fatalf("%s: %+v", body, e.Error)
		}
	}
}

func TestDecodeJSONKeepsLineBreaksAndTabs(t *testing.T) {
	rec, v, ok := decode(`{"texto":"linha 1\nlinha 2\r\n\tfim","n":1.5,"lista":[true,null,"ç"]}`)
	if !ok {
		t.Fatalf("refused: %d %s", rec.Code, rec.Body.String())
	}
	if v["texto"] != "linha 1\nlinha 2\r\n\tfim" {
		t.Fatalf("decoded %q", v["texto"])
	}
}

func TestDecodeJSONRefusesMalformedAndOversizedBodies(t *testing.T) {
	rec, _, ok := decode(`{"title":`)
	if ok || rec.Code != 422 || decodeError(t, rec).Error.Message != "JSON inválido no corpo da requisição." {
		t.Fatalf("malformed: %d %s", rec.Code, rec.Body.String())
	}
	rec, _, ok = decode(`{"title":"` + strings.Repeat("a", maxBody) + `"}`)
	if ok || rec.Code != http.StatusRequestEntityTooLarge || decodeError(t, rec).Error.Code != "too_large" {
		t.Fatalf("oversized: %d %s", rec.Code, rec.Body.String())
	}
}

func TestWriteErrorKeepsStatusesApart(t *testing.T) {
	want := map[int]string{
		400: "invalid", 422: "invalid", 401: "unauthorized", 403: "forbidden", 404: "not_found",
		405: "method_not_allowed", 409: "conflict", 413: "too_large", 423: "locked",
		429: "rate_limited", 500: "internal", 502: "internal", 503: "unavailable",
	}
	for status, code := range want {
		rec := httptest.NewRecorder()
		WriteError(rec, status, "Mensagem.", nil)
		if rec.Code != status {
			t.Errorf("%d answered as %d", status, rec.Code)
		}
		if got := decodeError(t, rec).Error.Code; got != code {
			t.Errorf("status %d has code %q, want %q", status, got, code)
		}
	}
}

func TestWriteHostErrorKeepsUnauthorizedRateLimitedAndUnavailableApart(t *testing.T) {
	cases := []struct {
		err     error
		status  int
		code    string
		message string
	}{
		{status.Error(codes.Unauthenticated, "session gone"), 401, "unauthorized", hostUnauthenticated},
		{status.Error(codes.ResourceExhausted, "daily budget spent"), 429, "rate_limited", hostRateLimited},
		{status.Error(codes.Unavailable, "database down"), 503, "unavailable", hostUnavailable},
		{status.Error(codes.DeadlineExceeded, "slow"), 503, "unavailable", hostUnavailable},
		{status.Error(codes.InvalidArgument, "syntax error"), 500, "internal", "Não foi possível salvar."},
		{errors.New("not a grpc error"), 500, "internal", "Não foi possível salvar."},
	}
	for _, c := range cases {
		// Host methods wrap the gRPC error with %w; the code must survive that.
		err := fmt.Errorf("host: exec: %w", c.err)
		rec := httptest.NewRecorder()
		WriteHostError(rec, err, "Não foi possível salvar.")
		e := decodeError(t, rec)
		if rec.Code != c.status || e.Error.Code != c.code || e.Error.Message != c.message {
			t.Errorf("%v: %d %+v, want %d %s %q", c.err, rec.Code, e.Error, c.status, c.code, c.message)
		}
	}
}
