package pluginhost

import (
	"fmt"
	"strconv"
	"strings"
)

type versionError struct {
	plugin, need, have string
}

func (e *versionError) Error() string {
	return fmt.Sprintf("plugin %s needs core %s or newer; this core is %s", e.plugin, e.need, e.have)
}

// versionAtLeast reports whether have >= need, comparing dotted numbers
// (major.minor.patch; a missing part counts as 0, a pre-release suffix is ignored).
func versionAtLeast(have, need string) (bool, error) {
	h, err := parseVersion(have)
	if err != nil {
		return false, err
	}
	n, err := parseVersion(need)
	if err != nil {
		return false, err
	}
	for i := range 3 {
		if h[i] != n[i] {
			return h[i] > n[i], nil
		}
	}
	return true, nil
}

func parseVersion(v string) ([3]int, error) {
	var out [3]int
	v = strings.TrimPrefix(strings.TrimSpace(v), "v")
	v, _, _ = strings.Cut(v, "-")
	parts := strings.Split(v, ".")
	if len(parts) == 0 || len(parts) > 3 || parts[0] == "" {
		return out, fmt.Errorf("invalid version %q", v)
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return out, fmt.Errorf("invalid version %q", v)
		}
		out[i] = n
	}
	return out, nil
}
