# skampi: build, test and run. Every target installs what it needs (Debian 12, root);
# where the MPI library is already there (pkg-config finds it, or MPICC names its
# compiler wrapper) nothing is installed, and root is not needed.
SHELL := /bin/bash
GO ?= go
# The release and commit (scripts/version.sh): `skampi --version`, the run header.
VERSION := $(shell scripts/version.sh version)
COMMIT := $(shell scripts/version.sh commit)
LDFLAGS := -X main.version=$(VERSION) -X main.commit=$(COMMIT)
# The MPI library: openmpi (the default) or mpich (`make build MPI=mpich`), each its own
# binary. The build tag picks the pkg-config file, so the two never share a cached object.
MPI ?= openmpi
# MPICC=/path/to/mpicc: build with that wrapper's flags instead of pkg-config's (a
# cluster's module); which library it is comes from the wrapper (scripts/mpicc-flags.sh).
MPICC ?=
ifneq ($(MPICC),)
MPICC_MPI := $(shell scripts/mpicc-flags.sh "$(MPICC)" flavour 2>&1)
ifeq ($(filter openmpi mpich,$(MPICC_MPI)),)
$(error $(MPICC_MPI))
endif
ifeq ($(origin MPI),command line)
ifneq ($(MPI),$(MPICC_MPI))
$(error MPICC=$(MPICC) is $(MPICC_MPI)'s wrapper, not $(MPI)'s: leave MPI out or give $(MPI)'s mpicc)
endif
endif
MPI := $(MPICC_MPI)
export CGO_CFLAGS := $(shell scripts/mpicc-flags.sh "$(MPICC)" cflags)
export CGO_LDFLAGS := $(shell scripts/mpicc-flags.sh "$(MPICC)" ldflags)
MPICCTAG := ,mpicc
INCDIRS := $(shell scripts/mpicc-flags.sh "$(MPICC)" incdirs)
else
INCDIRS = $(shell pkg-config --variable=includedir ompi-c 2>/dev/null)
endif
ifeq ($(MPI),mpich)
BIN := bin/skampi-mpich
PKG := mpich
PACKAGES := libmpich-dev mpich
TAGS := mpi,mpich$(MPICCTAG)
else ifeq ($(MPI),openmpi)
BIN := bin/skampi
PKG := ompi-c
PACKAGES := libopenmpi-dev openmpi-bin
# OpenSHMEM comes with Open MPI here: built in where its header is (after `setup`).
TAGS = mpi$(MPICCTAG)$(shell for d in $(INCDIRS); do test -f "$$d/shmem.h" && echo ,shmem && break; done)
else
$(error MPI must be openmpi or mpich, got "$(MPI)")
endif
export OMPI_ALLOW_RUN_AS_ROOT := 1
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM := 1

.PHONY: all setup build test test-deps vet layers run bench-overhead clean install uninstall test-install

all: build

# Installs the MPI library (Open MPI with OpenSHMEM, or MPICH) from Debian only when
# pkg-config does not find it; without root, says what to install instead. With MPICC,
# the wrapper's library is used as it is.
setup:
	@if [ -z "$(MPICC)" ] && ! pkg-config --exists $(PKG) 2>/dev/null; then \
		if [ "$$(id -u)" != 0 ]; then \
			echo "$(MPI) is missing: install it (sudo apt-get install $(PACKAGES) pkg-config) and run make again, or name its compiler wrapper: make build MPICC=/path/to/mpicc" >&2; exit 1; \
		fi; \
		echo "installing $(MPI)..."; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			$(PACKAGES) pkg-config >/dev/null; \
	fi
	@$(GO) mod download

build: setup
	$(GO) build -tags $(TAGS) -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/skampi

vet: setup
	$(GO) vet ./...
	$(GO) vet -tags mpi ./...
	$(GO) vet -tags $(TAGS) ./...
	@# the benchmark and cluster scripts run rarely: a syntax error must not wait for them
	@for f in bench/*.sh scripts/*.sh .ci/run; do bash -n "$$f" || exit 1; done

# The layering of docs/development.md, checked: cgo only in ops/mpi and a family's kernels;
# record and plots/chart import nothing of skampi's; nothing imports cmd; the engine never
# imports MPI; no cycle among the C files of ops/mpi and the families' kernels
# (scripts/c-layers.sh); and the rules below, each with its reason.
layers: setup
	@bad=$$($(GO) list -tags $(TAGS) -f '{{if .CgoFiles}}{{.ImportPath}}{{end}}' ./... | grep -v -e '/ops/mpi$$' -e '/families/[^/]*/kernels$$' || true); \
	if [ -n "$$bad" ]; then echo "cgo outside ops/mpi and a family's kernels (families/NAME/kernels): $$bad"; exit 1; fi
	@bad=$$($(GO) list -tags $(TAGS) -f '{{join .Imports "\n"}}' ./record | grep skampi || true); \
	if [ -n "$$bad" ]; then echo "record must be a leaf, imports: $$bad"; exit 1; fi
	@bad=$$($(GO) list -tags $(TAGS) -f '{{join .Imports "\n"}}' ./plots/chart | grep skampi || true); \
	if [ -n "$$bad" ]; then echo "plots/chart draws over gonum only, imports: $$bad"; exit 1; fi
	@bad=$$($(GO) list -tags $(TAGS) -f '{{.ImportPath}}: {{join .Imports " "}}' ./... | grep 'skampi/cmd' | grep -v '^github.com/skampi/skampi/cmd' || true); \
	if [ -n "$$bad" ]; then echo "imports cmd: $$bad"; exit 1; fi
	@bad=$$($(GO) list -tags $(TAGS) -f '{{.ImportPath}}: {{join .Deps " "}}' ./measure ./runner ./inputs ./repsync ./clocksync ./record ./report/... ./plots/... ./htmlreport ./tune ./internal/printable | grep 'skampi/ops/mpi' || true); \
	if [ -n "$$bad" ]; then echo "a pure package depends on ops/mpi: $$bad"; exit 1; fi
	@# The engine is reused by every kernel package: it may know the record schema, nothing else.
	@bad=$$($(GO) list -tags $(TAGS) -f '{{join .Imports "\n"}}' ./measure | grep skampi | grep -v '/skampi/record$$' || true); \
	if [ -n "$$bad" ]; then echo "measure imports more of skampi than record: $$bad"; exit 1; fi
	@# report is the result formats; plots and htmlreport draw them and import report, not the reverse.
	@bad=$$($(GO) list -tags $(TAGS) -f '{{range .Deps}}{{$$.ImportPath}} -> {{.}}{{"\n"}}{{end}}' ./report/... | grep -E ' -> github.com/skampi/skampi/(plots|htmlreport)(/|$$)' || true); \
	if [ -n "$$bad" ]; then echo "report depends on plots or htmlreport: $$bad"; exit 1; fi
	@# The repetition sync is repsync: a package named sync shadowed the standard library's.
	@bad=$$($(GO) list -tags $(TAGS) -f '{{range .Imports}}{{$$.ImportPath}} imports {{.}}{{"\n"}}{{end}}{{range .TestImports}}{{$$.ImportPath}} (test) imports {{.}}{{"\n"}}{{end}}{{range .XTestImports}}{{$$.ImportPath}} (test) imports {{.}}{{"\n"}}{{end}}' ./... | grep ' imports github.com/skampi/skampi/sync$$' || true); \
	if [ -n "$$bad" ]; then echo "imports the old sync package (now repsync): $$bad"; exit 1; fi
	@# The catalogue is pure: the kernels read it, it never reaches them.
	@bad=$$($(GO) list -tags $(TAGS) -f '{{join .Deps "\n"}}' ./ops | grep -E 'skampi/(ops/mpi|families/[^/]+/kernels)$$' || true); \
	if [ -n "$$bad" ]; then echo "ops depends on a kernel package: $$bad"; exit 1; fi
	@# The runner measures points; the run's lifecycle (job) drives it, not the reverse.
	@bad=$$($(GO) list -tags $(TAGS) -f '{{join .Deps "\n"}}' ./runner | grep 'skampi/job$$' || true); \
	if [ -n "$$bad" ]; then echo "runner depends on job: $$bad"; exit 1; fi
	@# Clock models are pure math, the terminal escaping is used everywhere, the
	@# machine's description reads /proc and tools, numeric flags parse: all leaves.
	@bad=$$($(GO) list -tags $(TAGS) -f '{{range .Imports}}{{$$.ImportPath}} imports {{.}}{{"\n"}}{{end}}' ./clocksync ./internal/printable ./internal/hostinfo ./internal/numflag | grep ' imports github.com/skampi/' || true); \
	if [ -n "$$bad" ]; then echo "a leaf imports skampi: $$bad"; exit 1; fi
	@# A family is a folder under families/ and a line in families/all: the core knows none
	@# (it calls the hooks they register), and no family imports another.
	@bad=$$($(GO) list -tags $(TAGS) -f '{{.ImportPath}}: {{join .Deps " "}}' ./runner ./inputs ./ops ./ops/mpi ./measure ./record ./repsync ./clocksync | grep 'skampi/families' || true); \
	if [ -n "$$bad" ]; then echo "the core depends on a family: $$bad"; exit 1; fi
	@# job links them in through families/all and names none (OpenSHMEM's runtime: mpi.RuntimeNamed).
	@bad=$$($(GO) list -tags $(TAGS) -f '{{join .Imports "\n"}}' ./job | grep 'skampi/families/' | grep -v '/families/all$$' || true); \
	if [ -n "$$bad" ]; then echo "job imports a family: $$bad"; exit 1; fi
	@bad=$$($(GO) list -tags $(TAGS) -f '{{range .Imports}}{{$$.ImportPath}} imports {{.}}{{"\n"}}{{end}}' ./families/... | grep -v '^github.com/skampi/skampi/families/all ' | grep ' imports github.com/skampi/skampi/families/' | awk '{split($$1, a, "/"); split($$3, b, "/"); if (a[5] != b[5]) print}' || true); \
	if [ -n "$$bad" ]; then echo "a family imports another: $$bad"; exit 1; fi
	@# A family's kernels are the engine's guests: they import ops/mpi and nothing else of skampi.
	@bad=$$($(GO) list -tags $(TAGS) -f '{{range .Imports}}{{$$.ImportPath}} imports {{.}}{{"\n"}}{{end}}' ./families/... | grep -E '^github.com/skampi/skampi/families/[^/]+/kernels imports github.com/skampi/skampi/' | grep -v ' imports github.com/skampi/skampi/ops/mpi$$' || true); \
	if [ -n "$$bad" ]; then echo "a family's kernels import more of skampi than ops/mpi: $$bad"; exit 1; fi
	@# Recorded runs are test data (internal/aadata, read with report): only tests
	@# import them, so no binary embeds them.
	@bad=$$($(GO) list -tags $(TAGS) -f '{{.ImportPath}}: {{join .Imports " "}}' ./... | grep -E ' github.com/skampi/skampi/internal/aadata( |$$)' || true); \
	if [ -n "$$bad" ]; then echo "a non-test package imports the test data internal/aadata: $$bad"; exit 1; fi
	@scripts/c-layers.sh $(PKG)
	@echo "layers: ok"

# The HTML report is checked in headless Chromium (Debian's package).
test-deps:
	@if ! command -v chromium >/dev/null; then \
		echo "installing chromium (for the HTML report test)..."; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	fi

# Without the mpi tag every package is pure Go (ops/mpi is its stub): all of it must
# build and pass with cgo off, and under the race detector; then everything with MPI,
# including the integration tests that run bin/skampi under mpirun.
# The MPICH binary is built and runs the quick suite too (TestMPICH); both are
# installed into a scratch DESTDIR and built again from their mpicc wrappers. The MPI tests
# take about 2 minutes on a quiet 2-core machine; their 30-minute cap is for a busy one
# (every hang has its own watchdog well below it).
test: build vet layers test-deps
	$(MAKE) --no-print-directory build MPI=mpich
	$(MAKE) --no-print-directory test-install
	$(MAKE) --no-print-directory test-mpicc
	$(GO) vet -tags mpi,mpich ./ops/mpi ./job ./cmd/...
	CGO_ENABLED=0 $(GO) build ./...
	CGO_ENABLED=0 SKAMPI_REQUIRE_CHROMIUM=1 $(GO) test ./...
	$(GO) test -race ./...
	SKAMPI_REQUIRE_CHROMIUM=1 SKAMPI_BIN=$(CURDIR)/$(BIN) SKAMPI_MPICH_BIN=$(CURDIR)/bin/skampi-mpich SKAMPI_REQUIRE_MPICH=1 \
		$(GO) test -tags $(TAGS) -count=1 -timeout 60m ./...

# A single-node Slurm from Debian's packages: srun --mpi=pmix, an sbatch script, plain
# srun; torn down after (scripts/test-slurm.sh). Root.
.PHONY: test-slurm
test-slurm: build
	SKAMPI_BIN=$(CURDIR)/$(BIN) scripts/test-slurm.sh

# Every built-in suite at --np 2 and 4 on four MPI stacks: this machine's Open MPI and MPICH,
# and Debian 13's (Open MPI 5.0.7 with PRRTE and UCX 1.18, MPICH 4.2.1) in a chroot kept in
# /var/cache/skampi; one line per stack, suite and np (scripts/stacks.sh; STACKS=, SUITES=,
# NPS= pick a part). Root.
.PHONY: test-stacks
test-stacks:
	@if ! command -v debootstrap >/dev/null; then \
		echo "installing debootstrap (for the Debian 13 stacks)..."; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null; \
	fi
	scripts/stacks.sh

# The CLI reference (docs/cli Markdown, docs/man pages) from the commands themselves, and
# docs/skampi-coverage.md from the catalogue;
# a test fails when it is not current.
.PHONY: docs
docs:
	$(GO) run ./cmd/skampi docs --dir docs

# A cluster on one machine: 4 network namespaces over a shaped bridge, Open MPI over TCP
# between them (scripts/test-cluster.sh; scripts/cluster.sh up|down|mpirun). Root.
.PHONY: test-cluster bench-cluster-alltoall
test-cluster: build
	SKAMPI_BIN=$(CURDIR)/$(BIN) scripts/test-cluster.sh

# The GROMACS seed's all-to-all experiment on that cluster (4 hosts x 2 ranks, 200 Mbit/s
# links): results and figures in results-cluster/ (about a minute).
bench-cluster-alltoall: build
	scripts/cluster.sh up 4 200mbit
	scripts/cluster.sh mpirun -np 8 $(CURDIR)/$(BIN) -i cluster-alltoall -o results-cluster --append; rc=$$?; \
		scripts/cluster.sh down; exit $$rc
	./$(BIN) plot -o results-cluster/figures results-cluster/results.jsonl

# Each `make run` adds a run to results/ (--append): runs of one suite side by side are
# what `skampi compare` and the plots' overlays read.
run: build
	./$(BIN) -i quick -o results --append

# make install [PREFIX=/usr/local] [DESTDIR=]: every binary built (bin/skampi,
# bin/skampi-mpich), the man pages and bash/zsh/fish completions (scripts/install.sh).
# It builds nothing, so `sudo make install` never compiles as root in a user's tree:
# make build first. No root needed where PREFIX is writable.
PREFIX ?= /usr/local
DESTDIR ?=
install:
	@scripts/install.sh install "$(DESTDIR)" "$(PREFIX)"

uninstall:
	@scripts/install.sh uninstall "$(DESTDIR)" "$(PREFIX)"

# install and uninstall into a temporary DESTDIR, checked (part of make test).
test-install:
	@scripts/test-install.sh

# make build MPICC=... from each wrapper here, each binary run on one point (part of
# make test; about 30 s).
.PHONY: test-mpicc
test-mpicc: setup
	@scripts/test-mpicc.sh

bench-overhead: build
	bench/overhead.sh

# skampi beside OSU/IMB-style C programs, interleaved (bench/README.md); RUNS=15 on a noisy machine.
.PHONY: bench-reference
bench-reference: build
	bench/reference.sh

# A/A: identical configurations compared and tuned must show no significant difference
# (bench/aa.sh); TRIALS=3 RUNS=5 by default.
.PHONY: bench-aa
bench-aa: build
	bench/aa.sh

# The never-hang proof: every suite RUNS times at NP processes, one job at a time; per
# suite runs / timeouts / crashes / wall time (bench/stress.sh). Exit 1 on any failure.
RUNS ?= 50
NP ?= 2
SUITES ?= bench/stress/sendrecv.toml shmem shmem-ctx shmem-ring onesided locks overlap imbalance sync-semantics passive halo datatypes neighbor persistent io bench/stress/io-imb.toml mt bench/stress/refine.toml bench/stress/coll-osu.toml bench/stress/skampi-ops.toml
.PHONY: stress
stress: build
	bench/stress.sh $(RUNS) $(NP) $(SUITES)

# pt2pt and coll on 2 ranks: points converged, relative stderr p50/p90/max, wall time.
.PHONY: bench-convergence
bench-convergence: build
	bench/convergence.sh

clean:
	rm -rf bin results bench/pingpong
