# A thin wrapper around CMake: `make run` and `make test` are all you need.
BUILD ?= build
ASAN_BUILD ?= build-asan
JOBS ?= $(shell nproc)

.PHONY: all deps build run test test-asan docs bench demo deb clean

all: build

deps:
	@scripts/install-deps.sh

build: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMDSIM_WERROR=ON >/dev/null
	@cmake --build $(BUILD) -j$(JOBS)

run: build
	@$(BUILD)/mdsim $(ARGS)

test: build
	cd $(BUILD) && ctest --output-on-failure -j$(JOBS)
	@$(MAKE) --no-print-directory test-asan

test-asan: deps
	@cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DMDSIM_SANITIZE=ON -DMDSIM_WERROR=ON >/dev/null
	@cmake --build $(ASAN_BUILD) -j$(JOBS)
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1 ctest --output-on-failure -j$(JOBS)

docs: build
	$(BUILD)/mdsim commands > docs/commands.md

# The reference lab end to end on a scratch lab file: FCIP over the
# simulator, the tuner's reads, compression, the profile tuning; it leaves
# its time series in $(BUILD)/demo/seed-lab.csv and plots in $(BUILD)/demo/plots.
demo: build
	@mkdir -p $(BUILD)/demo
	@d=$$(mktemp -d) && $(BUILD)/mdsim --db $$d/lab.db replay --series $(BUILD)/demo/seed-lab.csv \
	    --plots $(BUILD)/demo/plots examples/seed-lab.txt; rc=$$?; rm -rf $$d; exit $$rc

bench: build
	@for b in $(BUILD)/bench_*; do echo "== $$b"; $$b; done
	@for b in bench/*.sh; do echo "== $$b"; $$b $(BUILD)/mdsim; done

# The Debian package, in $(BUILD)/ (docs/packaging.md); built in a
# directory of its own, configured for /usr, so the build above keeps its
# install prefix.
deb: deps
	@scripts/build-deb.sh $(BUILD)/deb $(BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
