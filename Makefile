# VetClube — two commands do everything on a fresh Debian machine with Go and Node:
#   make run    install what is missing, build, migrate, seed, serve
#   make test   every test: Go (real PostgreSQL), web unit tests, browser tests
SHELL := /bin/bash
.DEFAULT_GOAL := run

GO        ?= go
NPM       ?= npm
DATA_DIR  ?= .data
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable
GOTEST_FLAGS ?= -count=1 -timeout 25m -p 2

BIN := bin/vetclube
WEB_PKG := web/package.json
ADMIN_PKG := admin/package.json

.PHONY: run test deps deps-system deps-test build build-go build-temporal build-web build-admin test-go test-race test-web test-admin clean bench

## run: install what is missing, build everything, then serve on http://127.0.0.1:8080
run: deps build
	APP_ENV=$${APP_ENV:-development} ./$(BIN) serve

## test: static checks, all Go tests against a real PostgreSQL, then the web unit and browser tests
test: deps deps-test build lint test-go test-race test-web test-admin

## lint: go vet and staticcheck (staticcheck.conf) on every Go package, no core/ package but the
## composition root depending on workflows/ or Temporal (scripts/check-core-imports.sh), ESLint on
## the PWA (with its import boundaries) and the backoffice; findings fail the build
.PHONY: lint lint-go lint-web
lint: lint-go lint-web
lint-go:
	$(GO) vet ./...
	$(GO) tool staticcheck ./...
	GO=$(GO) ./scripts/check-core-imports.sh
	# every table written only by its owner package (migrations/table_owners.txt)
	$(GO) test -count=1 -run 'TestEveryTableHasAnOwner|TestTablesWrittenOnlyByOwner' ./migrations/
lint-web: web/node_modules/.package-lock.json admin/node_modules/.package-lock.json
	cd web && $(NPM) run lint
	cd admin && $(NPM) run lint

deps: deps-system deps-stripe-mock
	$(GO) mod download
	@if [ -f $(WEB_PKG) ]; then $(MAKE) --no-print-directory web/node_modules/.package-lock.json; fi
	@if [ -f $(ADMIN_PKG) ]; then $(MAKE) --no-print-directory admin/node_modules/.package-lock.json; fi

# PostgreSQL's server binaries back the embedded cluster (and the test cluster
# when none is reachable); ffmpeg and ffprobe transcode the media library's
# videos. Installed with apt when missing and running as root.
deps-system:
	@if ! command -v initdb >/dev/null 2>&1 && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing PostgreSQL with apt"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null; \
	  else echo "PostgreSQL binaries are missing: install the postgresql package or set DATABASE_URL"; exit 1; fi; \
	fi
	@if [ "$$(id -u)" = 0 ] && ! id postgres >/dev/null 2>&1; then useradd --system --no-create-home --shell /usr/sbin/nologin postgres; fi
	@if ! command -v ffmpeg >/dev/null 2>&1 || ! command -v ffprobe >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing ffmpeg with apt"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ffmpeg >/dev/null; \
	  else echo "ffmpeg is missing (videos of the media library are transcoded with it): apt-get install ffmpeg"; exit 1; fi; \
	fi

# stripe-mock (Stripe's request validator, for core/billing's request-shape
# test); the test skips with a message when it could not be installed.
STRIPE_MOCK_VERSION := v0.203.0
.PHONY: deps-stripe-mock
deps-stripe-mock:
	@if ! command -v stripe-mock >/dev/null 2>&1 && [ ! -x "$$($(GO) env GOPATH)/bin/stripe-mock" ]; then \
	  echo "installing stripe-mock $(STRIPE_MOCK_VERSION)"; \
	  $(GO) install github.com/stripe/stripe-mock@$(STRIPE_MOCK_VERSION) || echo "stripe-mock could not be installed: its test will be skipped"; \
	fi

# Browser tests drive Debian's Chromium (no browser download).
deps-test:
	@if { [ -f $(WEB_PKG) ] || [ -f $(ADMIN_PKG) ]; } && ! command -v chromium >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing Chromium with apt"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else echo "Chromium is missing: apt-get install chromium"; exit 1; fi; \
	fi

# npm install (not npm ci): the registry mirror lacks some optional platform
# packages, and install leaves a correct lockfile unchanged.
web/node_modules/.package-lock.json: web/package.json
	cd web && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 $(NPM) install --no-audit --no-fund
	@touch $@
