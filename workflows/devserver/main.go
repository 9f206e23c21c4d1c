// Command temporal-dev is VetClube's embedded Temporal development server: the
// Temporal server's own packages with the SQLite persistence plugin, backed
// by one file so workflows survive restarts. It lives in its own Go module
// because the server module is large: the app binary and `go test ./...`
// never compile it. `make run` starts it as a child process when
// TEMPORAL_ADDRESS is empty; it exits when its parent goes away.
package main

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/server/common/authorization"
	"go.temporal.io/server/common/cluster"
	"go.temporal.io/server/common/config"
	"go.temporal.io/server/common/dynamicconfig"
	"go.temporal.io/server/common/log"
	sqliteplugin "go.temporal.io/server/common/persistence/sql/sqlplugin/sqlite"
	"go.temporal.io/server/schema/sqlite"
	"go.temporal.io/server/temporal"
	_ "modernc.org/sqlite"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "temporal-dev:", err)
		os.Exit(1)
	}
}

func run() error {
	dbPath := flag.String("db", ".data/temporal/temporal.sqlite", "SQLite database file (created on first start)")
	port := flag.Int("port", 7233, "frontend gRPC port on 127.0.0.1 (0 picks a free one)")
	namespace := flag.String("namespace", "default", "namespace to create")
	logFile := flag.String("log", "", "server log file (default: next to the database)")
	logLevel := flag.String("log-level", "warn", "server log level")
	watchStdin := flag.Bool("exit-on-stdin-eof", false, "exit when stdin closes (the parent died)")
	flag.Parse()

	if err := os.MkdirAll(filepath.Dir(*dbPath), 0o755); err != nil {
		return err
	}
	if *logFile == "" {
		*logFile = filepath.Join(filepath.Dir(*dbPath), "server.log")
	}
	frontend := *port
	if frontend == 0 {
		frontend = freePort()
	}

	sqlCfg := &config.SQL{
		PluginName:        sqliteplugin.PluginName,
		DatabaseName:      *dbPath,
		ConnectAttributes: map[string]string{"mode": "rwc", "_journal_mode": "wal", "_synchronous": "normal"},
	}
	if _, err := os.Stat(*dbPath); errors.Is(err, os.ErrNotExist) {
		if err := sqlite.SetupSchema(sqlCfg); err != nil {
			return fmt.Errorf("create schema: %w", err)
		}
	} else if err := clearMembership(*dbPath); err != nil {
		return err
	}
	ns, err := sqlite.NewNamespaceConfig("active", *namespace, false, nil)
	if err != nil {
		return err
	}
	if err := sqlite.CreateNamespaces(sqlCfg, ns); err != nil {
		return fmt.Errorf("create namespace: %w", err)
	}

	logger := log.NewZapLogger(log.BuildZapLogger(log.Config{Level: *logLevel, OutputFile: *logFile}))
	cfg := serverConfig(sqlCfg, frontend)
	authorizer, err := authorization.GetAuthorizerFromConfig(&cfg.Global.Authorization)
	if err != nil {
		return err
	}
	claimMapper, err := authorization.GetClaimMapperFromConfig(&cfg.Global.Authorization, logger)
	if err != nil {
		return err
	}
	srv, err := temporal.NewServer(
		temporal.WithConfig(cfg),
		temporal.ForServices(temporal.DefaultServices),
		temporal.WithLogger(logger),
		temporal.WithAuthorizer(authorizer),
		temporal.WithClaimMapper(func(*config.Config) authorization.ClaimMapper { return claimMapper }),
		temporal.WithDynamicConfigClient(dynamicconfig.StaticClient{}),
	)
	if err != nil {
		return fmt.Errorf("create server: %w", err)
	}
	start := time.Now()
	if err := srv.Start(); err != nil {
		return fmt.Errorf("start server: %w", err)
	}
	defer srv.Stop()
	addr := fmt.Sprintf("127.0.0.1:%d", frontend)
	if err := waitReady(addr, *namespace); err != nil {
		return err
	}
	// The parent reads this line to learn the address.
	fmt.Printf("temporal-dev ready %s in %s\n", addr, time.Since(start).Round(time.Millisecond))

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *watchStdin {
		go func() {
			_, _ = io.Copy(io.Discard, os.Stdin)
			stop()
		}()
	}
	<-ctx.Done()
	return nil
}

// clearMembership deletes every cluster_membership row: in a single-process
// server they all belong to earlier runs (with other random ports), and the
// server would otherwise wait for those ghosts for up to 30 s on start.
func clearMembership(dbPath string) error {
	db, err := sql.Open("sqlite", "file:"+dbPath)
	if err != nil {
		return fmt.Errorf("open %s: %w", dbPath, err)
	}
	defer db.Close()
	if _, err := db.Exec("DELETE FROM cluster_membership"); err != nil {
		return fmt.Errorf("clear stale cluster membership: %w", err)
	}
	return nil
}

func serverConfig(sqlCfg *config.SQL, frontend int) *config.Config {
	service := func(grpc int) config.Service {
		return config.Service{RPC: config.RPC{GRPCPort: grpc, MembershipPort: freePort(), BindOnLocalHost: true}}
	}
	addr := fmt.Sprintf("127.0.0.1:%d", frontend)
	return &config.Config{
		Global: config.Global{
			Membership: config.Membership{MaxJoinDuration: 30 * time.Second, BroadcastAddress: "127.0.0.1"},
		},
		Persistence: config.Persistence{
			DefaultStore:     sqliteplugin.PluginName,
			VisibilityStore:  sqliteplugin.PluginName,
			NumHistoryShards: 1,
			DataStores:       map[string]config.DataStore{sqliteplugin.PluginName: {SQL: sqlCfg}},
		},
		ClusterMetadata: &cluster.Config{
			FailoverVersionIncrement: 10,
			MasterClusterName:        "active",
			CurrentClusterName:       "active",
			ClusterInformation: map[string]cluster.ClusterInformation{
				"active": {Enabled: true, InitialFailoverVersion: 1, RPCAddress: addr},
			},
		},
		DCRedirectionPolicy: config.DCRedirectionPolicy{Policy: "noop"},
		Services: map[string]config.Service{
			"frontend": service(frontend),
			"history":  service(freePort()),
			"matching": service(freePort()),
			"worker":   service(freePort()),
		},
		Archival: config.Archival{
			History:    config.HistoryArchival{State: "disabled"},
			Visibility: config.VisibilityArchival{State: "disabled"},
		},
		PublicClient: config.PublicClient{HostPort: addr},
		NamespaceDefaults: config.NamespaceDefaults{Archival: config.ArchivalNamespaceDefaults{
			History:    config.HistoryArchivalNamespaceDefaults{State: "disabled"},
			Visibility: config.VisibilityArchivalNamespaceDefaults{State: "disabled"},
		}},
	}
}

// waitReady returns once the frontend answers for the namespace.
func waitReady(addr, namespace string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	for {
		c, err := client.Dial(client.Options{HostPort: addr, Namespace: namespace, Logger: quietLogger{}})
		if err == nil {
			_, err = c.CheckHealth(ctx, &client.CheckHealthRequest{})
			if err == nil {
				_, err = c.WorkflowService().DescribeNamespace(ctx, describeNamespace(namespace))
			}
			c.Close()
			if err == nil {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("server not ready at %s: %w", addr, err)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func freePort() int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}
