# worldcook build, test and benchmark entry points.
GO        ?= go
BIN       := bin/worldcook
DEMO      := testdata/demo
STATICCHECK_VERSION := v0.8.2
# Each fuzz target runs this many inputs in `make test` (longer: make fuzz
# FUZZTIME=5m). A count, not a duration: Go 1.26's fuzz coordinator can
# report a spurious "context deadline exceeded" when a duration runs out
# (golang/go#75804), which would make CI flaky without any bug found.
FUZZTIME  ?= 20000x

.PHONY: all build install npm demo test lint vet fmt-check conflict-check staticcheck tidy-check layers race purego perf-guard fuzz bench clean

all: build

# -buildvcs=auto stamps the version from the git checkout (worldcook
# --version) even where GOFLAGS turns stamping off.
build:
	$(GO) build -trimpath -buildvcs=auto -o $(BIN) .

# Install worldcook into $GOBIN (default $GOPATH/bin), as go install does.
install:
	$(GO) install -trimpath -buildvcs=auto .

# The npm packages, as esbuild publishes its own (docs/estella.md): the
# worldcook launcher and one package per platform holding the binary,
# cross-compiled from this checkout with -trimpath, at the version
# worldcook --version prints. Their tarballs go to NPM_OUT; nothing is
# published. Install them into a project with
#   npm install ./dist/npm/worldcook-VERSION.tgz ./dist/npm/worldcook-linux-x64-VERSION.tgz
# NPM_PLATFORMS=linux-x64,win32-x64 builds only those platform packages.
NPM_OUT       ?= dist/npm
NPM_JOBS      ?= 2
NPM_PLATFORMS ?=

npm:
	$(GO) run ./tools/npmpack -out $(NPM_OUT) -jobs $(NPM_JOBS) -platforms "$(NPM_PLATFORMS)"

# Build, cook the demo world, validate it and replay its camera route with a
# 16 KiB-per-frame load budget. The per-frame report goes to
# out/demo/simulate.txt; the warnings and the summary are printed, with the
# gate a CI job would run (pop-in after the warm-up, loads given up).
SIMULATE_DEMO := $(BIN) --config $(DEMO)/worldcook.yaml simulate --path $(DEMO)/route.csv out/demo --budget 16KiB

demo: build
	$(BIN) --config $(DEMO)/worldcook.yaml cook $(DEMO)/main.esscene --out out/demo --timings
	$(BIN) --config $(DEMO)/worldcook.yaml validate $(DEMO)/main.esscene --map out/demo/validate-map.svg
	$(SIMULATE_DEMO) --plot out/demo/simulate-plot.svg --map out/demo/simulate-map.svg --html out/demo/simulate.html > out/demo/simulate.txt
	$(SIMULATE_DEMO) --summary-only --fail-on holes,failures
	@echo "demo world cooked into out/demo; per-frame report out/demo/simulate.txt; drawings out/demo/*.svg; the run over time out/demo/simulate.html"

# Everything CI checks: formatting, vet, staticcheck, a tidy go.mod, the
# import layers, the tests under the race detector, the parse without its
# vector kernel, the memory guard, and a short run of every fuzz target.
test: lint race purego perf-guard fuzz

lint: fmt-check conflict-check vet staticcheck tidy-check layers

# No file keeps the markers of a merge that was not finished (but the
# scene kept to test how a conflicted scene is refused).
conflict-check:
	@if git grep -nIE '^(<<<<<<<|>>>>>>>)( |$$)' -- . ':!testdata/bad/merge-conflict.esscene' 2>/dev/null; then echo "unresolved merge conflict markers above"; exit 1; fi

# go.mod and go.sum must be what go mod tidy makes of them.
tidy-check:
	@$(GO) mod tidy -diff || { echo "go.mod or go.sum is not tidy: run go mod tidy"; exit 1; }

# No package imports one above it, and cmd/ imports only the library's
# entry points (tools/layers lists the layers and cmd's exceptions).
layers:
	$(GO) run ./tools/layers

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

staticcheck:
	@command -v staticcheck >/dev/null 2>&1 || $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)
	"$$(command -v staticcheck || echo $$($(GO) env GOPATH)/bin/staticcheck)" ./...

race:
	$(GO) test -race -count=1 ./...

# The scene parser has an AVX-512 kernel where the CPU has one; -tags
# purego builds it without, so both paths are tested on any machine.
purego:
	$(GO) test -tags purego -count=1 ./internal/scene ./validate ./cook

# The memory guard: an in-process cook and validate of a generated
# 100,000-entity world, whose bytes allocated per entity and peak live
# heap per input byte may be at most 25% over cook/testdata/perf-budget.json
# (docs/benchmarks.md says how to move the budget). Counts, not times:
# it holds on a loaded machine.
perf-guard:
	WORLDCOOK_PERF_GUARD=1 $(GO) test -count=1 -run '^TestPerfGuard$$' -v ./cook

# Run each fuzz target for FUZZTIME. A crasher is written under the
# package's testdata/fuzz and becomes a regression test. The targets are
# found in the sources, not by go test -list, which would build every
# package's tests once more only to list them.
fuzz:
	@set -e; for dir in $$(grep -rl --include='*_test.go' '^func Fuzz' . | xargs -n1 dirname | sort -u); do \
		for fn in $$(sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*/\1/p' $$dir/*_test.go | sort); do \
			echo "fuzz $$dir $$fn ($(FUZZTIME))"; \
			$(GO) test -run '^$$' -fuzz "^$$fn$$" -fuzztime $(FUZZTIME) $$dir; \
		done; \
	done

# Benchmarks against floors measured in the same run (docs/benchmarks.md):
# the Go benchmarks of every package, then whole commands on generated
# worlds (cookbench: cp and parse-only floors, cook, re-cook, validate,
# peak RSS, and simulate's per-frame cost). Compare runs with benchstat.
#   make bench-cook BENCH_ENTITIES=5000000 BENCH_RUNS=3
#   make bench-cook BENCH_FLAGS='-o cook.txt'     # also in benchstat format
BENCH_ENTITIES ?= 100000,1000000
BENCH_RUNS     ?= 5
BENCH_FLAGS    ?=
.PHONY: bench-go bench-cook

bench: bench-go bench-cook

bench-go:
	$(GO) test -run '^$$' -bench . -benchmem -count 1 ./...

bench-cook:
	$(GO) run ./tools/cookbench -entities $(BENCH_ENTITIES) -runs $(BENCH_RUNS) $(BENCH_FLAGS)

clean:
	rm -rf bin out cooked dist