admin/node_modules/.package-lock.json: admin/package.json
	cd admin && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 $(NPM) install --no-audit --no-fund
	@touch $@

# The parts build in parallel: the embedded Temporal server's large Go build
# never holds up the web and backoffice builds (the first `make run` on a
# fresh clone is dominated by it and by npm install).
build:
	@$(MAKE) --no-print-directory -j4 build-go plugins build-temporal build-web build-admin

build-go:
	$(GO) build -o $(BIN) ./cmd/vetclube

# Plugins (plugins/README.md): every plugins/<id>/main.go is built into
# bin/plugins/<id>, and its SHA-256 recorded beside it; the host refuses a
# binary whose checksum does not match.
.PHONY: plugins proto plugin-new
PLUGIN_IDS = $(patsubst plugins/%/main.go,%,$(wildcard plugins/*/main.go))
# A form tool with an offline_js.go also builds, for GOOS=js GOARCH=wasm, into
# bin/plugins/<id>.offline.wasm (package plugins/sdk/offline), with a gzip copy
# the server sends to browsers that accept it: the PWA runs it without a
# network. Go's wasm_exec.js is copied beside it once.
OFFLINE_IDS = $(patsubst plugins/%/offline_js.go,%,$(wildcard plugins/*/offline_js.go))
plugins:
	@mkdir -p bin/plugins
	@for id in $(PLUGIN_IDS); do \
	  echo "plugin $$id"; \
	  $(GO) build -o bin/plugins/$$id ./plugins/$$id || exit 1; \
	  (cd bin/plugins && sha256sum $$id > $$id.sha256) || exit 1; \
	done
	@for id in $(OFFLINE_IDS); do \
	  echo "plugin $$id (offline build)"; \
	  GOOS=js GOARCH=wasm $(GO) build -o bin/plugins/$$id.offline.wasm ./plugins/$$id || exit 1; \
	  gzip -9 -kf bin/plugins/$$id.offline.wasm || exit 1; \
	done
	@if [ -n "$(OFFLINE_IDS)" ]; then \
	  root=$$($(GO) env GOROOT); \
	  for f in "$$root/lib/wasm/wasm_exec.js" "$$root/misc/wasm/wasm_exec.js"; do \
	    if [ -f "$$f" ]; then cp "$$f" bin/plugins/wasm_exec.js; exit 0; fi; \
	  done; echo "wasm_exec.js not found in $$root"; exit 1; \
	fi

## proto: regenerate plugins/proto/pluginpb from plugin.proto
proto:
	cd plugins/proto && PATH="$$PATH:$$($(GO) env GOPATH)/bin" protoc \
	  --go_out=pluginpb --go_opt=paths=source_relative \
	  --go-grpc_out=pluginpb --go-grpc_opt=paths=source_relative plugin.proto

## plugin-new ID=minha-ferramenta [KIND=view|content]: scaffold a working form tool, a tool with its own page (plugins/<id>/web/View.tsx), or a content type
KIND ?= tool
plugin-new:
	@test -n "$(ID)" || { echo "usage: make plugin-new ID=minha-ferramenta [KIND=view|content]"; exit 1; }
	$(GO) run ./plugins/scaffold/cmd/plugin-new -id "$(ID)" -kind "$(KIND)" -dir plugins

# The embedded Temporal dev server is its own Go module (workflows/devserver):
# the server packages are large, so the app binary and `go test ./...` never
# compile them. `make run` starts it when TEMPORAL_ADDRESS is empty.
build-temporal:
	cd workflows/devserver && $(GO) build -o ../../bin/temporal-dev .

## bench-web: Lighthouse 12.8.2 (mobile profile, Debian's Chromium) on the built PWA served by the real server,
## LIGHTHOUSE_RUNS (5) runs of each page, median and every run printed
.PHONY: bench-web
bench-web: deps build-go build-web
	cd web && CHROME_PATH=$${CHROME_PATH:-/usr/bin/chromium} node scripts/lighthouse.mjs

## bench: check-ins per second for many users and live-event delivery latency
bench: build-go
	@set -uo pipefail; url="$(TEST_DATABASE_URL)"; started=""; \
	if ! ./$(BIN) devdb ping "$$url" >/dev/null 2>&1; then \
	  url=$$(./$(BIN) devdb start $(DATA_DIR)/test-postgres) || exit 1; started=1; \
	fi; \
	TEST_DATABASE_URL="$$url" $(GO) test -count=1 -run '^$$' -bench . -benchtime 1x -timeout 10m ./core/checkin/bench/; rc=$$?; \
	if [ -n "$$started" ]; then ./$(BIN) devdb stop $(DATA_DIR)/test-postgres; fi; \
	exit $$rc

