package sdktest

import (
	"context"

	"github.com/vetclube/vetclube/plugins/sdk"
)

// ExportUser runs tool's LGPD export hook for userID the way the core calls
// it (Host calls act for that member); implemented is false when the tool
// has no hook, and then it exports nothing.
func (h *Host) ExportUser(ctx context.Context, tool sdk.Tool, userID string) (files []sdk.ExportFile, implemented bool, err error) {
	if tool.ExportUser == nil {
		return nil, false, nil
	}
	files, err = tool.ExportUser(h.Context(ctx, User(userID)), h.Host, userID)
	return files, true, err
}

// DeleteUser runs tool's LGPD deletion hook for userID; implemented is
// false when the tool has no hook.
func (h *Host) DeleteUser(ctx context.Context, tool sdk.Tool, userID string) (implemented bool, err error) {
	if tool.DeleteUser == nil {
		return false, nil
	}
	return true, tool.DeleteUser(h.Context(ctx, User(userID)), h.Host, userID)
}
