# schedplay: `make serve` builds and serves the playground; `make test` runs every test.
GO ?= go
BIN := bin

.PHONY: all build test test-go test-conformance conformance realworld vet fmt-check bench clean

all: build

build:
	$(GO) build -o $(BIN)/schedplay ./cmd/schedplay

vet:
	$(GO) vet ./...

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

# The bridge's own test runs under Node, with the page's runtime overlay
# (scripts/wasmrt): the wasm package as a whole does not (ebiten's
# initialisation wants a browser), so its files are named.
test-go: vet fmt-check
	$(GO) test ./...
	cd wasm && GOOS=js GOARCH=wasm $(GO) test -overlay="$$($(GO) run ../scripts/wasmrt -dir "$$(mktemp -d)")" -exec="$$($(GO) env GOROOT)/lib/wasm/go_js_wasm_exec" bridge.go bridge_test.go

# test is what CI runs (.ci/run): Go tests, the conformance batch against upstream
# kube-scheduler, and the browser end-to-end tests.
test: test-go test-conformance test-e2e

# Conformance: OURS is the CLI built from this tree; the harness builds upstream v1.36.
test-conformance: build
	OURS=$(abspath $(BIN)/schedplay) ./scripts/conformance.sh quick

conformance: build
	OURS=$(abspath $(BIN)/schedplay) ./scripts/conformance.sh full

# Real-world check: the shared corpus of public manifests beside the repository
# (../shared/realworld) against upstream's stored answers; skipped when absent.
realworld: build
	OURS=$(abspath $(BIN)/schedplay) ./scripts/realworld.sh -v

# The playground: web builds the static site into web/build (wasm, wasm_exec.js,
# the esbuild bundle), serve serves it on 127.0.0.1:$(PORT), test-e2e drives it
# in headless Chromium.
PORT ?= 8080
WEB_OUT := web/build
.PHONY: web serve test-e2e

# The development build compresses the engine at brotli quality 9 (seconds
# rather than a minute of CPU; about 15 % larger than make dist's).
web:
	GOOS=js GOARCH=wasm $(GO) vet ./ui/... ./wasm
	GO=$(GO) BROTLI_QUALITY=$${BROTLI_QUALITY:-9} ./scripts/build-web.sh $(WEB_OUT)

serve: web
	$(GO) run ./scripts/serve -dir $(WEB_OUT) -port $(PORT)

# dist: the static site for any static host (docs/deploy.md), in dist/,
# with the smallest brotli copies. BASE_PATH is the path the site is served
# under ("/" or, for a project site, "/schedplay/"); it goes into the
# headers file for hosts that read one (_headers).
BASE_PATH ?= /
.PHONY: dist
dist:
	GO=$(GO) BROTLI_QUALITY=11 BASE_PATH=$(BASE_PATH) ./scripts/build-web.sh dist

test-e2e:
	GO=$(GO) ./scripts/test-e2e.sh

bench:
	$(GO) test -run XXX -bench . -benchmem ./core/...

# bench-wasm: the engine's 5,000-node / 10,000-pod simulations natively and
# as WebAssembly under Node, alternating, with the wasm/native ratio.
# BENCH (a -bench regexp) and COUNT (runs of each) narrow or widen it.
.PHONY: bench-wasm hostile
bench-wasm:
	GO=$(GO) ./scripts/bench-wasm.sh '$(BENCH)' $(or $(COUNT),3)

clean:
	rm -rf $(BIN) dist

# hostile: every input of ../shared/hostile-inputs (beside the repository;
# skipped when absent) through the CLI and, as WebAssembly under Node,
# through the page's engine path, with time and peak memory; fails on a
# panic, an out-of-memory or a timeout (TIMEOUT seconds, default 60).
hostile:
	GO=$(GO) ./scripts/hostile.sh
