# dagq — a work queue with task dependencies, retries, a dead-letter queue
# and cycle checks. `make run` and `make test` are all a fresh machine needs.

GO      ?= go
WASMDIR := site/static

.PHONY: run test vet lint hooks fmt wasm wq fuzz clean chromium worker worker-dev worker-npm

## run: build the playground and serve it on ADDR (default 127.0.0.1:8080, this machine only;
## ADDR=:8080 opens it to every interface): open http://localhost:8080
ADDR ?= 127.0.0.1:8080
run: wasm
	$(GO) run ./cmd/wq serve --addr $(ADDR)

## test: vet, lint, formatting, every test (fuzz seed corpora, golden files, examples, the
## browser tests in headless chromium against a real wq serve), the wasm build, a
## one-iteration smoke run of the benchmarks and one of bench-check (which cannot fail on numbers)
## go test stops a package after TEST_TIMEOUT: the browser and Postgres tests of site,
## internal/playground and durable take minutes on a quiet 2-core machine and several times that
## on a loaded one, past go test's default of 10 minutes.
TEST_TIMEOUT ?= 30m
test: vet lint fmt wasm chromium worker-npm
	$(GO) test -count=1 -timeout $(TEST_TIMEOUT) ./...
	$(GO) test -count=1 ./cmd/wq -run 'Attack|HundredMegabyte' -attacks -v
	$(GO) test ./bench -run '^$$' -bench . -benchtime=1x -short
	$(MAKE) --no-print-directory bench-check CHECK_COUNT=1 CHECK_INSTR_RUNS=1 CHECK_SMOKE=-smoke

## chromium: the browser tests need Debian's chromium; installed here when run as root
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing Debian's chromium for the browser tests"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else \
	    echo "make test needs Debian's chromium for the browser tests: sudo apt-get install chromium"; exit 1; \
	  fi; }

vet:
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet ./wasm
	GOOS=js GOARCH=wasm $(GO) vet -tags dagq_noembed ./site/worker

## lint: staticcheck (staticcheck.conf: the default checks and the ST1000 series) and errcheck
## on the code outside tests (errcheck.excludes: the calls whose error may go unchecked), for
## this machine and for js/wasm as vet does; both are go tools pinned in go.mod. The js/wasm runs
## use the tools built for this machine: go tool would build them for js/wasm.
lint:
	$(GO) tool staticcheck ./...
	$(GO) tool errcheck -ignoretests -exclude errcheck.excludes ./...
	@echo 'staticcheck and errcheck for js/wasm: ./wasm, ./site/worker (-tags dagq_noembed)'; \
	sc=$$($(GO) tool -n staticcheck) && ec=$$($(GO) tool -n errcheck) && \
	GOOS=js GOARCH=wasm $$sc ./wasm && \
	GOOS=js GOARCH=wasm $$sc -tags dagq_noembed ./site/worker && \
	GOOS=js GOARCH=wasm $$ec -ignoretests -exclude errcheck.excludes ./wasm && \
	GOOS=js GOARCH=wasm $$ec -ignoretests -exclude errcheck.excludes -tags dagq_noembed ./site/worker

## hooks: make git run the repository's hooks (.githooks): commit-msg refuses a commit whose
## subject is over 72 characters
hooks:
	git config core.hooksPath .githooks

fmt:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi

## wasm: build the playground into site/static (main.wasm and wasm_exec.js, which git ignores)
## The playground is built without its symbol table and debug information (-s -w): 27 KB less to
## download gzipped; a panic's stack trace keeps its function names and lines. main.wasm.br and
## main.wasm.gz, beside it, are what wq serve sends a browser (brotli at quality 11: tens of seconds
## once, and left as they are while main.wasm does not change; see site/precompress).
## -trimpath makes main.wasm the same wherever the checkout is (its paths went into what a browser
## downloads, and moved its size by kilobytes); -tags dagq_nojson leaves encoding/json out of it
## (the page never writes a JSON trace; core/scenario/json_writer_nojson.go).
WASMFLAGS := -trimpath -tags dagq_nojson -ldflags=-s\ -w
wasm:
	GOOS=js GOARCH=wasm $(GO) build $(WASMFLAGS) -o $(WASMDIR)/main.wasm ./wasm
	cp "$$($(GO) env GOROOT)/lib/wasm/wasm_exec.js" $(WASMDIR)/
	$(GO) run ./site/precompress $(WASMDIR)/main.wasm

