//go:build !js

package sdk

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
	"runtime/debug"
	"sync"
	"time"

	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"github.com/vetclube/vetclube/plugins/proto/pluginpb"
	"github.com/vetclube/vetclube/plugins/sdk/hostside"
)

// Serve runs the plugin until the host stops it. It never returns normally.
// It also exits when the host process disappears (even after SIGKILL, when
// the host cannot stop it): an orphaned plugin is reparented, so its parent
// pid changes.
func Serve(t Tool) {
	if err := t.Manifest.Validate(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	go exitWhenOrphaned(os.Getppid(), 200*time.Millisecond)
	plugin.Serve(&plugin.ServeConfig{
		HandshakeConfig: hostside.Handshake(),
		Plugins:         map[string]plugin.Plugin{hostside.PluginName: pluginSide(&t)},
		GRPCServer:      plugin.DefaultGRPCServer,
	})
	os.Exit(0)
}

func exitWhenOrphaned(parent int, every time.Duration) {
	for range time.Tick(every) {
		if os.Getppid() != parent {
			os.Exit(0)
		}
	}
}

// pluginSide is the go-plugin glue serving t.
func pluginSide(t *Tool) *hostside.Plugin {
	return &hostside.Plugin{ServePlugin: func(broker *plugin.GRPCBroker, s *grpc.Server) error {
		pluginpb.RegisterPluginServer(s, &server{tool: t, broker: broker})
		return nil
	}}
}

type server struct {
	pluginpb.UnimplementedPluginServer
	tool   *Tool
	broker *plugin.GRPCBroker

	mu      sync.Mutex
	host    *Host
	handler http.Handler
}

func (s *server) Describe(ctx context.Context, req *pluginpb.DescribeRequest) (*pluginpb.DescribeResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.host == nil {
		conn, err := s.broker.Dial(req.HostBrokerId)
		if err != nil {
			return nil, fmt.Errorf("dial host api: %w", err)
		}
		s.host = newHost(pluginpb.NewHostClient(conn))
		if s.tool.Handler != nil {
			s.handler = s.tool.Handler(s.host)
		} else {
			// A content plugin needs no HTTP API of its own: the core
			// serves its items.
			s.handler = http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				WriteError(w, http.StatusNotFound, "Recurso não encontrado.", nil)
			})
		}
	}
	m := s.tool.Manifest
	pm := &pluginpb.Manifest{
		Id: m.ID, Name: m.Name, Description: m.Description, Version: m.Version,
		MinCoreVersion: m.MinCoreVersion, Kind: m.Kind, Icon: m.Icon, Category: m.Category,
		Slug: m.Slug, Access: m.Access, UiKind: m.UIKind, Limits: m.Limits,
	}
	if len(m.Forms) > 0 {
		schema, err := jsonMarshal(map[string]any{"forms": m.Forms})
		if err != nil {
			return nil, err
		}
		pm.UiSchema = schema
	}
	types, err := contentTypesJSON(m)
	if err != nil {
		return nil, err
	}
	pm.ContentTypes = types
	for _, mig := range s.tool.Migrations {
		pm.Migrations = append(pm.Migrations, &pluginpb.Migration{Version: int32(mig.Version), Name: mig.Name, Sql: mig.SQL})
	}
	res := &pluginpb.DescribeResponse{Manifest: pm, SdkVersion: Version}
	if s.tool.DashboardCard != nil {
		res.Hooks = append(res.Hooks, pluginpb.Hook_HOOK_DASHBOARD_CARD)
	}
	if s.tool.Content.ValidateContent != nil {
		res.Hooks = append(res.Hooks, pluginpb.Hook_HOOK_VALIDATE_CONTENT)
	}
	if s.tool.Content.BeforeTransition != nil {
		res.Hooks = append(res.Hooks, pluginpb.Hook_HOOK_BEFORE_TRANSITION)
	}
	if s.tool.Content.AfterPublish != nil {
		res.Hooks = append(res.Hooks, pluginpb.Hook_HOOK_AFTER_PUBLISH)
	}
	return res, nil
}

