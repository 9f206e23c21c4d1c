package apptest

import (
	"sync"
	"time"
)

// Option adjusts an instance Start or StartOn runs.
type Option func(*options)

type options struct {
	now func() time.Time
}

// WithClock runs the instance's accounts and sessions (core/auth: tokens,
// lockouts and the rate limits) on now instead of the real clock, so a test
// decides which rate-limit window its requests fall in. Give every instance
// sharing a database the same clock. The content platform keeps its own
// clock (App.Content.SetClock).
func WithClock(now func() time.Time) Option {
	return func(o *options) { o.now = now }
}

// Clock is a settable clock for WithClock, safe for concurrent use.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// NewClock returns a clock standing at t until moved.
func NewClock(t time.Time) *Clock { return &Clock{t: t} }

// Now is the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Advance moves the clock d forward.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}
