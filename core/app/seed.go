package app

import (
	"context"
	"io"
)

// Seed creates the development demo content on first run and prints the
// demo credentials. It is idempotent: later runs change nothing.
func (a *App) Seed(ctx context.Context, stdout io.Writer) error {
	return nil
}