## worker: build the site's Cloudflare worker into site/worker/build: worker/ holds the worker
## (the site's handler, built for js/wasm without the static files, and workers-assets-gen's
## glue), assets/ the static files that Workers serves (the page, and the playground's main.wasm,
## built anew rather than taken from site/static, where it may be stale or missing)
WORKER      := site/worker
WORKER_PORT ?= 8787
worker:
	rm -rf $(WORKER)/build
	$(GO) tool workers-assets-gen -mode=go -o $(WORKER)/build/worker
	GOOS=js GOARCH=wasm $(GO) build -tags dagq_noembed -trimpath -ldflags='-s -w' -o $(WORKER)/build/worker/app.wasm ./$(WORKER)
	mkdir -p $(WORKER)/build/assets
	cp -R site/static/. $(WORKER)/_headers $(WORKER)/build/assets/
	GOOS=js GOARCH=wasm $(GO) build $(WASMFLAGS) -o $(WORKER)/build/assets/main.wasm ./wasm
	$(GO) run ./site/precompress $(WORKER)/build/assets/main.wasm
	cp "$$($(GO) env GOROOT)/lib/wasm/wasm_exec.js" $(WORKER)/build/assets/

## worker-dev: build the worker and serve it with wrangler dev on http://127.0.0.1:$(WORKER_PORT)
worker-dev: worker worker-npm
	cd $(WORKER) && WRANGLER_SEND_METRICS=false npx --no-install wrangler dev --ip 127.0.0.1 --port $(WORKER_PORT)

## worker-npm: install the locked wrangler into site/worker/node_modules (npm ci), if npm is here
worker-npm:
	@if ! command -v npm >/dev/null 2>&1; then \
	  echo "no npm here: the worker's test will be skipped (install Node.js 20 and npm to run it)"; \
	elif [ ! -f $(WORKER)/node_modules/.package-lock.json ] || [ $(WORKER)/package-lock.json -nt $(WORKER)/node_modules/.package-lock.json ]; then \
	  cd $(WORKER) && npm ci --no-audit --no-fund; \
	fi

## wq: build the command line into ./wq
wq:
	$(GO) build -o wq ./cmd/wq

## fuzz: run every fuzz target for a while, one after another (FUZZTIME, default 30s each): the
## parser, the queue, the strategies, and the playground's stored progress and link paths
FUZZTIME ?= 30s
fuzz:
	$(GO) test ./core/scenario -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME)
	$(GO) test ./core/queuetest -run '^$$' -fuzz '^FuzzMemoryOps$$' -fuzztime $(FUZZTIME)
	$(GO) test ./incremental -run '^$$' -fuzz '^FuzzStrategies$$' -fuzztime $(FUZZTIME)
	$(GO) test ./internal/practice -run '^$$' -fuzz '^FuzzParseProgress$$' -fuzztime $(FUZZTIME)
	$(GO) test ./internal/playground -run '^$$' -fuzz '^FuzzParsePath$$' -fuzztime $(FUZZTIME)

clean:
	rm -f wq $(WASMDIR)/main.wasm $(WASMDIR)/main.wasm.br $(WASMDIR)/main.wasm.gz $(WASMDIR)/wasm_exec.js
	rm -rf $(WORKER)/build