## bench-api: every API figure against its floor (bare pgx + net/http, same SQL), in one run (bench/api)
# BENCH_API_DURATION (10s), BENCH_API_ROUNDS (3), BENCH_API_CONCURRENCY (32),
# BENCH_API_USERS (5000), BENCH_API_CHECKIN_USERS (15000 per real check-in phase, twice that for the floor),
# BENCH_API_NEWS (10000), BENCH_API_POSTS (100000 community posts), BENCH_API_COMMENTS (1000000 comments on them) and
# BENCH_API_DB_PARAMS (appended to both sides' database URL) override the run; BENCH_API_ONLY=feed measures (and
# seeds) only the rows whose name contains it. After the 1× rows, the cost-growth rows run again on a second database
# at 10× their data (bench/api/growth.go): BENCH_API_GROWTH=0 skips them, BENCH_API_GROWTH_COMMENTS sets its comment
# count (default 10× BENCH_API_COMMENTS). With the 10× seeding a full run takes over an hour on two cores.
# The real server's request log goes to $(DATA_DIR)/bench-api.log.
.PHONY: bench-api test-bench-api
bench-api: build-go
	@set -uo pipefail; url="$(TEST_DATABASE_URL)"; started=""; mkdir -p $(DATA_DIR); \
	if ! ./$(BIN) devdb ping "$$url" >/dev/null 2>&1; then \
	  url=$$(./$(BIN) devdb start $(DATA_DIR)/test-postgres) || exit 1; started=1; \
	fi; \
	BENCH_API=1 BENCH_API_LOG=$(abspath $(DATA_DIR))/bench-api.log TEST_DATABASE_URL="$$url" \
	  $(GO) test -count=1 -run '^TestBenchAPI$$' -v -timeout 150m ./bench/api/; rc=$$?; \
	if [ -n "$$started" ]; then ./$(BIN) devdb stop $(DATA_DIR)/test-postgres; fi; \
	exit $$rc

## bench-memory: idle memory of the whole system as `make run` starts it (core, plugin processes, Temporal dev
## server, embedded PostgreSQL), RSS and PSS per part, with every plugin resident and with plugins on demand
# BENCH_MEMORY_SETTLE (20s: the wait after /readyz before sampling), BENCH_MEMORY_ADDR (127.0.0.1:18601).
.PHONY: bench-memory
bench-memory: build-go plugins
	@test -x bin/temporal-dev || $(MAKE) --no-print-directory build-temporal
	BENCH_MEMORY=1 $(GO) test -count=1 -run '^TestBenchMemory$$' -v -timeout 30m ./bench/memory/

## bench-billing: Stripe webhook throughput of the real app (signature, inbox, member lock, billing row and
## entitlement in one transaction) against a floor that inserts the inbox row and updates one row (target ≥ 60 %);
## BENCH_BILLING_DURATION (10s), BENCH_BILLING_ROUNDS (3), BENCH_BILLING_CONCURRENCY (16), BENCH_BILLING_MEMBERS (500)
.PHONY: bench-billing
bench-billing: build-go
	@set -uo pipefail; url="$(TEST_DATABASE_URL)"; started=""; \
	if ! ./$(BIN) devdb ping "$$url" >/dev/null 2>&1; then \
	  url=$$(./$(BIN) devdb start $(DATA_DIR)/test-postgres) || exit 1; started=1; \
	fi; \
	BENCH_BILLING=1 TEST_DATABASE_URL="$$url" $(GO) test -count=1 -run '^TestWebhookThroughputAgainstFloor$$' -v -timeout 30m ./bench/billing/; rc=$$?; \
	if [ -n "$$started" ]; then ./$(BIN) devdb stop $(DATA_DIR)/test-postgres; fi; \
	exit $$rc

## bench-notifications: one notification fanned out to BENCH_FANOUT_USERS (100000) members, in-app rows and
## Web Push to a local push service on the embedded Temporal; time to all delivered and live-event p99 during it
.PHONY: bench-notifications
bench-notifications: build-go build-temporal
	@set -uo pipefail; url="$(TEST_DATABASE_URL)"; started=""; \
	if ! ./$(BIN) devdb ping "$$url" >/dev/null 2>&1; then \
	  url=$$(./$(BIN) devdb start $(DATA_DIR)/test-postgres) || exit 1; started=1; \
	fi; \
	TEST_DATABASE_URL="$$url" $(GO) test -count=1 -run '^$$' -bench FanOut -benchtime 1x -timeout 60m ./bench/notifications/; rc=$$?; \
	if [ -n "$$started" ]; then ./$(BIN) devdb stop $(DATA_DIR)/test-postgres; fi; \
	exit $$rc

