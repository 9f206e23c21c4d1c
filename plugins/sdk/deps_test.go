package sdk

import (
	"os/exec"
	"strings"
	"testing"
)

// The SDK is read and built without the core: none of its packages (the
// author's API, sdktest, hostside) nor their tests may import anything
// under core/, so a plugin author needs only plugins/sdk and plugins/proto.
func TestSDKImportsNothingOfTheCore(t *testing.T) {
	const core = "github.com/vetclube/vetclube/core"
	out, err := exec.Command("go", "list", "-deps", "-test", "github.com/vetclube/vetclube/plugins/sdk/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	sawSDK := false
	for _, dep := range deps {
		if dep == core || strings.HasPrefix(dep, core+"/") {
			t.Errorf("the SDK depends on %s", dep)
		}
		if dep == "github.com/vetclube/vetclube/plugins/sdk/sdktest" {
			sawSDK = true
		}
	}
	// Guards against a listing that silently covers nothing.
	if !sawSDK || len(deps) < 20 {
		t.Fatalf("go list listed %d packages without sdktest: %s", len(deps), out)
	}
}
