# Everyday commands. Tests, local runs and benchmarks get throwaway PostgreSQL and Redis from
# deploy/local/with-services.sh, unless DATABASE_URL and REDIS_URL are already set.
.PHONY: build openapi openapi-lint frontend geoip test test-checks test-go test-short test-unit moderation-eval learned-model screenshots lint caddy-validate run bench bench-scale soak chaos fmt clean

# Extra flags for go test, e.g. make test TESTFLAGS='-run TestRedirect -v'.
TESTFLAGS ?=

build: openapi frontend geoip
	go build -o bin/shortlink ./backend/cmd/shortlink
	go build -o bin/shortlink-worker ./worker/cmd/shortlink-worker

# The OpenAPI document backend/httpapi/openapi.json is built from its YAML source in
# backend/httpapi/openapi/ (go generate), and the web app's API types from the JSON; each file is
# rewritten only when its content changes. Tests fail when either is stale.
openapi: frontend/node_modules/.package-lock.json
	go generate ./backend/httpapi
	npm --prefix frontend run api-types

# Redocly CLI's recommended rules (redocly.yaml) over the built document; the CLI is a pinned
# devDependency of the web app, so no network is needed, and its telemetry is off.
openapi-lint: frontend/node_modules/.package-lock.json
	REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true frontend/node_modules/.bin/redocly lint --config redocly.yaml backend/httpapi/openapi.json

# The web app (frontend/: TypeScript, React, Vite) is built into frontend/dist, which the Go
# binary embeds; dist is not committed, so building needs Node 20.19+ and npm. Packages are
# installed with `npm ci` when the lock file changed, the app rebuilt when a source changed.
FRONTEND_SOURCES := $(shell find frontend/src frontend/scripts frontend/public -type f 2>/dev/null) \
	frontend/index.html frontend/vite.config.ts frontend/tsconfig.json

frontend: frontend/dist/index.html

frontend/node_modules/.package-lock.json: frontend/package.json frontend/package-lock.json
	@command -v npm >/dev/null || { echo "frontend: npm not found: install Node 20.19 or newer"; exit 1; }
	npm --prefix frontend ci --no-audit --no-fund

frontend/dist/index.html: frontend/node_modules/.package-lock.json $(FRONTEND_SOURCES)
	npm --prefix frontend run build

# The free DB-IP Lite country database into data/geoip/ (git-ignored), used when GEOIP_DB is
# unset. Skipped when it is there; a registry out of reach only prints a warning.
geoip:
	@deploy/geoip/fetch.sh

# Tests that own their database and Redis prefix run side by side (t.Parallel); most of them
# wait on servers or browsers, so several at a time on two cores finish sooner than GOMAXPROCS's two.
# The web app's unit tests (Vitest; one checks that frontend/src/api/schema.d.ts matches
# backend/httpapi/openapi.json) run with the checks. Browser tests (backend/browsertest, worker/browse) drive
# Debian's Chromium through the Playwright driver: deploy/local/browser.sh installs both when
# missing and prints the driver's folder. Billing tests answer Stripe's API with stripe-mock:
# deploy/local/stripe-mock.sh installs it when missing and prints its path (STRIPE_MOCK).
#
# The checks (test-checks: format, Caddy, golangci-lint, Redocly, go vet, Vitest) run one after
# the other beside the Go tests (test-go), lint and vet at a lower CPU priority: the end-to-end
# suite waits on browsers and timers much of its time, and the checks take that idle CPU instead
# of two minutes before it. make test fails when either fails; each one's output is printed whole
# when it ends (--output-sync), and make names the one that failed.
# The packages whose tests take longest, first: go test starts packages in the order it is
# given them, two at a time, and a long one started last runs alone (docs/development.md).
SLOW_PACKAGES = ./backend/e2e ./worker/browse ./backend/postgres ./worker/score ./backend/qr ./backend/visitcap ./backend/visit
# Every package but the end-to-end suite, the slow ones first (test-short and test-unit).
UNIT_PACKAGES = $(filter-out ./backend/e2e,$(SLOW_PACKAGES)) $$(go list ./... | grep -v '/backend/e2e$$')