## bench-transcode: a 1-minute 1080p source through the media activities (360p, 720p and 1080p HLS,
## poster and thumbnails, production preset or BENCH_TRANSCODE_PRESET); seconds of video per second of wall time
.PHONY: bench-transcode
bench-transcode:
	$(GO) test -count=1 -run '^$$' -bench Transcode1080p -benchtime 1x -timeout 30m ./bench/transcode/

# The harness's smoke run (tiny data, one round of 1 s): proves it works, not a speed check.
test-bench-api: build-go
	@set -uo pipefail; url="$(TEST_DATABASE_URL)"; started=""; \
	if ! ./$(BIN) devdb ping "$$url" >/dev/null 2>&1; then \
	  url=$$(./$(BIN) devdb start $(DATA_DIR)/test-postgres) || exit 1; started=1; \
	fi; \
	TEST_DATABASE_URL="$$url" $(GO) test -count=1 -run '^TestSmoke$$' ./bench/api/; rc=$$?; \
	if [ -n "$$started" ]; then ./$(BIN) devdb stop $(DATA_DIR)/test-postgres; fi; \
	exit $$rc

build-web:
	@if [ -f $(WEB_PKG) ]; then cd web && $(NPM) run build; fi

build-admin:
	@if [ -f $(ADMIN_PKG) ]; then cd admin && $(NPM) run build; fi

# Tests use TEST_DATABASE_URL when it answers; otherwise a private cluster is
# started under $(DATA_DIR)/test-postgres for the run and stopped after it.
define with_test_db
@set -uo pipefail; url="$(TEST_DATABASE_URL)"; started=""; \
if ! ./$(BIN) devdb ping "$$url" >/dev/null 2>&1; then \
  echo "no PostgreSQL at $$url: starting a private test cluster"; \
  url=$$(./$(BIN) devdb start $(DATA_DIR)/test-postgres) || exit 1; started=1; \
fi; \
export TEST_DATABASE_URL="$$url"; $(1); rc=$$?; \
if [ -n "$$started" ]; then ./$(BIN) devdb stop $(DATA_DIR)/test-postgres; fi; \
exit $$rc
endef

test-go: build-go build-temporal
	$(call with_test_db,VETCLUBE_BIN=$(abspath $(BIN)) $(GO) test $(GOTEST_FLAGS) ./...)

## test-race: the concurrent code under the race detector: the events hub and
## push delivery whole; the principal cache, the media upload locks and sweep,
## and the plugin host's concurrent tests by name (the host's other tests run
## plugin processes built with -race, too slow and too large for the
## sandbox's memory limit). About 4 minutes on 2 shared cores, most of it compiling.
RACE_RUN_AUTH := Principal
RACE_RUN_MEDIA := Gate|Sweep|Patch|UploadLock
RACE_RUN_PLUGINHOST := Concurren|Hung|RaceSafe
.PHONY: test-race
test-race: build-go
	$(call with_test_db,$(GO) test -race -count=1 ./core/events/ ./core/push/... && \
	  $(GO) test -race -count=1 -run '$(RACE_RUN_AUTH)' ./core/auth/ && \
	  $(GO) test -race -count=1 -run '$(RACE_RUN_MEDIA)' ./core/media/ && \
	  $(GO) test -race -count=1 -run '$(RACE_RUN_PLUGINHOST)' ./core/pluginhost/)

## test-scaleout: the two-instance rolling-restart test alone (scaleout/; test-go runs it too)
.PHONY: test-scaleout
test-scaleout: build-go build-temporal
	$(call with_test_db,VETCLUBE_BIN=$(abspath $(BIN)) $(GO) test -count=1 -timeout 10m -v ./scaleout/)

test-web:
	@if [ -f $(WEB_PKG) ]; then cd web && $(NPM) test; fi

# Backoffice: vitest for the providers, then Playwright (Debian's Chromium)
# against the real server; the build comes first so dist matches the sources.
test-admin: build-go admin/node_modules/.package-lock.json build-admin
	@if [ -f $(ADMIN_PKG) ]; then cd admin && $(NPM) test; fi

clean:
	rm -rf bin web/dist admin/dist
