# Everyday commands. Tests, local runs and benchmarks get throwaway PostgreSQL and Redis from
# deploy/local/with-services.sh, unless DATABASE_URL and REDIS_URL are already set.
.PHONY: build frontend geoip test caddy-validate run bench fmt clean

# Extra flags for go test, e.g. make test TESTFLAGS='-run TestRedirect -v'.
TESTFLAGS ?=

build: frontend geoip
	go build -o bin/shortlink ./backend/cmd/shortlink
	go build -o bin/shortlink-worker ./worker/cmd/shortlink-worker

# The web app is rebuilt where its sources and Node exist; otherwise the committed
# frontend/dist is embedded as it is.
frontend:
	@if [ ! -f frontend/package.json ]; then \
		echo "frontend: no frontend/package.json, using frontend/dist as it is"; \
	elif ! command -v node >/dev/null || ! command -v npm >/dev/null; then \
		echo "frontend: node/npm not found, using frontend/dist as it is"; \
	else \
		npm --prefix frontend ci && npm --prefix frontend run build; \
	fi

# The free DB-IP Lite country database into data/geoip/ (git-ignored), used when GEOIP_DB is
# unset. Skipped when it is there; a registry out of reach only prints a warning.
geoip:
	@deploy/geoip/fetch.sh

# Browser tests (backend/browsertest) drive Debian's Chromium through the Playwright driver:
# deploy/local/browser.sh installs both when missing and prints the driver's folder.
test: caddy-validate
	@unformatted=$$(gofmt -l backend worker frontend bench migrations deploy); \
	if [ -n "$$unformatted" ]; then echo "not gofmt-ed: $$unformatted"; exit 1; fi
	go vet ./...
	driver=$$(deploy/local/browser.sh) && \
	PLAYWRIGHT_DRIVER_PATH=$$driver CHROMIUM_PATH=/usr/bin/chromium \
	deploy/local/with-services.sh go test -count=1 -p 2 $(TESTFLAGS) ./...

# The shipped Caddyfile (deploy/caddy) must be one Caddy accepts; Debian's package: caddy.
caddy-validate:
	@command -v caddy >/dev/null || { echo "caddy not found: install it (apt-get install -y caddy)"; exit 1; }
	@out=$$(caddy validate --config deploy/caddy/Caddyfile --adapter caddyfile 2>&1) || { echo "$$out"; exit 1; }; \
	echo "deploy/caddy/Caddyfile: valid ($$(caddy version | cut -d' ' -f1))"

run: build
	deploy/local/with-services.sh deploy/local/run.sh

bench: build
	deploy/local/with-services.sh bench/run.sh

fmt:
	go fmt ./...

clean:
	rm -rf bin
