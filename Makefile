# The friendly front of the CMake build. `make sim` and `make test` work on a fresh
# Debian 12 machine: each first installs whatever packages are missing.
BUILD ?= build
JOBS  ?= $(shell nproc)
CMAKE_GENERATOR ?= $(shell command -v ninja >/dev/null 2>&1 && echo Ninja || echo "Unix Makefiles")

.PHONY: all build deps test sim lint clean

all: build

deps:
	@scripts/setup-deps

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) -G "$(CMAKE_GENERATOR)" -DCMAKE_BUILD_TYPE=Release

build: deps $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

test: build lint
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

sim: build
	@scripts/demo-sim $(BUILD)

lint: deps $(BUILD)/CMakeCache.txt
	@scripts/lint $(BUILD)

clean:
	rm -rf $(BUILD)
