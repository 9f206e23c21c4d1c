// Command vetclube is the VetClube server: `vetclube help` lists its commands.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/vetclube/vetclube/core/app"
	"github.com/vetclube/vetclube/core/app/seed"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := app.Main(ctx, seed.Run)
	stop()
	os.Exit(code)
}
