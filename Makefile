# shale: `make` builds ./build/shale; `make test` installs, builds and runs every test with a
# release and an ASan+UBSan binary; `make demo` installs, builds and runs the main job.
JOBS ?= 2
CC ?= gcc

.PHONY: all build build-asan build-clang build-fuzz deps test test-release test-asan fuzz demo clean format install difftest

all: build

deps:
	@bash scripts/install-deps.sh

build:
	@cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER=$(CC) >/dev/null
	@cmake --build build -j $(JOBS)

build-asan:
	@cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DSHALE_SANITIZE=ON -DCMAKE_C_COMPILER=clang >/dev/null
	@cmake --build build-asan -j $(JOBS)

# A Release build with clang too, so both compilers' warnings stay errors.
build-clang:
	@cmake -S . -B build-clang -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER=clang >/dev/null
	@cmake --build build-clang -j $(JOBS)

build-fuzz:
	@cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=Debug -DSHALE_SANITIZE=ON -DSHALE_FUZZ=ON -DCMAKE_C_COMPILER=clang >/dev/null
	@cmake --build build-fuzz -j $(JOBS)

test-release: build
	@cd build && ctest --output-on-failure -j $(JOBS)

test-asan: build-asan
	@cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure -j $(JOBS)

fuzz: build-fuzz
	@bash tests/fuzz/run-all.sh build-fuzz/fuzz 20

test: deps
	@$(MAKE) --no-print-directory build-clang
	@$(MAKE) --no-print-directory test-release
	@$(MAKE) --no-print-directory test-asan
	@$(MAKE) --no-print-directory fuzz

# A long differential campaign against ClickHouse (chdb): make difftest SEEDS=1-100 N=500
# FEATURES=-window,+map (default: every feature but the types shale lacks); the report
# (minimised divergences) goes to build/difftest-report.md.
SEEDS ?= 1-20
N ?= 300
FEATURES ?=
difftest: build
	@node tests/difftest/difftest.js --shale build/shale --seeds $(SEEDS) --n $(N) --features "$(FEATURES)" \
		--report build/difftest-report.md

# make install [PREFIX=/usr/local] [DESTDIR=…]: binary, man page, /etc/shale config, systemd unit.
PREFIX ?= /usr/local
install:
	@cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER=$(CC) -DCMAKE_INSTALL_PREFIX=$(PREFIX) >/dev/null
	@cmake --build build -j $(JOBS)
	@DESTDIR=$(DESTDIR) cmake --install build --prefix $(PREFIX)

demo: deps build
	@bash scripts/demo.sh

format:
	@clang-format -i $$(git ls-files 'src/*.c' 'src/*.h' 'tests/*.c')

clean:
	rm -rf build build-asan build-fuzz build-clang
