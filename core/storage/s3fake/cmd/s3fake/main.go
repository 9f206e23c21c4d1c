// Command s3fake serves the tests' S3 (package s3fake) as a process, for the
// browser tests that run the real server against S3: it prints its base URL
// on the first line of its output and serves until stopped.
//
//	go run ./core/storage/s3fake/cmd/s3fake -buckets public,private
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/vetclube/vetclube/core/storage/s3fake"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "address to listen on")
	buckets := flag.String("buckets", "", "comma-separated buckets to create")
	flag.Parse()
	var names []string
	for _, b := range strings.Split(*buckets, ",") {
		if b = strings.TrimSpace(b); b != "" {
			names = append(names, b)
		}
	}
	s, err := s3fake.Listen(*addr, names...)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(s.URL)
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
	<-stop
	s.Close()
}
