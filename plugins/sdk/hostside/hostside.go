// Package hostside is the core's end of the plugin protocol: the go-plugin
// handshake, the plugin set to dispense the tool from, and the client the
// host gets. Plugin authors never import it; it lives beside the SDK so
// both ends share one definition of the wire, and imports nothing of the
// core.
package hostside

import (
	"context"
	"errors"

	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"github.com/vetclube/vetclube/plugins/proto/pluginpb"
)

// The handshake is shared by the host and every plugin; a binary started
// without it (for example by hand) refuses to run. ProtocolVersion changes
// only on a breaking wire change, which the additive proto rules avoid.
const (
	HandshakeProtocolVersion = 1
	HandshakeCookieKey       = "VETCLUBE_PLUGIN"
	HandshakeCookieValue     = "f1b9d1c2-ferramentas"
	// PluginName is the go-plugin dispense name of the tool service.
	PluginName = "tool"
)

// Handshake returns the go-plugin handshake.
func Handshake() plugin.HandshakeConfig {
	return plugin.HandshakeConfig{
		ProtocolVersion:  HandshakeProtocolVersion,
		MagicCookieKey:   HandshakeCookieKey,
		MagicCookieValue: HandshakeCookieValue,
	}
}

// Client is what the host gets from Dispense: the plugin's gRPC client and
// the broker id on which the plugin reaches the host API.
type Client struct {
	pluginpb.PluginClient
	HostBrokerID uint32
}

// Plugin is the go-plugin glue on the host's side. Its GRPCClient serves the
// host API (HostServer) over the broker; the plugin's side is served by
// ServePlugin, which the plugin sets (package sdk's Serve, or a test plugin
// speaking the wire itself) and the host leaves nil.
type Plugin struct {
	plugin.NetRPCUnsupportedPlugin
	// HostServer builds the host API answering this plugin's calls.
	HostServer func() pluginpb.HostServer
	// ServePlugin registers the plugin's side (plugin processes only).
	ServePlugin func(broker *plugin.GRPCBroker, s *grpc.Server) error
}

// GRPCServer registers the plugin's side.
func (p *Plugin) GRPCServer(broker *plugin.GRPCBroker, s *grpc.Server) error {
	if p.ServePlugin == nil {
		return errors.New("hostside: no plugin server (the host side cannot serve a tool)")
	}
	return p.ServePlugin(broker, s)
}

// GRPCClient returns the host's client of the plugin, serving HostServer on
// a new broker id the plugin dials back.
func (p *Plugin) GRPCClient(_ context.Context, broker *plugin.GRPCBroker, c *grpc.ClientConn) (any, error) {
	id := broker.NextId()
	if p.HostServer != nil {
		host := p.HostServer()
		go broker.AcceptAndServe(id, func(opts []grpc.ServerOption) *grpc.Server {
			s := grpc.NewServer(opts...)
			pluginpb.RegisterHostServer(s, host)
			return s
		})
	}
	return &Client{PluginClient: pluginpb.NewPluginClient(c), HostBrokerID: id}, nil
}
