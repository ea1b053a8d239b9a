# jsonrpc-envelope: `make demo` shows the main job, `make test` runs every
# test of every language present. See README.md.

SHELL     := /bin/bash
CARGO     ?= cargo
CC        ?= cc
PYTHON    ?= python3
VALGRIND  ?= valgrind
BUILD     := target/c
DEBUG_LIB := target/debug
RELEASE_LIB := target/release

CFLAGS_STRICT := -std=c11 -Wall -Wextra -Wpedantic -Werror -Iinclude
SANITIZE      := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
VALGRIND_RUN  := $(VALGRIND) --quiet --leak-check=full --show-leak-kinds=all --errors-for-leak-kinds=all --error-exitcode=1

.PHONY: all build demo demo-guard test test-lint test-rust test-c header clean

all: build

build: $(RELEASE_LIB)/libjsonrpc_envelope.so

# ---- setup: what the targets need, installed on first use -----------------
#
# No target assumes a tool. Each depends on a setup-* target that checks
# for what it uses and installs what is missing, saying what it installs:
# system commands with apt-get (mk/need.sh), Rust components with rustup,
# tools from crates.io into target/tools (not the user's ~/.cargo/bin).
# With everything there a setup target prints nothing and takes
# milliseconds, so it runs every time: no stamp file can outlive the tool
# it stands for. A tool that cannot be had stops make with one line naming
# it and how to get it. `make setup` runs every setup target.
#
# Another part of the build hooks in the same way, in its own rules.mk:
#
#   SETUP += setup-node                  # `make setup` runs it too
#   setup-node: setup-build              # the library's needs, when it builds it
#   	@mk/need.sh test-node node npm   # system commands, installed or named
#   	@...                             # its packages, into target/ or its own
#   	                                 # ignored folder, one line when it installs
#   test-node test-node-types: setup-node
#
# Make every target that runs a tool depend on the setup target itself (not
# only the target in TESTS): `make -j` or `make test-node-types` may start it
# first; for a file target, as an order-only prerequisite (`| setup-node`),
# so that the phony setup target does not make it out of date. A binding
# whose needs live in a script bindings/NAME/ci-setup.sh gets it as its
# setup-NAME, a prerequisite of test-NAME, without writing that rule (so
# write either the script or the rule, not both). Python tests run with
# $(PYTEST) and depend on setup-pytest; a part that makes its own virtual
# environment depends on setup-venv.

SETUP := setup-build setup-demo setup-lint setup-rust setup-c setup-fuzz
TOOLS := target/tools
RUST_VERSION := $(shell sed -n 's/^rust-version = "\(.*\)"$$/\1/p' Cargo.toml)

.PHONY: setup $(SETUP) setup-tsan

# Cargo and a C compiler and linker: what building the library needs.
setup-build:
	@command -v $(CARGO) >/dev/null 2>&1 || { \
	  echo "make needs cargo (Rust $(RUST_VERSION) or newer), which is not on PATH: install Rust with rustup (https://rustup.rs)" >&2; exit 1; }
	@have=$$($(CARGO) --version | cut -d' ' -f2 | cut -d- -f1); \
	  [ "$$(printf '%s\n%s\n' '$(RUST_VERSION)' "$$have" | sort -V | head -n 1)" = '$(RUST_VERSION)' ] || { \
	  echo "make needs Rust $(RUST_VERSION) or newer, and cargo is $$have: update it (rustup update)" >&2; exit 1; }
	@mk/need.sh build '$(firstword $(CC))=$(if $(filter cc,$(CC)),gcc,$(firstword $(CC)))'

# The demo's servers are Python scripts.
setup-demo: setup-build
	@mk/need.sh demo python3

