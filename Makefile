# schedplay: `make serve` builds and serves the playground; `make test` runs every test.
GO ?= go
BIN := bin

.PHONY: all build test test-go vet fmt-check bench clean

all: build

build:
	$(GO) build -o $(BIN)/schedplay ./cmd/schedplay

vet:
	$(GO) vet ./...

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

test-go: vet fmt-check
	$(GO) test ./...

test: test-go

bench:
	$(GO) test -run XXX -bench . -benchmem ./core/...

clean:
	rm -rf $(BIN) dist
