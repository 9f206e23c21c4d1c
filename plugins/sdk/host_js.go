// In a browser (GOOS=js) a plugin runs only its pure form computation
// offline (package sdk/offline): there is no core to reach back to, so the
// host API and Serve are left out of the build, and with them gRPC and
// go-plugin. Host stays a type so that Tool and the hooks still compile.

package sdk

// Host is the core's API; in a browser build it has no methods.
type Host struct{}
