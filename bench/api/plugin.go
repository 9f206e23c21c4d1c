package api

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	goplugin "github.com/hashicorp/go-plugin"

	"github.com/vetclube/vetclube/core/pluginhost"
	"github.com/vetclube/vetclube/plugins/proto/pluginpb"
	"github.com/vetclube/vetclube/plugins/sdk/hostside"
)

// The plugin row compares a tool call through the real host (HTTP, session,
// authorisation, request token, logging, then gRPC to the plugin) with the
// floor: the same plugin binary started by go-plugin from this same process,
// its echo route called with one bare gRPC Handle per HTTP request. Both sides
// are this process and one plugin process, with the host's transport
// settings (gRPC, AutoMTLS, checksum), so the ratio is the host's overhead.

// fixturePlugin is the host tests' plugin (core/pluginhost/internal/fixture):
// its GET /echo answers the caller's user, path and query and nothing else.
const (
	fixturePlugin = "fixture"
	fixturePkg    = "github.com/vetclube/vetclube/core/pluginhost/internal/fixture"
)

// buildPlugin compiles the fixture plugin into a fresh plugin directory with
// its checksum recorded, as `make plugins` installs plugins.
func buildPlugin(t testing.TB) (dir, path string) {
	t.Helper()
	dir = t.TempDir()
	path = filepath.Join(dir, fixturePlugin)
	cmd := exec.Command("go", "build", "-o", path, fixturePkg)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("bench-api: build the %s plugin: %v\n%s", fixturePlugin, err, out)
	}
	if err := pluginhost.RecordChecksum(path); err != nil {
		t.Fatalf("bench-api: %v", err)
	}
	// The news plugin declares the type the news-list row reads, the
	// comunidade plugin the posts the feed rows read, the cursos plugin the
	// courses the course-list row reads.
	for _, p := range []struct{ name, pkg string }{{newsPlugin, newsPkg}, {comunidade, comunidadePkg}, {cursos, cursosPkg}} {
		bin := filepath.Join(dir, p.name)
		if out, err := exec.Command("go", "build", "-o", bin, p.pkg).CombinedOutput(); err != nil {
			t.Fatalf("bench-api: build the %s plugin: %v\n%s", p.name, err, out)
		}
		if err := pluginhost.RecordChecksum(bin); err != nil {
			t.Fatalf("bench-api: %v", err)
		}
	}
	return dir, path
}

// bareHost answers no Host API call: the echo makes none.
type bareHost struct {
	pluginpb.UnimplementedHostServer
}

// startBarePlugin launches the plugin binary with go-plugin as the host does
// and returns its gRPC client, described and ready for calls.
func startBarePlugin(t testing.TB, path string) *hostside.Client {
	t.Helper()
	sum, err := pluginhost.FileSHA256(path)
	if err != nil {
		t.Fatalf("bench-api: %v", err)
	}
	raw, err := hex.DecodeString(sum)
	if err != nil {
		t.Fatalf("bench-api: checksum: %v", err)
	}
	client := goplugin.NewClient(&goplugin.ClientConfig{
		HandshakeConfig: hostside.Handshake(),
		Plugins: map[string]goplugin.Plugin{hostside.PluginName: &hostside.Plugin{
			HostServer: func() pluginpb.HostServer { return bareHost{} },
		}},
		Cmd:              exec.Command(path),
		AllowedProtocols: []goplugin.Protocol{goplugin.ProtocolGRPC},
		AutoMTLS:         true,
		SecureConfig:     &goplugin.SecureConfig{Checksum: raw, Hash: sha256.New()},
		StartTimeout:     10 * time.Second,
		Logger:           hclog.NewNullLogger(),
	})
	t.Cleanup(client.Kill)
	rpc, err := client.Client()
	if err != nil {
		t.Fatalf("bench-api: start %s: %v", path, err)
	}
	disp, err := rpc.Dispense(hostside.PluginName)
	if err != nil {
		t.Fatalf("bench-api: dispense: %v", err)
	}
	c, ok := disp.(*hostside.Client)
	if !ok {
		t.Fatalf("bench-api: dispense returned %T", disp)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := c.Describe(ctx, &pluginpb.DescribeRequest{HostBrokerId: c.HostBrokerID, CoreVersion: "1.0.0"}); err != nil {
		t.Fatalf("bench-api: describe: %v", err)
	}
	return c
}

// pluginEcho is the floor's tool route: one gRPC Handle, its answer copied out.
func (f *floor) pluginEcho(c *hostside.Client) func(w http.ResponseWriter, r *http.Request, userID string) error {
	return func(w http.ResponseWriter, r *http.Request, userID string) error {
		res, err := c.Handle(r.Context(), &pluginpb.HTTPRequest{
			Method: r.Method, Path: strings.TrimPrefix(r.URL.Path, "/api/tools/"+fixturePlugin), RawQuery: r.URL.RawQuery,
			User: &pluginpb.User{Id: userID, Roles: []string{"user"}, Subscription: "none"},
		})
		if err != nil {
			return fmt.Errorf("plugin call: %w", err)
		}
		for _, h := range res.Headers {
			for _, v := range h.Values {
				w.Header().Add(h.Name, v)
			}
		}
		w.WriteHeader(int(res.Status))
		_, err = w.Write(res.Body)
		return err
	}
}
