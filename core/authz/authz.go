// Package authz decides who may call what, with casbin, from one embedded
// model and policy (model.conf, policy.csv). Every route registered in
// core/httpapi/routes.go goes through Require; a route without a policy line
// is refused to everyone, and a test fails until one is written.
package authz

import (
	"embed"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"github.com/casbin/casbin/v2"
	"github.com/casbin/casbin/v2/model"
	stringadapter "github.com/casbin/casbin/v2/persist/string-adapter"

	"github.com/vetclube/vetclube/core"
)

//go:embed model.conf policy.csv
var files embed.FS

// Authorizer answers allow/deny for a principal's roles. Decisions are cached:
// the policy is embedded and never changes while the process runs.
type Authorizer struct {
	enforcer *casbin.Enforcer
	cache    sync.Map // "role\x00obj\x00act" -> bool
}

// New loads the embedded model and policy.
func New() (*Authorizer, error) {
	m, err := files.ReadFile("model.conf")
	if err != nil {
		return nil, err
	}
	mdl, err := model.NewModelFromString(string(m))
	if err != nil {
		return nil, fmt.Errorf("casbin model: %w", err)
	}
	policy, err := files.ReadFile("policy.csv")
	if err != nil {
		return nil, err
	}
	e, err := casbin.NewEnforcer(mdl, stringadapter.NewAdapter(policyText(string(policy))))
	if err != nil {
		return nil, fmt.Errorf("casbin enforcer: %w", err)
	}
	return &Authorizer{enforcer: e}, nil
}

// Allowed reports whether any of roles may perform act on obj.
func (a *Authorizer) Allowed(roles []string, obj, act string) bool {
	for _, role := range roles {
		key := role + "\x00" + obj + "\x00" + act
		if v, ok := a.cache.Load(key); ok {
			if v.(bool) {
				return true
			}
			continue
		}
		ok, err := a.enforcer.Enforce(role, obj, act)
		if err != nil {
			ok = false
		}
		a.cache.Store(key, ok)
		if ok {
			return true
		}
	}
	return false
}

// HasPolicy reports whether any policy line names obj and act, for the test
// that every registered route is covered.
func (a *Authorizer) HasPolicy(obj, act string) bool {
	rules, _ := a.enforcer.GetFilteredPolicy(1, obj, act)
	return len(rules) > 0
}

// Require wraps h so that only principals allowed to call method on pattern
// reach it. Visitors are told to sign in (401); signed-in users without the
// right get 403.
func (a *Authorizer) Require(method, pattern string, h http.Handler, deny func(w http.ResponseWriter, r *http.Request, err error)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := core.PrincipalFrom(r.Context())
		if a.Allowed(p.Roles, pattern, method) {
			h.ServeHTTP(w, r)
			return
		}
		if !p.Authenticated() {
			deny(w, r, core.NotSignedIn())
			return
		}
		deny(w, r, core.Errorf(core.EFORBIDDEN, "Você não tem permissão para acessar este recurso."))
	})
}

// policyText drops comments and blank lines, which the string adapter does
// not expect.
func policyText(raw string) string {
	var b strings.Builder
	for _, line := range strings.Split(raw, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		b.WriteString(line)
		b.WriteString("\n")
	}
	return b.String()
}
