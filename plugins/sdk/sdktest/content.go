package sdktest

import (
	"context"
	"fmt"

	"github.com/vetclube/vetclube/plugins/sdk"
	"github.com/vetclube/vetclube/plugins/sdk/internal/bridge"
)

// The content hooks are called the way a plugin process receives them: the
// item is encoded to its wire form and decoded again first (fields as JSON,
// media assets by field name), so a hook under test reads what the core
// would send, not the Go value the test built.

// ValidateContent runs tool's ValidateContent hook on item (an empty check
// when the tool does not implement it).
func (h *Host) ValidateContent(ctx context.Context, tool sdk.Tool, item sdk.ContentItem) (sdk.ContentCheck, error) {
	if tool.Content.ValidateContent == nil {
		return sdk.ContentCheck{}, nil
	}
	it, err := h.wire(item)
	if err != nil {
		return sdk.ContentCheck{}, err
	}
	return tool.Content.ValidateContent(ctx, h.Host, it)
}

// BeforeTransition runs tool's BeforeTransition hook on moving item to the
// state to and returns its refusal ("" when the move is allowed or the tool
// does not implement the hook).
func (h *Host) BeforeTransition(ctx context.Context, tool sdk.Tool, item sdk.ContentItem, to string) (string, error) {
	if tool.Content.BeforeTransition == nil {
		return "", nil
	}
	it, err := h.wire(item)
	if err != nil {
		return "", err
	}
	return tool.Content.BeforeTransition(ctx, h.Host, it, to)
}

// AfterPublish runs tool's AfterPublish hook on item.
func (h *Host) AfterPublish(ctx context.Context, tool sdk.Tool, item sdk.ContentItem) error {
	if tool.Content.AfterPublish == nil {
		return nil
	}
	it, err := h.wire(item)
	if err != nil {
		return err
	}
	return tool.Content.AfterPublish(ctx, h.Host, it)
}

func (h *Host) wire(item sdk.ContentItem) (sdk.ContentItem, error) {
	pb, err := bridge.ContentItemPB(item)
	if err != nil {
		return sdk.ContentItem{}, fmt.Errorf("sdktest: %w", err)
	}
	it, err := bridge.ContentItem(pb)
	if err != nil {
		return sdk.ContentItem{}, fmt.Errorf("sdktest: %w", err)
	}
	return it.(sdk.ContentItem), nil
}
