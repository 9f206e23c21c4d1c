//go:build !js

package sdk

import (
	"context"

	"github.com/vetclube/vetclube/plugins/proto/pluginpb"
	"github.com/vetclube/vetclube/plugins/sdk/internal/bridge"
)

// The test kit builds hosts and signed-in requests the way Serve does.
func init() {
	bridge.NewHost = func(c pluginpb.HostClient) any { return newHost(c) }
	bridge.WithUser = func(ctx context.Context, id string, roles []string, subscription, token string) context.Context {
		return withUser(ctx, User{ID: id, Roles: roles, Subscription: subscription}, token)
	}
	bridge.ContentItemPB = func(it any) (*pluginpb.ContentItem, error) { return contentItemPB(it.(ContentItem)) }
	bridge.ContentItem = func(pb *pluginpb.ContentItem) (any, error) { return contentItem(pb) }
}