## bench: run the benchmarks COUNT times into bench/results/NAME.txt, interleaved (one pass of
## every benchmark after another, so the runs of one benchmark are spread over time), with the
## load average at the start and end in its header. The full run (BENCH unset) then rewrites
## bench/RESULTS.md and bench/plots from it and the newest durable results; a subset (BENCH=…)
## writes its report beside its results, bench/results/NAME.md and bench/results/NAME-plots/,
## and leaves RESULTS.md and bench/plots alone. BENCH picks benchmarks by regexp, one per level
## of the name, anchored in every documented command (write $$ for $):
##   make bench BENCH='^BenchmarkSubmit$$/^strategy=(dfs|pk|twoway)$$/^shape=(chain|wide)$$/^n=10000$$' COUNT=10 NAME=cmp
## BENCHTIME is the least time of each sample (go test's -benchtime, default 50ms): an op is a whole
## graph of up to 10^6 tasks, run once when it takes longer, and repeated within the sample when it
## is shorter, so that no sample is one sub-millisecond run. A pass takes about 14 minutes for the
## whole suite on a 2-core machine (a third of it dfs at n = 10^5), so the default COUNT=10 takes
## about 2 1/2 hours. BENCH_ALL=1 also runs the combinations predicted to take over bench.Budget,
## which are skipped otherwise. The durable queue's benchmarks, which start Postgres clusters, are
## left out: BenchmarkDurable and BenchmarkDurableEnqueue are make bench-durable's.
## A pass may take up to 2 hours (go test's -timeout) before it counts as hung.
BENCH     ?= .
COUNT     ?= 10
BENCHTIME ?= 50ms
BENCH_ALL ?=
NAME      ?= $(shell date +%Y-%m-%d)
.PHONY: bench benchstat
bench:
	@set -e; out=bench/results/$(NAME).txt; part="$$out.part"; pass="$$out.pass"; head="$$out.head"; \
	mkdir -p bench/results; trap 'rm -f "$$pass" "$$head"' EXIT; \
	commit=$$(git rev-parse --short HEAD 2>/dev/null || echo unknown); \
	if [ -n "$$(git status --porcelain 2>/dev/null)" ]; then commit="$$commit-dirty"; fi; \
	date=$$(date -u +%Y-%m-%dT%H:%M:%SZ); version=$$($(GO) env GOVERSION); \
	loadstart=$$(cut -d' ' -f1-3 /proc/loadavg); : > "$$part"; \
	all=; if [ -n '$(BENCH_ALL)' ]; then all=-bench.all; fi; \
	for i in $$(seq $(COUNT)); do \
		echo "bench: pass $$i of $(COUNT) (follow it in $$pass)" >&2; \
		if ! $(GO) test ./bench -run '^$$' -bench '$(BENCH)' -skip '^BenchmarkDurable' -benchtime $(BENCHTIME) -count 1 -timeout 2h -args $$all > "$$pass" 2>&1; then \
			cat "$$pass" >&2; echo "bench: pass $$i failed; the passes before it are in $$part" >&2; exit 1; \
		fi; \
		if [ "$$i" = 1 ]; then \
			{ for key in goos goarch cpu; do grep -m1 "^$$key: " "$$pass" || true; done; \
			  echo "go: $$version"; echo "commit: $$commit"; echo "date: $$date"; \
			  echo "load-start: $$loadstart"; grep -m1 '^pkg: ' "$$pass" || true; } > "$$head"; \
		fi; \
		grep '^Benchmark' "$$pass" >> "$$part" || { echo "bench: no benchmark matches BENCH=$(BENCH)" >&2; exit 1; }; \
	done; \
	{ grep -v '^pkg: ' "$$head"; echo "load-end: $$(cut -d' ' -f1-3 /proc/loadavg)"; grep '^pkg: ' "$$head" || true; cat "$$part"; } > "$$out"; \
	rm -f "$$part"; echo "bench: wrote $$out" >&2; \
	if [ '$(BENCH)' = . ]; then \
		durable=$$(ls bench/results/durable/*.txt 2>/dev/null | sort | tail -n 1); \
		$(GO) run ./bench/report -o bench/RESULTS.md -plots bench/plots "$$out" $$durable; \
	else \
		$(GO) run ./bench/report -o bench/results/$(NAME).md -plots bench/results/$(NAME)-plots "$$out"; \
		echo "bench: a subset (BENCH=$(BENCH)): its report is bench/results/$(NAME).md; bench/RESULTS.md and bench/plots are left alone" >&2; \
	fi

## bench-check: a guard against slowdowns of the core. It builds the bench tests of the commit
## named in bench/baseline.txt and of this tree, runs a short fixed set (BenchmarkOps's submit,
## next and complete of 5,000 tasks; the lifecycle of 10^4 tasks of the four shapes) CHECK_COUNT
## times, the two sides interleaved so that both see the same load (each sample of BenchmarkOps is
## 400 passes, about 0.1 s for complete, so that a burst of load on the shared machine is averaged
## over a sample rather than being one), and fails if a median grew by
## more than CHECK_THRESHOLD percent and the U test says so (p < 0.05). Then, where valgrind is,
## it counts the instructions of the same operations with callgrind (bench/instr, CHECK_INSTR_RUNS
## runs of each, the GC off), which load does not disturb, and fails if a median count grew by more
## than CHECK_INSTR_THRESHOLD percent. About a minute on a quiet 2-core machine. benchstat's table is printed too. make
## test runs a smoke of it (one sample, one count, -smoke: never fails on numbers). To move the
## baseline, set its commit: line in bench/baseline.txt in a commit of its own, with the figures of
## a run in the commit message.
CHECK_COUNT     ?= 10
CHECK_THRESHOLD ?= 10
CHECK_SMOKE     ?=
CHECK_INSTR_RUNS      ?= 3
CHECK_INSTR_THRESHOLD ?= 10
CHECK_OPS       := -test.bench '^BenchmarkOps$$' -test.benchtime 400x
CHECK_LIFE      := -test.bench '^BenchmarkLifecycle$$/^strategy=twoway$$/^shape=(chain|chain-reverse|wide|random)$$/^n=10000$$/^faults=none$$' -test.benchtime 10x
.PHONY: bench-check
bench-check:
	@set -e; base=$$(sed -n 's/^commit: *//p' bench/baseline.txt); \
	if [ -z "$$base" ]; then echo "bench-check: bench/baseline.txt names no commit" >&2; exit 1; fi; \
	if ! git cat-file -e "$$base^{commit}" 2>/dev/null; then \
		echo "bench-check: the baseline commit $$base is not in this clone (a shallow one?): fetch it" >&2; exit 1; fi; \
	dir=$$(mktemp -d); trap 'rm -rf "$$dir"' EXIT; \
	mkdir "$$dir/src"; git archive "$$base" | tar -x -C "$$dir/src"; \
	echo "bench-check: building the baseline ($$base) and this tree" >&2; \
	(cd "$$dir/src" && $(GO) test -c -o "$$dir/old.test" ./bench); \
	$(GO) test -c -o "$$dir/new.test" ./bench; \
	echo "bench-check: load average at the start: $$(cut -d' ' -f1-3 /proc/loadavg)" >&2; \
	for i in $$(seq $(CHECK_COUNT)); do \
		echo "bench-check: pass $$i of $(CHECK_COUNT)" >&2; \
		order="old new"; if [ $$((i % 2)) = 0 ]; then order="new old"; fi; \
		for side in $$order; do \
			src=bench; if [ $$side = old ]; then src="$$dir/src/bench"; fi; \
			(cd "$$src" && "$$dir/$$side.test" -test.run '^$$' -test.count 1 $(CHECK_OPS) && \
			 "$$dir/$$side.test" -test.run '^$$' -test.count 1 $(CHECK_LIFE)) > "$$dir/pass" 2>&1 || { cat "$$dir/pass" >&2; exit 1; }; \
			grep '^Benchmark' "$$dir/pass" >> "$$dir/$$side.txt"; \
		done; \
	done; \
	echo "bench-check: load average at the end: $$(cut -d' ' -f1-3 /proc/loadavg)" >&2; \
	if [ "$(CHECK_INSTR_RUNS)" -gt 0 ] && command -v valgrind >/dev/null 2>&1; then \
		echo "bench-check: counting instructions with callgrind, $(CHECK_INSTR_RUNS) runs of each" >&2; \
		mkdir -p "$$dir/src/bench/instr"; cp bench/instr/main.go "$$dir/src/bench/instr/"; \
		(cd "$$dir/src" && CGO_ENABLED=0 $(GO) build -o "$$dir/old.instr" ./bench/instr); \
		CGO_ENABLED=0 $(GO) build -o "$$dir/new.instr" ./bench/instr; \
		core='--toggle-collect=github.com/dagq/dagq/core.(*Queue)'; \
		for spec in "submit chain 5000" "next independent 5000" "complete independent 5000" \
			"lifecycle chain 5000" "lifecycle chain-reverse 5000" "lifecycle wide 5000" "lifecycle random 5000"; do \
			set -- $$spec; \
			case $$1 in \
			submit) tg="$$core.Submit";; next) tg="$$core.Next";; complete) tg="$$core.Complete";; \
			*) tg="$$core.Submit $$core.Next $$core.Complete";; esac; \
			for i in $$(seq $(CHECK_INSTR_RUNS)); do for side in old new; do \
				count=$$(GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null $$tg \
					"$$dir/$$side.instr" $$spec 2>&1 | sed -n 's/.*refs: *//p' | tr -d ,); \
				if [ -z "$$count" ]; then echo "bench-check: callgrind counted nothing for $$side $$spec" >&2; exit 1; fi; \
				echo "BenchmarkInstr/op=$$1/shape=$$2/n=$$3 1 $$count instructions/op" >> "$$dir/$$side.txt"; \
			done; done; \
		done; \
	else echo "bench-check: no instruction counts (CHECK_INSTR_RUNS=0, or no valgrind here)" >&2; fi; \
	$(GO) tool benchstat -table .name "old=$$dir/old.txt" "new=$$dir/new.txt"; \
	$(GO) run ./bench/check -threshold $(CHECK_THRESHOLD) -instr-threshold $(CHECK_INSTR_THRESHOLD) $(CHECK_SMOKE) "$$dir/old.txt" "$$dir/new.txt"

## bench-durable: run BenchmarkDurable (dagq's durable queue and River, tuned and at its defaults,
## burning down 10^4 tasks on throwaway Postgres clusters with fsync on and off) and
## BenchmarkDurableEnqueue (10^4 tasks in one call, dagq's and River's) COUNT_DURABLE
## times, interleaved, into bench/results/durable/NAME.txt, then rewrite bench/RESULTS.md from the
## newest bench/results file and it (5 to 8 minutes a pass, by the machine)
COUNT_DURABLE ?= 6
.PHONY: bench-durable
bench-durable:
	@set -e; mkdir -p bench/results/durable; out=bench/results/durable/$(NAME).txt; part="$$out.part"; pass="$$out.pass"; \
	trap 'rm -f "$$pass"' EXIT; \
	commit=$$(git rev-parse --short HEAD); \
	if [ -n "$$(git status --porcelain)" ]; then commit="$$commit-dirty"; fi; \
	{ echo "commit: $$commit"; echo "date: $$(date -u +%Y-%m-%dT%H:%M:%SZ)"; echo "go: $$($(GO) env GOVERSION)"; \
	  echo "load-start: $$(cut -d' ' -f1-3 /proc/loadavg)"; } > "$$part"; \
	for i in $$(seq $(COUNT_DURABLE)); do \
		echo "bench-durable: pass $$i of $(COUNT_DURABLE) (follow it in $$pass)" >&2; \
		$(GO) test ./bench -run '^$$' -bench '^BenchmarkDurable(Enqueue)?$$' -benchtime 1x -count 1 -timeout 1h > "$$pass" 2>&1 || { cat "$$pass" >&2; exit 1; }; \
		if [ "$$i" = 1 ]; then grep -E '^(goos|goarch|cpu|pkg): ' "$$pass" >> "$$part" || true; fi; \
		grep '^BenchmarkDurable' "$$pass" >> "$$part"; \
	done; \
	{ sed -n '1,4p' "$$part"; echo "load-end: $$(cut -d' ' -f1-3 /proc/loadavg)"; sed '1,4d' "$$part"; } > "$$out"; rm -f "$$part"; \
	echo "bench-durable: wrote $$out" >&2; \
	main=$$(ls bench/results/*.txt | sort | tail -n 1); \
	$(GO) run ./bench/report -o bench/RESULTS.md -plots bench/plots "$$main" "$$out"

## benchstat: benchstat's tables (strategies side by side) of the newest bench/results file, by
## its date: line, or of BENCHFILE
benchstat:
	@f='$(BENCHFILE)'; \
	if [ -z "$$f" ]; then f=$$(grep -m1 -H '^date: ' bench/results/*.txt 2>/dev/null | sort -t' ' -k2 | tail -n 1 | cut -d: -f1); fi; \
	if [ -z "$$f" ]; then f=$$(ls -t bench/results/*.txt 2>/dev/null | head -n 1); fi; \
	if [ -z "$$f" ]; then echo "benchstat: no bench/results/*.txt: run make bench first" >&2; exit 1; fi; \
	echo "$$f"; $(GO) tool benchstat -table .name -col /strategy -row /shape,/n@num "$$f"
