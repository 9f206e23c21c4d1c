// Command fakeoai serves the in-repo OpenAI-compatible chat completions
// server (core/ai/fakeoai): answers composed from the VetClube passages in
// the system prompt, streamed word by word, without a language model.
//
//	go run ./cmd/fakeoai -addr 127.0.0.1:9500
//	OPENAI_BASE_URL=http://127.0.0.1:9500/v1/ ./bin/vetclube serve
//
// `vetclube serve` starts the same server in-process when OPENAI_BASE_URL is
// empty; this command is for running it on its own (browser tests, demos).
package main

import (
	"flag"
	"log"
	"net/http"
	"time"

	"github.com/vetclube/vetclube/core/ai/fakeoai"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:9500", "listen address (loopback)")
	delay := flag.Duration("chunk-delay", 25*time.Millisecond, "pause between streamed words")
	flag.Parse()
	srv := &http.Server{Addr: *addr, Handler: fakeoai.New(*delay), ReadHeaderTimeout: 5 * time.Second}
	log.Printf("fakeoai: OpenAI-compatible demo server on http://%s/v1/", *addr)
	log.Fatal(srv.ListenAndServe())
}
