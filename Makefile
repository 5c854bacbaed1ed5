# skampi: build, test and run. Every target installs what it needs (Debian 12, root).
SHELL := /bin/bash
GO ?= go
VERSION := $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X main.version=$(VERSION)
BIN := bin/skampi
export OMPI_ALLOW_RUN_AS_ROOT := 1
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM := 1

.PHONY: all setup build test test-deps vet run bench-overhead clean

all: build

# Installs Open MPI (with OpenSHMEM) from Debian only when it is missing.
setup:
	@if ! command -v mpicc >/dev/null || ! pkg-config --exists ompi-c 2>/dev/null; then \
		echo "installing Open MPI..."; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			libopenmpi-dev openmpi-bin pkg-config >/dev/null; \
	fi
	@$(GO) mod download

build: setup
	$(GO) build -tags mpi -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/skampi

vet: setup
	$(GO) vet ./...
	$(GO) vet -tags mpi ./...

# The HTML report is checked in headless Chromium (Debian's package).
test-deps:
	@if ! command -v chromium >/dev/null; then \
		echo "installing chromium (for the HTML report test)..."; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	fi

# Pure-Go packages must build and pass without MPI; then everything with MPI,
# including the integration tests that run bin/skampi under mpirun.
test: build vet test-deps
	$(GO) build ./...
	SKAMPI_REQUIRE_CHROMIUM=1 $(GO) test ./...
	SKAMPI_REQUIRE_CHROMIUM=1 SKAMPI_BIN=$(CURDIR)/$(BIN) $(GO) test -tags mpi -count=1 ./...

run: build
	./$(BIN) -i quick -o results

bench-overhead: build
	bench/overhead.sh

clean:
	rm -rf bin results bench/pingpong
