package httpapi

import (
	"github.com/vetclube/vetclube/core/profiles"
	"github.com/vetclube/vetclube/core/roles"
)

// addRoutes lists every route of the API. Each one passes through its casbin
// policy (core/authz/policy.csv), is documented in openapi.json, and has a row
// in the authorisation matrix test; tests fail when any of the three is missing.
func addRoutes(rt *router, d Deps) {
	// Platform
	rt.handle("GET", "/healthz", handleHealthz())
	rt.handle("GET", "/readyz", handleReadyz(d.Pool))
	rt.handle("GET", "/api/openapi.json", handleOpenAPI())

	// Profiles: the own-profile routes act on the signed-in user only.
	rt.handle("GET", "/api/profile", profiles.HandleGetOwn(d.Log, d.Profiles))
	rt.handle("PUT", "/api/profile", profiles.HandleUpdateOwn(d.Log, d.Profiles))
	rt.handle("GET", "/api/profile/completeness", profiles.HandleCompleteness(d.Log, d.Profiles))
	rt.handle("POST", "/api/profile/avatar", profiles.HandleAvatar(d.Log, d.Profiles))
	rt.handle("GET", "/api/profiles/{id}", profiles.HandlePublic(d.Log, d.Profiles))
	rt.handle("GET", "/api/specialties", profiles.HandleSpecialties(d.Log))
	rt.handle("GET", "/uploads/*", d.Uploads)

	// Tools: plugins (core/pluginhost); premium tools are refused inside the
	// handler by the casbin capability tool:premium, so they can be listed.
	rt.handle("GET", "/api/tools", d.Tools.HandleList(d.Authz, d.Log))
	for _, method := range []string{"GET", "POST", "PUT", "DELETE"} {
		rt.handle(method, "/api/tools/{id}/*", d.Tools.HandleCall(d.Authz, d.Log))
	}

	// Backoffice
	rt.handle("GET", "/api/admin/users", roles.HandleListUsers(d.Log, d.Roles))
}
