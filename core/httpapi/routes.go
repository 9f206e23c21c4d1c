package httpapi

// addRoutes lists every route of the API. Each one passes through its casbin
// policy (core/authz/policy.csv), is documented in openapi.json, and has a row
// in the authorisation matrix test; tests fail when any of the three is missing.
func addRoutes(rt *router, d Deps) {
	// Platform
	rt.handle("GET", "/healthz", handleHealthz())
	rt.handle("GET", "/readyz", handleReadyz(d.Pool))
	rt.handle("GET", "/api/openapi.json", handleOpenAPI())
}
