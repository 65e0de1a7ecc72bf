# Tessera top-level entry points. Every target bootstraps missing Debian packages first,
# then drives CMake (Ninja + ccache) in build/. See README.md.

BUILD      ?= build
# ccache hashes paths under the checkout relative to it, so a fresh clone in another folder
# reuses the cache (issue 15 item 7). Set in the environment, not in the compile commands, so
# it never makes ninja rebuild anything.
export CCACHE_BASEDIR ?= $(CURDIR)
JOBS       ?= $(shell nproc)
CMAKE_ARGS ?=
CTEST_ARGS ?=

.PHONY: all deps configure configure-sim build run showcase test regress lint synth synth-full synth-baseline docs clean distclean help

all: build

help:
	@echo "make run      bootstrap, build tessera-sim only, render the demo scene on the RTL GPU"
	@echo "make showcase build everything, synthesize, show the CP, driver, memory and SLC figures"
	@echo "make test     bootstrap, build, lint, synthesis check, whole regression"
	@echo "make regress  make test with more seeds and longer runs"
	@echo "make lint     verilator --lint-only -Wall on every RTL model"
	@echo "make synth    yosys synthesis of every block, report vs baseline"
	@echo "make docs     regenerate docs/reference from spec/"

deps:
	@scripts/bootstrap.sh

# A fresh tree configured by `make run` has only tessera-sim's models (TESSERA_MODELS=sim:
# Verilator runs at configure time, model after model); every other target configures all.
$(BUILD)/build.ninja: | deps
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release $(CMAKE_ARGS)

configure: deps $(BUILD)/build.ninja
	@if grep -q '^TESSERA_MODELS:STRING=sim$$' $(BUILD)/CMakeCache.txt 2>/dev/null; then \
	  echo "configure: adding the models make run left out (TESSERA_MODELS=all)"; \
	  cmake -S . -B $(BUILD) -DTESSERA_MODELS=all $(CMAKE_ARGS); fi

configure-sim: deps
	@if [ ! -f $(BUILD)/build.ninja ]; then \
	  cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release -DTESSERA_MODELS=sim $(CMAKE_ARGS); fi

build: configure
	cmake --build $(BUILD) -j $(JOBS)

# The main job alone: tessera-sim and what it links (the GPU models, the firmware), no benches,
# no synthesis.
run: configure-sim
	cmake --build $(BUILD) -j $(JOBS) --target tessera-sim
	@scripts/run-demo.sh $(BUILD)

# The demonstrations of the parts underneath tessera-sim.
showcase: build synth
	@scripts/run-showcase.sh $(BUILD)

lint: configure
	cmake --build $(BUILD) --target lint

synth: configure
	cmake --build $(BUILD) --target synth

# make synth plus the configurations whose Yosys run takes minutes (SYNTH_FULL).
synth-full: configure
	cmake --build $(BUILD) --target synth_full

# Accept the current synthesis figures as the new baseline (review the diff before committing).
synth-baseline: configure
	scripts/synth/update-baseline.sh $(BUILD)

docs: configure
	cmake --build $(BUILD) --target docs

# One ninja run builds, lints and synthesizes, so Yosys and Verilator jobs fill both cores
# while the last compiles and links finish (three runs in a row leave a core idle at each end).
test: configure
	cmake --build $(BUILD) -j $(JOBS) --target all lint synth
	@scripts/run-tests.sh $(BUILD) $(CTEST_ARGS)

regress: configure
	cmake --build $(BUILD) -j $(JOBS) --target all lint synth synth_full
	@TESSERA_REGRESS=1 scripts/run-tests.sh $(BUILD) $(CTEST_ARGS)

clean:
	-cmake --build $(BUILD) --target clean

distclean:
	rm -rf $(BUILD)
