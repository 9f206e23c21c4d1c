//go:build race

package pluginhost_test

// raceMemory is the plugins' data limit when the tests run under the race
// detector: the sandbox helper is then the race-built test binary, whose
// detector maps far more than the default 256 MiB before it execs the
// plugin.
const raceMemory = 1 << 40