func contentItem(pb *pluginpb.ContentItem) (ContentItem, error) {
	if pb == nil {
		return ContentItem{}, errors.New("content hook called without an item")
	}
	it := ContentItem{ID: pb.Id, Type: pb.Type, Status: pb.Status, Version: int(pb.Version), Slug: pb.Slug,
		Title: pb.Title, Summary: pb.Summary, AuthorID: pb.AuthorId, Published: pb.Published, Fields: map[string]any{}}
	if len(pb.Fields) > 0 {
		if err := json.Unmarshal(pb.Fields, &it.Fields); err != nil {
			return ContentItem{}, fmt.Errorf("decode item fields: %w", err)
		}
	}
	it.Media = mediaAssets(pb.Media)
	return it, nil
}

// contentItemPB is contentItem's inverse: the wire form of it, as the core
// builds it (the test kit sends items through it so hooks under test read
// exactly what a plugin process would).
func contentItemPB(it ContentItem) (*pluginpb.ContentItem, error) {
	pb := &pluginpb.ContentItem{Id: it.ID, Type: it.Type, Status: it.Status, Version: int32(it.Version), Slug: it.Slug,
		Title: it.Title, Summary: it.Summary, AuthorId: it.AuthorID, Published: it.Published}
	if it.Fields != nil {
		b, err := json.Marshal(it.Fields)
		if err != nil {
			return nil, fmt.Errorf("encode item fields: %w", err)
		}
		pb.Fields = b
	}
	if len(it.Media) > 0 {
		pb.Media = make(map[string]*pluginpb.MediaAsset, len(it.Media))
		for field, a := range it.Media {
			pb.Media[field] = &pluginpb.MediaAsset{Id: a.ID, Kind: a.Kind, State: a.State, ProgressPercent: int32(a.ProgressPercent),
				DurationSeconds: a.DurationSeconds, Error: a.Error}
		}
	}
	return pb, nil
}

func mediaAssets(pb map[string]*pluginpb.MediaAsset) map[string]MediaAsset {
	if len(pb) == 0 {
		return nil
	}
	out := make(map[string]MediaAsset, len(pb))
	for field, a := range pb {
		if a == nil {
			continue
		}
		out[field] = MediaAsset{ID: a.Id, Kind: a.Kind, State: a.State, ProgressPercent: int(a.ProgressPercent),
			DurationSeconds: a.DurationSeconds, Error: a.Error}
	}
	return out
}

func (s *server) ValidateContent(ctx context.Context, req *pluginpb.ValidateContentRequest) (*pluginpb.ValidateContentResponse, error) {
	host, _ := s.current()
	if s.tool.Content.ValidateContent == nil || host == nil {
		return &pluginpb.ValidateContentResponse{}, nil
	}
	it, err := contentItem(req.Item)
	if err != nil {
		return nil, err
	}
	check, err := s.tool.Content.ValidateContent(ctx, host, it)
	if err != nil {
		return nil, err
	}
	out := &pluginpb.ValidateContentResponse{FieldErrors: check.Errors}
	if len(check.Computed) > 0 {
		if out.Computed, err = json.Marshal(check.Computed); err != nil {
			return nil, fmt.Errorf("encode computed fields: %w", err)
		}
	}
	return out, nil
}

func (s *server) BeforeTransition(ctx context.Context, req *pluginpb.BeforeTransitionRequest) (*pluginpb.BeforeTransitionResponse, error) {
	host, _ := s.current()
	if s.tool.Content.BeforeTransition == nil || host == nil {
		return &pluginpb.BeforeTransitionResponse{}, nil
	}
	it, err := contentItem(req.Item)
	if err != nil {
		return nil, err
	}
	refusal, err := s.tool.Content.BeforeTransition(ctx, host, it, req.To)
	if err != nil {
		return nil, err
	}
	return &pluginpb.BeforeTransitionResponse{Refusal: refusal}, nil
}

