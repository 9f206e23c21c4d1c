//go:build !js

package sdk

import (
	"context"
	"fmt"

	"github.com/vetclube/vetclube/plugins/proto/pluginpb"
)

// CheckLimit asks the core whether the request's member may have one more of
// the trial limit name (declared in Manifest.Limits), given used, the
// plugin's own count of what the member already has:
//
//	n := countPatients(ctx, user)
//	lim, err := host.CheckLimit(ctx, "patients", n)
//	if err != nil { sdk.WriteHostError(w, err, "Não foi possível verificar seu plano."); return }
//	if !lim.Allowed { sdk.WriteLimit(w, lim); return }
//
// Premium members are unlimited (Limit -1); everyone else has TRIAL_LIMITS'
// figure. An undeclared name is refused (PermissionDenied). Count and insert
// under the plugin's own lock or constraint when two requests may race.
func (h *Host) CheckLimit(ctx context.Context, name string, used int) (Limit, error) {
	res, err := h.c.CheckLimit(ctx, &pluginpb.CheckLimitRequest{RequestToken: requestToken(ctx), Name: name, Used: int64(used)})
	if err != nil {
		return Limit{}, fmt.Errorf("host: check limit %q: %w", name, err)
	}
	return Limit{Name: name, Allowed: res.Allowed, Limit: int(res.Limit), Used: int(res.Used), Reason: res.Reason}, nil
}
