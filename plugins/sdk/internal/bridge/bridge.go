// Package bridge lets the SDK's own test kit (plugins/sdk/sdktest) build the
// values package sdk keeps unexported: a Host over any HostClient and a
// request context carrying a user. Package sdk fills these in at init; being
// internal, they are no part of a plugin author's API.
package bridge

import (
	"context"

	"github.com/vetclube/vetclube/plugins/proto/pluginpb"
)

// NewHost builds an *sdk.Host (returned as any, since this package cannot
// import sdk) whose calls go to c.
var NewHost func(c pluginpb.HostClient) any

// WithUser returns ctx carrying the signed-in user and the request token the
// host uses to tell which request a call belongs to.
var WithUser func(ctx context.Context, id string, roles []string, subscription, token string) context.Context

// ContentItemPB encodes an sdk.ContentItem (passed as any) the way the core
// sends it to a content hook.
var ContentItemPB func(it any) (*pluginpb.ContentItem, error)

// ContentItem decodes a wire item into an sdk.ContentItem (returned as any),
// as a plugin process does before calling its hook.
var ContentItem func(pb *pluginpb.ContentItem) (any, error)
