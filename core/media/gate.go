package media

import "sync"

// uploadGate keeps the abandoned-upload sweep and incoming chunks apart. A
// PATCH marks its upload busy for as long as it runs; the sweep takes an
// upload only when no PATCH holds it, and a PATCH arriving while the sweep
// holds it is turned away (the client retries, and meets a removed upload).
// tusd's own lock cannot serve here: asking for it makes the holder stop,
// which would cut a live upload short. Uploads are served by this process
// only (the tus files are on its disk), so memory is enough.
type uploadGate struct {
	mu       sync.Mutex
	busy     map[string]int
	sweeping map[string]bool
}

func newUploadGate() *uploadGate {
	return &uploadGate{busy: map[string]int{}, sweeping: map[string]bool{}}
}

// enter marks uploadID busy; false while the sweep holds it.
func (g *uploadGate) enter(uploadID string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.sweeping[uploadID] {
		return false
	}
	g.busy[uploadID]++
	return true
}

func (g *uploadGate) leave(uploadID string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.busy[uploadID]--; g.busy[uploadID] <= 0 {
		delete(g.busy, uploadID)
	}
}

// trySweep lets the sweep hold uploadID; false while a PATCH runs on it.
func (g *uploadGate) trySweep(uploadID string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.busy[uploadID] > 0 || g.sweeping[uploadID] {
		return false
	}
	g.sweeping[uploadID] = true
	return true
}

func (g *uploadGate) doneSweep(uploadID string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	delete(g.sweeping, uploadID)
}
