// Command devoidc is a development-only OpenID Connect provider standing in
// for Google, so "Entrar com Google" works locally and in browser tests
// without network access. Every sign-in is answered at once as the user the
// flags describe. It prints the variables to start VetClube with:
//
//	go run ./cmd/devoidc -addr 127.0.0.1:9400
//	GOOGLE_ISSUER=http://127.0.0.1:9400/oidc GOOGLE_CLIENT_ID=vetclube-dev GOOGLE_CLIENT_SECRET=vetclube-dev-secret make run
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/vetclube/vetclube/core/auth/devoidc"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:9400", "listen address (loopback only for development)")
	clientID := flag.String("client-id", "vetclube-dev", "OAuth client id to accept")
	clientSecret := flag.String("client-secret", "vetclube-dev-secret", "OAuth client secret to accept")
	email := flag.String("email", "google.demo@vetclube.dev", "email of the signed-in user")
	verified := flag.Bool("email-verified", true, "whether the provider says the email is verified")
	given := flag.String("given-name", "Gabriela", "given_name claim")
	family := flag.String("family-name", "Google", "family_name claim")
	picture := flag.String("picture", "", "picture claim (URL)")
	subject := flag.String("subject", "dev-google-subject-1", "sub claim: a stable id for the user")
	format := flag.String("format", "env", "how to print the configuration: env or json")
	flag.Parse()

	p, err := devoidc.StartWith(*addr, &devoidc.User{
		Subject: *subject, Email: *email, EmailVerified: *verified,
		GivenName: *given, FamilyName: *family, Picture: *picture,
	}, *clientID, *clientSecret)
	if err != nil {
		fmt.Fprintln(os.Stderr, "devoidc:", err)
		os.Exit(1)
	}
	cfg := map[string]string{
		"GOOGLE_ISSUER":        p.Issuer(),
		"GOOGLE_CLIENT_ID":     p.ClientID,
		"GOOGLE_CLIENT_SECRET": p.ClientSecret,
	}
	switch *format {
	case "json":
		_ = json.NewEncoder(os.Stdout).Encode(cfg)
	default:
		for _, k := range []string{"GOOGLE_ISSUER", "GOOGLE_CLIENT_ID", "GOOGLE_CLIENT_SECRET"} {
			fmt.Printf("%s=%s\n", k, cfg[k])
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	<-ctx.Done()
	_ = p.Shutdown()
}
