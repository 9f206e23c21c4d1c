package main

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// TestMain gives the SQL tests a database of their own with pg_trgm, as
// the core's migrations give the real one (the shared test server's
// default database has no extensions), and drops it afterwards.
func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	base := os.Getenv("TEST_DATABASE_URL")
	if base == "" {
		base = "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		fmt.Fprintln(os.Stderr, "doencas tests: no PostgreSQL:", err)
		return 1
	}
	defer conn.Close(context.Background())
	name := fmt.Sprintf("doencas_test_%d_%d", os.Getpid(), time.Now().UnixNano()%1_000_000)
	if _, err := conn.Exec(ctx, `CREATE DATABASE `+pgx.Identifier{name}.Sanitize()); err != nil {
		fmt.Fprintln(os.Stderr, "doencas tests: create database:", err)
		return 1
	}
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_, _ = conn.Exec(ctx, `DROP DATABASE IF EXISTS `+pgx.Identifier{name}.Sanitize()+` WITH (FORCE)`)
	}()
	cfg, err := pgx.ParseConfig(base)
	if err != nil {
		fmt.Fprintln(os.Stderr, "doencas tests:", err)
		return 1
	}
	cfg.Database = name
	url := fmt.Sprintf("postgres://%s@%s:%d/%s?sslmode=disable", cfg.User, cfg.Host, cfg.Port, name)
	if cfg.Password != "" {
		url = fmt.Sprintf("postgres://%s:%s@%s:%d/%s?sslmode=disable", cfg.User, cfg.Password, cfg.Host, cfg.Port, name)
	}
	db, err := pgx.Connect(ctx, url)
	if err != nil {
		fmt.Fprintln(os.Stderr, "doencas tests: connect:", err)
		return 1
	}
	_, err = db.Exec(ctx, `CREATE EXTENSION IF NOT EXISTS pg_trgm`)
	db.Close(context.Background())
	if err != nil {
		fmt.Fprintln(os.Stderr, "doencas tests: pg_trgm:", err)
		return 1
	}
	os.Setenv("TEST_DATABASE_URL", url)
	return m.Run()
}