test: frontend
	@$(MAKE) --no-print-directory -j2 --output-sync=target test-go test-checks

test-checks: caddy-validate
	@unformatted=$$(gofmt -l backend worker frontend bench migrations deploy); \
	if [ -n "$$unformatted" ]; then echo "not gofmt-ed: $$unformatted"; exit 1; fi
	nice -n 10 deploy/local/lint.sh
	$(MAKE) --no-print-directory openapi-lint
	nice -n 10 go vet -tags soak ./...
	cd deploy && nice -n 10 go vet ./...
	npm --prefix frontend test

test-go:
	deploy/local/ocr.sh
	driver=$$(deploy/local/browser.sh) && stripemock=$$(deploy/local/stripe-mock.sh) && \
	PLAYWRIGHT_DRIVER_PATH=$$driver CHROMIUM_PATH=/usr/bin/chromium STRIPE_MOCK=$$stripemock SHORTLINK_TEST_SERVICES=required \
	deploy/local/with-services.sh go test -count=1 -p 2 -parallel 6 -timeout 30m $(TESTFLAGS) $(SLOW_PACKAGES) ./...
	cd deploy && go test -count=1 ./...

# Every package's own tests (pure ones, and those of postgres, redis, the worker's browser and
# the like against real services), without the end-to-end suite in backend/e2e: a few minutes.
test-short: frontend
	@unformatted=$$(gofmt -l backend worker frontend bench migrations deploy); \
	if [ -n "$$unformatted" ]; then echo "not gofmt-ed: $$unformatted"; exit 1; fi
	go vet -tags soak ./...
	deploy/local/ocr.sh
	driver=$$(deploy/local/browser.sh) && stripemock=$$(deploy/local/stripe-mock.sh) && \
	PLAYWRIGHT_DRIVER_PATH=$$driver CHROMIUM_PATH=/usr/bin/chromium STRIPE_MOCK=$$stripemock SHORTLINK_TEST_SERVICES=required \
	deploy/local/with-services.sh go test -short -count=1 -p 2 -parallel 6 $(TESTFLAGS) $(UNIT_PACKAGES)
	cd deploy && go test -short -count=1 ./...

# The moderation scorer's held-out sets (worker/browse/testdata/heldout, heldout2, …, heldout17;
# docs/moderation.md): the real browser reviews each set's pages as the three visitors and
# rewrites its captures.json, then the scorer's figures on it are logged and checked against its
# floors. A few minutes a set; no database. HELDOUT=heldout3 (or another set's folder) runs one set.
HELDOUT ?=

moderation-eval:
	driver=$$(deploy/local/browser.sh) && \
	PLAYWRIGHT_DRIVER_PATH=$$driver CHROMIUM_PATH=/usr/bin/chromium MODERATION_EVAL=1 \
	go test -count=1 -timeout 40m -run '^TestHeldOut$(if $(HELDOUT),/^$(HELDOUT)$$)' -v ./worker/browse/

# Retrains the moderation worker's learned signal on every labelled page (held-out sets 1-11,
# the development and calibration files) and writes worker/score/learned.bin: docs/moderation.md,
# "The learned signal". Its cross-validation: LEARNED_CV=1 go test -count=1 -run
# TestLearnedCrossValidation -v ./worker/score/
learned-model:
	LEARNED_WRITE=1 go test -count=1 -run '^TestLearnedWrite$$' ./worker/score/

# The web app's walks in every look they name (make test walks each journey in one), saving
# full-page screenshots of the pages they pass through into SCREENSHOTS_DIR: docs/web-app.md.
SCREENSHOTS_DIR ?= $(CURDIR)/docs/screenshots/run

