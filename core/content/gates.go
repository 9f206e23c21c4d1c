package content

import (
	"context"
	"sync"
)

// Gate is a core feature's own check on a workflow move of an item of one
// type, run after the type plugin's BeforeTransition. It exists for rules a
// plugin cannot check because they read other items (a course may be
// published only with published modules and lessons: core/courses). A
// non-nil error refuses the move and is shown to the editor.
type Gate func(ctx context.Context, it Item, to Status) error

// GatedHooks are Hooks (the plugins') plus the core's gates per type.
type GatedHooks struct {
	Hooks
	mu    sync.RWMutex
	gates map[string][]Gate
}

// WithGates wraps h (NoHooks when nil) so that gates may be added to it.
func WithGates(h Hooks) *GatedHooks {
	if h == nil {
		h = NoHooks{}
	}
	return &GatedHooks{Hooks: h, gates: map[string][]Gate{}}
}

// AddGate runs gate on every move of an item of type typeID.
func (g *GatedHooks) AddGate(typeID string, gate Gate) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.gates[typeID] = append(g.gates[typeID], gate)
}

// BeforeTransition asks the plugin first, then each gate of the item's type.
func (g *GatedHooks) BeforeTransition(ctx context.Context, it Item, to Status) error {
	if err := g.Hooks.BeforeTransition(ctx, it, to); err != nil {
		return err
	}
	g.mu.RLock()
	gates := g.gates[it.Type]
	g.mu.RUnlock()
	for _, gate := range gates {
		if err := gate(ctx, it, to); err != nil {
			return err
		}
	}
	return nil
}