# cargo fmt and cargo clippy: components of the Rust toolchain.
setup-lint: setup-build
	@for component in rustfmt:fmt clippy:clippy; do \
	  $(CARGO) $${component#*:} --version >/dev/null 2>&1 && continue; \
	  if command -v rustup >/dev/null 2>&1; then \
	    echo "setup-lint: installing the Rust component $${component%:*} (rustup component add $${component%:*})"; \
	    rustup component add $${component%:*} >/dev/null 2>&1 && continue; \
	  fi; \
	  echo "test-lint needs cargo $${component#*:}, which is not installed: add the Rust component $${component%:*} (rustup component add $${component%:*})" >&2; \
	  exit 1; \
	done

# The Rust tests run nm and readelf on the built library.
setup-rust: setup-build
	@mk/need.sh test-rust nm=binutils readelf=binutils

# The C tests: valgrind, Python (it flattens the vectors for C), and the
# compiler's sanitizer runtimes (part of gcc on Debian).
setup-c: setup-build
	@mk/need.sh test-c valgrind nm=binutils python3
	@for sanitizer in address,undefined thread; do \
	  echo 'int main(void) { return 0; }' | $(CC) -fsanitize=$$sanitizer -x c - -o /dev/null >/dev/null 2>&1 || { \
	    echo "test-c needs $(CC) -fsanitize=$$sanitizer, whose runtime is not installed: install gcc's sanitizer libraries (Debian: sudo apt-get install libasan8 libubsan1 libtsan2)" >&2; exit 1; }; \
	done

# cargo-fuzz, pinned, from crates.io into target/tools: nothing outside the
# checkout changes, and every checkout fuzzes with the same version
# (`make clean` removes it with the rest of target/). libFuzzer needs a
# C++ compiler.
CARGO_FUZZ_VERSION := 0.13.2

setup-fuzz: setup-build
	@mk/need.sh fuzz c++=g++ python3
	@$(TOOLS)/bin/cargo-fuzz --version 2>/dev/null | grep -qx 'cargo-fuzz $(CARGO_FUZZ_VERSION)' || { \
	  echo "setup-fuzz: installing cargo-fuzz $(CARGO_FUZZ_VERSION) from crates.io into $(TOOLS) (once: a minute or two)"; \
	  $(CARGO) install --quiet --locked --root $(TOOLS) --version $(CARGO_FUZZ_VERSION) cargo-fuzz || { \
	    echo "fuzz needs cargo-fuzz $(CARGO_FUZZ_VERSION), and cargo install could not build it: see above (is crates.io reachable?)" >&2; exit 1; }; }

# Python that can make virtual environments (Debian's python3-venv), and
# pytest for every Python test: a virtual environment of $(PYTHON) in
# target/pytest, so that nothing is installed into $(PYTHON) itself. With
# it, pinned, what tests read documents with: jsonschema (the probe's SARIF
# logs against the SARIF schema, tests/probe/sarif_schema.py) and PyYAML
# (the GitHub Action, action.yml, in tests/probe/test_action.py).
PYTEST_REQUIREMENTS := 'pytest>=7' 'jsonschema==4.26.0' 'PyYAML==6.0.3'
PYTEST := $(CURDIR)/target/pytest/bin/python -m pytest
SETUP  += setup-venv setup-pytest
.PHONY: setup-venv setup-pytest

setup-venv:
	@PYTHON='$(PYTHON)' mk/venv.sh setup-venv

setup-pytest: setup-venv
	@PYTHON='$(PYTHON)' mk/venv.sh setup-pytest target/pytest $(PYTEST_REQUIREMENTS)

# A part's own setup script, bindings/NAME/ci-setup.sh or peers/ci-setup.sh,
# as its setup target setup-NAME (see above); a binding's is a prerequisite
# of its test-NAME. make runs it after the prerequisites that test-NAME's
# own rule lists, so those that need its tools depend on it themselves.
SETUP_SCRIPTS := $(wildcard bindings/*/ci-setup.sh peers/ci-setup.sh)
setup_name = setup-$(notdir $(patsubst %/ci-setup.sh,%,$(1)))
SETUP += $(foreach script,$(SETUP_SCRIPTS),$(call setup_name,$(script)))

define setup_script
.PHONY: $(call setup_name,$(1))
$(call setup_name,$(1)):
	@CC='$$(CC)' CXX='$$(CXX)' PYTHON='$$(PYTHON)' CARGO='$$(CARGO)' bash $(1)
endef
$(foreach script,$(SETUP_SCRIPTS),$(eval $(call setup_script,$(script))))
$(foreach script,$(filter bindings/%,$(SETUP_SCRIPTS)),\
  $(eval $(patsubst setup-%,test-%,$(call setup_name,$(script))): $(call setup_name,$(script))))

# ---- demo: the CLI and a small C host over the example captures ----------

GUARD_DEMO_INPUT := printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"ping"}' 'not json' '[1,2]' '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}'

demo: setup-demo build $(BUILD)/capture_host
	@echo '== jsonrpc-envelope lint: a server stdout capture, as its host (client) reads it'
	@./target/release/jsonrpc-envelope lint examples/captures/server-stdout.jsonl || echo "(exit status $$?: lines that would trouble a peer)"
	@echo
	@echo '== jsonrpc-envelope lint --role server: what a client sent to a server'
	@./target/release/jsonrpc-envelope lint --role server examples/captures/client-to-server.jsonl || echo "(exit status $$?: lines that would trouble a peer)"
	@echo
	@echo '== jsonrpc-envelope classify: one JSON record per line (first three lines)'
	@./target/release/jsonrpc-envelope classify examples/captures/client-to-server.jsonl | head -n 3
	@echo
	@echo '== examples/c/capture_host: a C host reading the capture in 256-byte chunks'
	@LD_LIBRARY_PATH=$(RELEASE_LIB) $(BUILD)/capture_host server examples/captures/client-to-server.jsonl
	@echo
	@$(MAKE) --no-print-directory demo-guard
	@echo
	@$(MAKE) --no-print-directory demo-probe

# The guard's part of the demo, which `make demo-guard` shows alone.
demo-guard: setup-demo build | $(BUILD)
	@echo '== jsonrpc-envelope guard: a polluting, trusting server (examples/guard/naive_server.py) made safe'
	@echo '-- without the guard: its banner and logs reach the host, and the line "not json" ends it'
	@$(GUARD_DEMO_INPUT) | $(PYTHON) examples/guard/naive_server.py 2>$(BUILD)/guard-demo.err | sed 's/^/  host reads: /'
	@sed 's/^/  stderr: /' $(BUILD)/guard-demo.err
	@echo '-- with the guard: the host reads only JSON-RPC, the bad lines are answered, the server lives'
	@$(GUARD_DEMO_INPUT) | ./target/release/jsonrpc-envelope guard -- $(PYTHON) examples/guard/naive_server.py 2>$(BUILD)/guard-demo.err | sed 's/^/  host reads: /'
	@sed 's/^/  stderr: /' $(BUILD)/guard-demo.err

# The probe's part of the demo (`make demo-probe` alone): its report on the
# same naive server, without the guard (it fails: exit status 1, shown) and
# with it. The progress lines on stderr are left out.
PROBE_DEMO_LINES := 50
PROBE_DEMO := ./target/release/jsonrpc-envelope probe --lines $(PROBE_DEMO_LINES)
PROBE_DEMO_QUIET := 2> >(grep -v '^probe: [0-9]' >&2)

.PHONY: demo-probe
demo-probe: setup-demo build
	@echo '== jsonrpc-envelope probe: a conformance report for any stdio MCP server (the naive server again)'
	@echo '-- without the guard: the banner and logs on stdout, the lines that end it, the replies it never sends'
	@$(PROBE_DEMO) -- $(PYTHON) examples/guard/naive_server.py $(PROBE_DEMO_QUIET) || echo "(exit status $$?: the server fails the probe)"
	@echo
	@echo '-- with the guard in front of it: every line passes'
	@$(PROBE_DEMO) -- ./target/release/jsonrpc-envelope guard -- $(PYTHON) examples/guard/naive_server.py $(PROBE_DEMO_QUIET)

$(BUILD)/capture_host: examples/c/capture_host.c include/jsonrpc_envelope.h $(RELEASE_LIB)/libjsonrpc_envelope.so | $(BUILD)
	$(CC) $(CFLAGS_STRICT) -O2 $< -L$(RELEASE_LIB) -ljsonrpc_envelope -o $@

$(BUILD):
	mkdir -p $@

# ---- test: every layer ----------------------------------------------------

# Each binding adds its test target to TESTS in its own rules.mk, and may
# add a benchmark to BENCHES (writing bench/out/<lang>.txt).
TESTS := test-lint test-rust test-c test-fuzz
BENCHES := bench-rust bench-memory bench-guard
-include bindings/*/rules.mk
include peers/rules.mk
include tests/guard/rules.mk
include tests/sessions/rules.mk
include tests/probe/rules.mk
include tests/recipes/rules.mk
# Release artifacts (make dist) and their tests (test-dist).
include packaging/rules.mk

test: setup $(TESTS)

test-lint: setup-lint setup-picture
	$(PYTHON) docs/picture/render.py --check $(PICTURE_SOURCE) $(PICTURE)
	$(CARGO) fmt --all --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings
	$(CARGO) clippy -p jsonrpc-envelope --all-targets --features panic-test -- -D warnings
	$(CARGO) fmt --check --manifest-path fuzz/Cargo.toml
	$(CARGO) clippy --manifest-path fuzz/Cargo.toml --all-targets -- -D warnings

# Unit tests, vectors through the Rust API and the C ABI, header drift,
# exported symbols, the CLI, JSONTestSuite; the MCP profile against its
# independent reference, on the vectors and on random MCP-shaped lines.
# --show-output shows which CPU-feature paths a test skipped on this machine.
test-rust: setup-rust
	$(CARGO) test -- --show-output
	$(PYTHON) tests/vectors/mcp_reference.py --check
	$(PYTHON) tests/vectors/mcp_reference.py --against target/debug/jsonrpc-envelope

# million_calls under valgrind, where a call costs some fifty times as much:
# 200,000 calls (every entry point thousands of times) show a leak or a bad
# read as a million would, in a fifth of the time (`make test-c
# MILLION_CALLS_UNDER_VALGRIND=1000000` runs the million).
MILLION_CALLS_UNDER_VALGRIND ?= 200000

# The C test (the vectors of both profiles one line at a time and streamed
# through the reader at every chunk size and through sessions, the reader's
# and the session's promises, the ABI's edges)
# against the debug library, under valgrind (every seventh chunk size:
# tests/c/vector_test.h) and under ASan/UBSan (every size; whose
# runtime must really be linked: checked with nm); eight threads against
# one, under ThreadSanitizer, which here sees the C side only (make
# test-tsan runs them against a library it sees too).
test-c: setup-c $(BUILD)/vectors.flat $(BUILD)/test_vectors $(BUILD)/test_vectors_asan $(BUILD)/capture_host_debug $(BUILD)/million_calls $(BUILD)/alloc_failures $(BUILD)/panic_test $(BUILD)/threads
	LD_LIBRARY_PATH=$(DEBUG_LIB) JSONRPC_TEST_CHUNK_STEP=7 $(VALGRIND_RUN) $(BUILD)/test_vectors $(BUILD)/vectors.flat
	LD_LIBRARY_PATH=$(DEBUG_LIB) $(VALGRIND_RUN) $(BUILD)/million_calls $(MILLION_CALLS_UNDER_VALGRIND)
	LD_LIBRARY_PATH=$(DEBUG_LIB) $(VALGRIND_RUN) --soname-synonyms=somalloc=nouserintercepts $(BUILD)/alloc_failures
	LD_LIBRARY_PATH=$(PANIC_LIB) RUST_BACKTRACE=0 $(VALGRIND_RUN) $(BUILD)/panic_test hook 2> $(BUILD)/panic_test.stderr \
		|| { cat $(BUILD)/panic_test.stderr; exit 1; }
	grep -c "the panic test's panic" $(BUILD)/panic_test.stderr | xargs echo 'panics caught inside the library:'
	LD_LIBRARY_PATH=$(DEBUG_LIB) $(BUILD)/panic_test no-hook
	nm $(BUILD)/test_vectors_asan | grep -q '__asan_init' || { echo 'ASan is not linked'; exit 1; }
	nm $(BUILD)/test_vectors_asan | grep -q '__ubsan_handle' || { echo 'UBSan is not linked'; exit 1; }
	LD_LIBRARY_PATH=$(DEBUG_LIB) ASAN_OPTIONS=detect_leaks=1 $(BUILD)/test_vectors_asan $(BUILD)/vectors.flat
	LD_LIBRARY_PATH=$(DEBUG_LIB) $(VALGRIND_RUN) $(BUILD)/capture_host_debug client examples/captures/server-stdout.jsonl > /dev/null
	nm $(BUILD)/threads | grep -q '__tsan_init' || { echo 'TSan is not linked'; exit 1; }
	LD_LIBRARY_PATH=$(DEBUG_LIB) TSAN_OPTIONS=halt_on_error=1 $(BUILD)/threads $(BUILD)/vectors.flat

$(BUILD)/vectors.flat: tests/c/flatten_vectors.py tests/vectors/envelope.jsonl tests/vectors/log_value.jsonl tests/vectors/mcp.jsonl | $(BUILD) setup-c
	$(PYTHON) tests/c/flatten_vectors.py tests/vectors/envelope.jsonl tests/vectors/log_value.jsonl tests/vectors/mcp.jsonl $@

# The library's SONAME is libjsonrpc_envelope.so.<ABI>: programs linked here
# find it at run time through this link, as they would after `make install`.
ABI := $(shell sed -n 's/^pub const JSONRPC_ABI_VERSION: u32 = \([0-9]*\);/\1/p' src/ffi/version.rs)

$(DEBUG_LIB)/libjsonrpc_envelope.so: FORCE setup-build
	$(CARGO) build --lib
	ln -sf libjsonrpc_envelope.so $@.$(ABI)

$(RELEASE_LIB)/libjsonrpc_envelope.so: FORCE setup-build
	$(CARGO) build --release
	ln -sf libjsonrpc_envelope.so $@.$(ABI)

# The vector test: one program in parts (tests/c/test_vectors.c names them).
VECTOR_TEST_SOURCES := tests/c/test_vectors.c tests/c/support.c tests/c/vector_file.c tests/c/check_lines.c \
                       tests/c/check_streams.c tests/c/check_edges.c tests/c/check_reader.c tests/c/check_session.c \
                       tests/c/check_relay.c

$(BUILD)/test_vectors: $(VECTOR_TEST_SOURCES) tests/c/vector_test.h include/jsonrpc_envelope.h $(DEBUG_LIB)/libjsonrpc_envelope.so | $(BUILD)
	$(CC) $(CFLAGS_STRICT) -g -O1 $(VECTOR_TEST_SOURCES) -L$(DEBUG_LIB) -ljsonrpc_envelope -o $@

$(BUILD)/test_vectors_asan: $(VECTOR_TEST_SOURCES) tests/c/vector_test.h include/jsonrpc_envelope.h $(DEBUG_LIB)/libjsonrpc_envelope.so | $(BUILD) setup-c
	$(CC) $(CFLAGS_STRICT) -g -O1 $(SANITIZE) $(VECTOR_TEST_SOURCES) -L$(DEBUG_LIB) -ljsonrpc_envelope -o $@

# Every allocation of every entry point failed in turn (interposed malloc).
$(BUILD)/alloc_failures: tests/c/alloc_failures.c include/jsonrpc_envelope.h $(DEBUG_LIB)/libjsonrpc_envelope.so | $(BUILD)
	$(CC) $(CFLAGS_STRICT) -g -O1 $< -L$(DEBUG_LIB) -ljsonrpc_envelope -o $@

# A real panic inside each entry point, caught by the guard: against a
# library built with the panic-test feature, in a target directory of its
# own so that it never stands where the real library does.
PANIC_LIB := target/panic-test/debug

$(PANIC_LIB)/libjsonrpc_envelope.so: FORCE setup-build
	$(CARGO) build --lib --features panic-test --target-dir target/panic-test
	ln -sf libjsonrpc_envelope.so $@.$(ABI)

$(BUILD)/panic_test: tests/c/panic_test.c include/jsonrpc_envelope.h $(PANIC_LIB)/libjsonrpc_envelope.so | $(BUILD)
	$(CC) $(CFLAGS_STRICT) -g $< -L$(PANIC_LIB) -ljsonrpc_envelope -o $@

$(BUILD)/million_calls: tests/c/million_calls.c include/jsonrpc_envelope.h $(DEBUG_LIB)/libjsonrpc_envelope.so | $(BUILD)
	$(CC) $(CFLAGS_STRICT) -g -O1 $< -L$(DEBUG_LIB) -ljsonrpc_envelope -o $@

$(BUILD)/threads: tests/c/threads.c include/jsonrpc_envelope.h $(DEBUG_LIB)/libjsonrpc_envelope.so | $(BUILD) setup-c
	$(CC) $(CFLAGS_STRICT) -g -O1 -fsanitize=thread $< -L$(DEBUG_LIB) -ljsonrpc_envelope -o $@

$(BUILD)/capture_host_debug: examples/c/capture_host.c include/jsonrpc_envelope.h $(DEBUG_LIB)/libjsonrpc_envelope.so | $(BUILD)
	$(CC) $(CFLAGS_STRICT) -g $< -L$(DEBUG_LIB) -ljsonrpc_envelope -o $@

FORCE:

# ---- ThreadSanitizer (not part of `make test`: it builds std, minutes) ----

# The eight-thread tests with the library itself instrumented: rustc's
# -Zsanitizer=thread, on stable through RUSTC_BOOTSTRAP, with the standard
# library rebuilt the same way (-Zbuild-std; an uninstrumented one gives
# false reports), in target/tsan. First the Rust test
# (tests/stress.rs), then tests/c/threads.c against the instrumented
# library; and last two threads sharing one reader, which the header
# forbids: ThreadSanitizer must report that race inside the library, or it
# is not seeing the library's memory accesses.
HOST_TRIPLE   = $(shell rustc -vV | sed -n 's/^host: //p')
TSAN_DIR      := target/tsan
TSAN_LIB      = $(TSAN_DIR)/$(HOST_TRIPLE)/debug
TSAN_CARGO    = RUSTC_BOOTSTRAP=1 RUSTFLAGS=-Zsanitizer=thread $(CARGO)
TSAN_BUILD    = -Zbuild-std --target $(HOST_TRIPLE) --target-dir $(TSAN_DIR)
TSAN_RUN      := TSAN_OPTIONS=halt_on_error=1
TSAN_RUST_TEST := eight_threads_through_the_c_abi_agree_with_one

.PHONY: test-tsan

# The Rust standard library's source, which -Zbuild-std compiles.
setup-tsan: setup-c
	@[ -e "$$(rustc --print sysroot)/lib/rustlib/src/rust/library/Cargo.lock" ] || { \
	  command -v rustup >/dev/null 2>&1 || { \
	    echo "test-tsan needs the Rust standard library's source (the rust-src component), and there is no rustup to add it" >&2; exit 1; }; \
	  echo "setup-tsan: installing the Rust component rust-src (rustup component add rust-src)"; \
	  rustup component add rust-src >/dev/null; }

test-tsan: setup-tsan $(BUILD)/vectors.flat
	$(TSAN_CARGO) test $(TSAN_BUILD) --test stress --no-run 2> $(TSAN_DIR).build.log || { cat $(TSAN_DIR).build.log; exit 1; }
	@test=$$(sed -n 's|^ *Executable tests/stress.rs (\(.*\))$$|\1|p' $(TSAN_DIR).build.log); \
	  nm "$$test" | grep -q '__tsan_init' || { echo "TSan is not linked into $$test"; exit 1; }; \
	  echo "$(TSAN_RUN) $$test --exact $(TSAN_RUST_TEST)"; \
	  $(TSAN_RUN) "$$test" --exact $(TSAN_RUST_TEST)
	$(TSAN_CARGO) build $(TSAN_BUILD) --lib
	ln -sf libjsonrpc_envelope.so $(TSAN_LIB)/libjsonrpc_envelope.so.$(ABI)
	nm -D $(TSAN_LIB)/libjsonrpc_envelope.so | grep -q '__tsan_func_entry' || { echo 'the library is not instrumented'; exit 1; }
	$(CC) $(CFLAGS_STRICT) -g -O1 -fsanitize=thread tests/c/threads.c tests/c/tsan_shim.c \
		-L$(TSAN_LIB) -ljsonrpc_envelope -o $(BUILD)/threads_tsan
	LD_LIBRARY_PATH=$(TSAN_LIB) $(TSAN_RUN) $(BUILD)/threads_tsan $(BUILD)/vectors.flat 5
	@LD_LIBRARY_PATH=$(TSAN_LIB) $(TSAN_RUN) $(BUILD)/threads_tsan --share-a-reader $(BUILD)/vectors.flat \
		> $(BUILD)/threads_tsan.misuse.log 2>&1; status=$$?; \
	if [ $$status -eq 66 ] && grep -q 'WARNING: ThreadSanitizer: data race' $(BUILD)/threads_tsan.misuse.log \
		&& grep -q 'src/ffi/reader.rs' $(BUILD)/threads_tsan.misuse.log; then \
	  echo "threads: two threads sharing one reader (forbidden): ThreadSanitizer reports the race in src/ffi/reader.rs, as it must"; \
	else \
	  cat $(BUILD)/threads_tsan.misuse.log; \
	  echo "ThreadSanitizer did not report two threads sharing one reader (exit status $$status): it does not see the library"; exit 1; \
	fi

# ---- benchmarks (not part of `make test`) ---------------------------------

.PHONY: bench bench-corpus bench-callgrind $(BENCHES)

# Runs every benchmark once and writes bench/RESULTS.md and the plot.
bench: bench-corpus $(BENCHES)
	$(PYTHON) -c 'import matplotlib' 2>/dev/null || $(PYTHON) -m pip install --quiet matplotlib
	$(PYTHON) bench/report.py

bench-corpus:
	$(PYTHON) bench/corpus.py

# criterion's runs, then the same implementations in turns (the table's
# figures; see bench/rust/src/bin/interleaved.rs).
bench-rust: bench-corpus
	cd bench/rust && $(CARGO) bench --bench classify
	cd bench/rust && $(CARGO) build --quiet --release --bin interleaved
	bench/rust/target/release/interleaved 40 > bench/out/rust.json

# Instruction counts of one implementation over one corpus size, steady
# where timings are not (the machine is shared): valgrind has no AVX-512, so
# this build is without -C target-cpu=native, and the library takes its
# AVX2 path. make bench-callgrind SIZE=small NAME=c_abi_classify_into
SIZE ?= small
NAME ?= classify
bench-callgrind: bench-corpus
	cd bench/rust && RUSTFLAGS= $(CARGO) build --quiet --release --bin profile_one --target-dir target/portable
	$(VALGRIND) --tool=callgrind --callgrind-out-file=bench/out/callgrind.$(SIZE).$(NAME) \
		bench/rust/target/portable/release/profile_one $(SIZE) 5 $(NAME) 2>&1 | grep 'refs'
	@echo "per line, corpus reading included: see callgrind_annotate bench/out/callgrind.$(SIZE).$(NAME)"

# Run directly, not by `cargo run`: cargo execs the program in its own place,
# and the CLI's peak RSS (read from the children's usage) would include
# rustc's.
bench-memory: bench-corpus $(RELEASE_LIB)/libjsonrpc_envelope.so
	cd bench/rust && $(CARGO) build --quiet --release --bin memory
	bench/rust/target/release/memory target/release/jsonrpc-envelope > bench/out/memory.txt
	cat bench/out/memory.txt

# Another build of the library against this one, in turns, through the C
# calls every binding makes (a session's feed; the relay's too): for a
# change that must leave no binding slower.
# make bench-turns BEFORE=path/to/old/libjsonrpc_envelope.so
bench-turns: bench-corpus $(RELEASE_LIB)/libjsonrpc_envelope.so | $(BUILD)
	@test -n "$(BEFORE)" || { echo "bench-turns: BEFORE=path/to/libjsonrpc_envelope.so (another build) is needed"; exit 2; }
	$(CC) $(CFLAGS_STRICT) -O2 bench/c/turns.c -ldl -o $(BUILD)/turns
	$(BUILD)/turns $(BEFORE) $(RELEASE_LIB)/libjsonrpc_envelope.so bench/out/small.jsonl bench/out/medium.jsonl bench/out/large.jsonl \
		| tee bench/out/turns.txt

# The guard against the same child without it, in turns (bench/guard: its
# own crate, which drives the guard through pipes as a host does).
bench-guard: bench-corpus $(RELEASE_LIB)/libjsonrpc_envelope.so
	cd bench/guard && $(CARGO) build --quiet --release
	mkdir -p bench/out
	nice bench/guard/target/release/bench-guard target/release/jsonrpc-envelope > bench/out/guard.txt
	cat bench/out/guard.txt

# ---- fuzzing (cargo fuzz, libFuzzer + ASan, on stable via RUSTC_BOOTSTRAP) ----

FUZZ_TARGETS := classify envelope log_value reader c_abi scanners utf8
FUZZ_SECONDS ?= 300
FUZZ_ENV := PATH="$(CURDIR)/$(TOOLS)/bin:$$PATH" RUSTC_BOOTSTRAP=1 CARGO='$(CARGO)'

.PHONY: fuzz fuzz-seed test-fuzz

# Each target for FUZZ_SECONDS (default 5 minutes), seeded from the vectors;
# then a table of executions and findings per target. Fails on a finding.
fuzz: setup-fuzz fuzz-seed
	$(FUZZ_ENV) fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ_TARGETS)

fuzz-seed: setup-fuzz
	$(PYTHON) fuzz/seed.py $(FUZZ_TARGETS)

# The smoke run inside `make test`: about a minute in all.
test-fuzz: FUZZ_SECONDS = 6
test-fuzz: fuzz

# ---- maintenance ---------------------------------------------------------

# The README's picture, docs/architecture.svg, rendered from its
# description by docs/picture/render.py (Python 3, standard library only;
# the format is in its docstring). test-lint fails when the SVG is not the
# rendering of the description: edit the description, then `make picture`.
PICTURE_SOURCE := docs/picture/architecture.txt
PICTURE := docs/architecture.svg
SETUP += setup-picture
.PHONY: picture setup-picture bench-turns

setup-picture:
	@mk/need.sh picture python3

picture: setup-picture
	$(PYTHON) docs/picture/render.py $(PICTURE_SOURCE) $(PICTURE)

# Regenerates include/jsonrpc_envelope.h with the pinned cbindgen.
header:
	JSONRPC_WRITE_HEADER=1 $(CARGO) test --test header

clean:
	$(CARGO) clean

# Last, after every rules.mk has added to SETUP.
setup: $(SETUP)