screenshots: frontend
	driver=$$(deploy/local/browser.sh) && stripemock=$$(deploy/local/stripe-mock.sh) && \
	PLAYWRIGHT_DRIVER_PATH=$$driver CHROMIUM_PATH=/usr/bin/chromium STRIPE_MOCK=$$stripemock SCREENSHOTS_DIR=$(SCREENSHOTS_DIR) \
	deploy/local/with-services.sh go test -count=1 -timeout 30m -run '^TestWebApp' ./backend/e2e

# The tests of pure logic alone, with no service started or needed: every test that needs
# PostgreSQL, Redis, a browser or stripe-mock skips with one line saying so (docs/development.md).
# The end-to-end suite, whose every test starts servers, is not even built.
test-unit:
	env -u DATABASE_URL -u REDIS_URL -u PLAYWRIGHT_DRIVER_PATH -u STRIPE_MOCK -u SHORTLINK_TEST_SERVICES \
	go test -short -count=1 -vet=off $(TESTFLAGS) $(UNIT_PACKAGES)

# golangci-lint over both Go modules (.golangci.yml); installs the version it expects when missing.
lint:
	deploy/local/lint.sh

# The shipped Caddyfile (deploy/caddy) must be one Caddy accepts; Debian's package: caddy.
caddy-validate:
	@command -v caddy >/dev/null || { echo "caddy not found: install it (apt-get install -y caddy)"; exit 1; }
	@out=$$(caddy validate --config deploy/caddy/Caddyfile --adapter caddyfile 2>&1) || { echo "$$out"; exit 1; }; \
	echo "deploy/caddy/Caddyfile: valid ($$(caddy version | cut -d' ' -f1))"

run: build
	deploy/local/with-services.sh deploy/local/run.sh

bench: build
	deploy/local/with-services.sh bench/run.sh

# The scale run: a workspace of 10 million links (SCALE_LINKS) seeded by COPY, every query of the
# links list timed through the API, and the creates beside the ceiling (docs/benchmarks.md).
bench-scale: build
	deploy/local/with-services.sh bench/scale.sh

# The soak run (TestSoak, backend/e2e/soak_test.go): two servers, the worker, PostgreSQL and
# Redis of its own under a mixed load for SOAK_DURATION while a server is killed and Redis and
# PostgreSQL restart; writes docs/soak/report.md and its chart. Its files carry the build tag
# soak, so make test leaves it out; go vet and lint still check them.
SOAK_DURATION ?= 10m
SOAK_REPORT ?= $(CURDIR)/docs/soak

soak: frontend
	driver=$$(deploy/local/browser.sh) && \
	PLAYWRIGHT_DRIVER_PATH=$$driver CHROMIUM_PATH=/usr/bin/chromium SOAK_DURATION=$(SOAK_DURATION) SOAK_REPORT=$(SOAK_REPORT) \
	deploy/local/with-services.sh go test -tags soak -count=1 -timeout 60m -run '^TestSoak$$' -v ./backend/e2e

# The failover run (TestChaos, backend/e2e/chaos_test.go): PostgreSQL with a synchronous standby
# behind HAProxy, Redis with two replicas and three Sentinels, two servers and the worker, all
# of its own; kills the Redis master, kills and promotes PostgreSQL, stalls PostgreSQL for 20 s,
# CHAOS_CALM apart; writes docs/chaos.md. Build tag soak, like the soak run.
CHAOS_CALM ?= 30s
CHAOS_REPORT ?= $(CURDIR)/docs/chaos.md

chaos: frontend
	@command -v haproxy >/dev/null || { echo "haproxy not found: install it (apt-get install -y haproxy)"; exit 1; }
	driver=$$(deploy/local/browser.sh) && \
	PLAYWRIGHT_DRIVER_PATH=$$driver CHROMIUM_PATH=/usr/bin/chromium CHAOS=1 CHAOS_CALM=$(CHAOS_CALM) CHAOS_REPORT=$(CHAOS_REPORT) \
	go test -tags soak -count=1 -timeout 30m -run '^TestChaos$$' -v ./backend/e2e

fmt:
	go fmt ./...

clean:
	rm -rf bin
