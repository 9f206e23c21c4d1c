//go:build !race

package pluginhost_test

// raceMemory is 0 without the race detector: the default data limit.
const raceMemory = 0