func (s *server) AfterPublish(ctx context.Context, req *pluginpb.AfterPublishRequest) (*pluginpb.AfterPublishResponse, error) {
	host, _ := s.current()
	if s.tool.Content.AfterPublish == nil || host == nil {
		return &pluginpb.AfterPublishResponse{}, nil
	}
	it, err := contentItem(req.Item)
	if err != nil {
		return nil, err
	}
	return &pluginpb.AfterPublishResponse{}, s.tool.Content.AfterPublish(ctx, host, it)
}

func (s *server) current() (*Host, http.Handler) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.host, s.handler
}

// panicMessage is what a user reads when the tool itself failed.
const panicMessage = "A ferramenta encontrou um erro inesperado. Tente novamente."

func (s *server) Handle(ctx context.Context, req *pluginpb.HTTPRequest) (res *pluginpb.HTTPResponse, err error) {
	host, h := s.current()
	if h == nil {
		return nil, errors.New("plugin not described yet")
	}
	defer func() {
		// A panic fails this request only; the process and other requests go on.
		if v := recover(); v != nil {
			host.Logger().Error("panic while handling request", "panic", fmt.Sprint(v), "path", req.Path, "stack", string(debug.Stack()))
			res = &pluginpb.HTTPResponse{
				Status:  http.StatusInternalServerError,
				Headers: []*pluginpb.Header{{Name: "Content-Type", Values: []string{"application/json; charset=utf-8"}}},
				Body:    []byte(`{"error":{"code":"internal","message":"` + panicMessage + `"}}`),
			}
			err = nil
		}
	}()
	u := &url.URL{Path: req.Path, RawQuery: req.RawQuery}
	r, err := http.NewRequestWithContext(ctx, req.Method, u.String(), bytes.NewReader(req.Body))
	if err != nil {
		return nil, fmt.Errorf("build request: %w", err)
	}
	for _, hd := range req.Headers {
		for _, v := range hd.Values {
			r.Header.Add(hd.Name, v)
		}
	}
	if req.RequestId != "" {
		r.Header.Set("X-Request-Id", req.RequestId)
	}
	user := User{}
	if req.User != nil {
		user = User{ID: req.User.Id, Roles: req.User.Roles, Subscription: req.User.Subscription}
	}
	r = r.WithContext(withUser(ctx, user, req.RequestToken))
	// net/http's own recorder: status 200 unless the handler wrote another.
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	out := &pluginpb.HTTPResponse{Status: int32(rec.Code), Body: rec.Body.Bytes()}
	for name, values := range rec.Header() {
		out.Headers = append(out.Headers, &pluginpb.Header{Name: name, Values: values})
	}
	return out, nil
}

func (s *server) CheckHealth(ctx context.Context, _ *pluginpb.HealthRequest) (*pluginpb.HealthResponse, error) {
	if s.tool.Health != nil {
		if err := s.tool.Health(ctx); err != nil {
			return &pluginpb.HealthResponse{Ok: false, Message: err.Error()}, nil
		}
	}
	return &pluginpb.HealthResponse{Ok: true}, nil
}

func (s *server) DashboardCard(ctx context.Context, req *pluginpb.DashboardCardRequest) (*pluginpb.DashboardCardResponse, error) {
	host, _ := s.current()
	if s.tool.DashboardCard == nil || host == nil {
		return &pluginpb.DashboardCardResponse{}, nil
	}
	user := User{}
	if req.User != nil {
		user = User{ID: req.User.Id, Roles: req.User.Roles, Subscription: req.User.Subscription}
	}
	card, err := s.tool.DashboardCard(withUser(ctx, user, req.RequestToken), host, user)
	if err != nil || card == nil {
		return &pluginpb.DashboardCardResponse{}, err
	}
	return &pluginpb.DashboardCardResponse{Show: true, Title: card.Title, Body: card.Body, Link: card.Link}, nil
}
