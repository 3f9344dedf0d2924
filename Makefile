# The friendly front of the CMake build. `make sim` and `make test` work on a fresh
# Debian 12 machine: each first installs whatever packages are missing.
BUILD ?= build
JOBS  ?= $(shell nproc)
CMAKE_GENERATOR ?= $(shell command -v ninja >/dev/null 2>&1 && echo Ninja || echo "Unix Makefiles")

.PHONY: all build deps test sim bench lint clean fpga fpga-sim soc-sim fuzz test-sanitize soak explore-example

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

# The ResNet-18 suite on both devices, Google Benchmarks and plots, into $(BUILD)/bench/.
bench: build
	@scripts/bench/run $(BUILD)

# The libFuzzer harnesses of tests/fuzz, FUZZ_SECONDS each, built with clang in
# $(BUILD)/fuzz; what they find is saved in $(BUILD)/fuzz/findings/<harness>/. Then the
# structural fuzzer (docs/reliability.md, "Model validation"): FUZZ_MUTANTS random field
# edits of the digits model through accel run on ref and fsim, against LiteRT; failing
# mutants are saved in $(BUILD)/fuzz/findings/structural/.
FUZZ_SECONDS ?= 600
FUZZ_MUTANTS ?= 10000
fuzz: build
	@scripts/fuzz all $(BUILD)/fuzz $(FUZZ_SECONDS)
	@scripts/models/make-models $(BUILD) digits > /dev/null
	@$(BUILD)/venv/bin/python scripts/models/structural_fuzz.py $(BUILD)/models/digits.tflite \
	    --accel $(BUILD)/sw/accel --mutants $(FUZZ_MUTANTS) --save $(BUILD)/fuzz/findings/structural

# The unit, e2e and integration suites built with ASan and UBSan (ACCEL_SANITIZE=ON) in
# $(BUILD)/sanitize.
test-sanitize: deps
	@scripts/test-sanitize $(BUILD)/sanitize

# The RTL is linted with the build's generated packages: their build rule regenerates
# them when a config or the generator changed (and configures again when CMake must),
# rewriting only what changed, so that a `make` after `make lint` has nothing to redo.
lint: deps $(BUILD)/CMakeCache.txt
	@cmake --build $(BUILD) --target hw_packages > /dev/null
	@scripts/lint $(BUILD)

# The soak (docs/reliability.md): random layers on fsim and on the RTL under DRAM
# faults, against the golden reference, on both shipped configs; then, on each config,
# SOAK_NETWORKS random int8 networks, converted by TensorFlow, through accel run on ref,
# fsim and the RTL (under DRAM faults), against LiteRT's reference interpreter (failing
# ones are kept in $(BUILD)/soak/networks-<config>/). Not part of make test.
SOAK_FSIM ?= 10000
SOAK_RTL  ?= 500
SOAK_NETWORKS ?= 300
soak: build
	nice $(BUILD)/tests/soak/soak --fsim $(SOAK_FSIM) --rtl $(SOAK_RTL) --configs default,tiny
	@scripts/setup-python $(BUILD) > /dev/null
	@status=0; for config in default tiny; do \
	    echo "network soak, $$config config:"; \
	    nice $(BUILD)/venv/bin/python scripts/models/network_soak.py --accel $(BUILD)/sw/accel \
	        --networks $(SOAK_NETWORKS) --hw configs/hw/$$config.yaml --faults \
	        --save $(BUILD)/soak/networks-$$config || status=1; \
	done; exit $$status

# FPGA bitstream: make fpga BOARD=icebreaker|ulx3s|ulx3s-soc|pynq-z2 [CONFIG=<configs/hw name>]
# (docs/fpga.md). Needs only a configured build: the config's RTL packages come from
# the gen_hw_params binary that CMake compiles at configure time.
# A bad BOARD or CONFIG is refused before anything is installed, configured or written.
# docs/explore.md's worked example: two models swept over configs/explore/ulx3s-space.yaml
# under the ULX3S and a 512 KiB SRAM budget, with synthesized and RTL-confirmed points
# (cached in $(BUILD)/explore-cache; the first run takes an hour or more). Not in make test.
explore-example: build
	@scripts/explore/example $(BUILD)

fpga:
	@scripts/fpga/run --check-args "$(BOARD)" "$(CONFIG)"
	@$(MAKE) --no-print-directory deps $(BUILD)/CMakeCache.txt
	@scripts/fpga/run "$(BOARD)" "$(CONFIG)" "$(BUILD)"

# The synthesized netlist, simulated: make fpga-sim BOARD=ulx3s [CONFIG=<configs/hw name>]
# (docs/fpga.md): accel_top through synth_ecp5, Verilated with the ECP5 cell models,
# runs random conv2d layers and the digits network from random initial state, once per
# seed, each output against the golden reference. Long (synthesis, a large Verilator
# build); like make soak, not part of make test. Bad BOARD or CONFIG: refused first.
FPGA_SIM_SEEDS  ?= 1,2
FPGA_SIM_LAYERS ?= 8
fpga-sim:
	@scripts/fpga/netlist-sim --check-args "$(BOARD)" "$(CONFIG)"
	@$(MAKE) --no-print-directory deps $(BUILD)/CMakeCache.txt
	@nice scripts/fpga/netlist-sim --seeds $(FPGA_SIM_SEEDS) --layers $(FPGA_SIM_LAYERS) \
	    --jobs $(JOBS) "$(BOARD)" "$(CONFIG)" "$(BUILD)"

# The ULX3S SoC simulated end to end: make soc-sim [SOC_SIM_MODELS="digits resnet8"]
# (docs/fpga.md, "ULX3S SoC"): the LiteX SoC with LiteDRAM on its SDRAM model,
# Verilated, driven by accel run --device uart: through a pty; the models bit-exact
# against LiteRT, then the fault cases (each must end in exit 3). Needs LiteX from PyPI.
SOC_SIM_MODELS ?= digits resnet8
soc-sim:
	@$(MAKE) --no-print-directory deps $(BUILD)/CMakeCache.txt
	@scripts/fpga/soc-sim --models "$(SOC_SIM_MODELS)" "$(BUILD)"

clean:
	rm -rf $(BUILD)
