# dagq — a work queue with task dependencies, retries, a dead-letter queue
# and cycle checks. `make run` and `make test` are all a fresh machine needs.

GO      ?= go
WASMDIR := site/static

.PHONY: run test vet fmt wasm wq fuzz clean

## run: run a built-in scenario through wq and print its trace
run:
	$(GO) run ./cmd/wq run core/scenario/library/diamond-redrive.dagq

## test: vet, formatting, every test (fuzz seed corpora, golden files, examples), and the wasm build
test: vet fmt wasm
	$(GO) test -count=1 ./...

vet:
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet ./wasm

fmt:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi

## wasm: build the playground into site/static
wasm:
	GOOS=js GOARCH=wasm $(GO) build -o $(WASMDIR)/main.wasm ./wasm
	cp "$$($(GO) env GOROOT)/lib/wasm/wasm_exec.js" $(WASMDIR)/

## wq: build the command line into ./wq
wq:
	$(GO) build -o wq ./cmd/wq

## fuzz: fuzz the parser and the queue for a while (FUZZTIME, default 30s each)
FUZZTIME ?= 30s
fuzz:
	$(GO) test ./core/scenario -run '^$$' -fuzz FuzzParse -fuzztime $(FUZZTIME)
	$(GO) test ./core -run '^$$' -fuzz FuzzOps -fuzztime $(FUZZTIME)

clean:
	rm -f wq $(WASMDIR)/main.wasm $(WASMDIR)/wasm_exec.js
