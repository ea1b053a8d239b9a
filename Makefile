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

# ---- demo: the CLI and a small C host over the example captures ----------

GUARD_DEMO_INPUT := printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"ping"}' 'not json' '[1,2]' '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}'

demo: build $(BUILD)/capture_host
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

# The guard's part of the demo, which `make demo-guard` shows alone.
demo-guard: build | $(BUILD)
	@echo '== jsonrpc-envelope guard: a polluting, trusting server (examples/guard/naive_server.py) made safe'
	@echo '-- without the guard: its banner and logs reach the host, and the line "not json" ends it'
	@$(GUARD_DEMO_INPUT) | $(PYTHON) examples/guard/naive_server.py 2>$(BUILD)/guard-demo.err | sed 's/^/  host reads: /'
	@sed 's/^/  stderr: /' $(BUILD)/guard-demo.err
	@echo '-- with the guard: the host reads only JSON-RPC, the bad lines are answered, the server lives'
	@$(GUARD_DEMO_INPUT) | ./target/release/jsonrpc-envelope guard -- $(PYTHON) examples/guard/naive_server.py 2>$(BUILD)/guard-demo.err | sed 's/^/  host reads: /'
	@sed 's/^/  stderr: /' $(BUILD)/guard-demo.err

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
include sdk/rules.mk
include tests/guard/rules.mk
# Release artifacts (make dist) and their tests (test-dist).
include packaging/rules.mk

test: $(TESTS)

test-lint:
	$(CARGO) fmt --all --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings
	$(CARGO) clippy --all-targets --features panic-test -- -D warnings
	$(CARGO) fmt --check --manifest-path fuzz/Cargo.toml
	$(CARGO) clippy --manifest-path fuzz/Cargo.toml --all-targets -- -D warnings

# Unit tests, vectors through the Rust API and the C ABI, header drift,
# exported symbols, the CLI, JSONTestSuite.
# --show-output shows which CPU-feature paths a test skipped on this machine.
test-rust:
	$(CARGO) test --workspace -- --show-output

# The C test (the vectors one line at a time and streamed through the
# reader at every chunk size, the reader's promises, the ABI's edges)
# against the debug library, under valgrind and under ASan/UBSan (whose
# runtime must really be linked: checked with nm).
test-c: $(BUILD)/vectors.flat $(BUILD)/test_vectors $(BUILD)/test_vectors_asan $(BUILD)/capture_host_debug $(BUILD)/million_calls $(BUILD)/alloc_failures $(BUILD)/panic_test
	LD_LIBRARY_PATH=$(DEBUG_LIB) $(VALGRIND_RUN) $(BUILD)/test_vectors $(BUILD)/vectors.flat
	LD_LIBRARY_PATH=$(DEBUG_LIB) $(VALGRIND_RUN) $(BUILD)/million_calls 1000000
	LD_LIBRARY_PATH=$(DEBUG_LIB) $(VALGRIND_RUN) --soname-synonyms=somalloc=nouserintercepts $(BUILD)/alloc_failures
	LD_LIBRARY_PATH=$(PANIC_LIB) RUST_BACKTRACE=0 $(VALGRIND_RUN) $(BUILD)/panic_test hook 2> $(BUILD)/panic_test.stderr \
		|| { cat $(BUILD)/panic_test.stderr; exit 1; }
	grep -c "the panic test's panic" $(BUILD)/panic_test.stderr | xargs echo 'panics caught inside the library:'
	LD_LIBRARY_PATH=$(DEBUG_LIB) $(BUILD)/panic_test no-hook
	nm $(BUILD)/test_vectors_asan | grep -q '__asan_init' || { echo 'ASan is not linked'; exit 1; }
	nm $(BUILD)/test_vectors_asan | grep -q '__ubsan_handle' || { echo 'UBSan is not linked'; exit 1; }
	LD_LIBRARY_PATH=$(DEBUG_LIB) ASAN_OPTIONS=detect_leaks=1 $(BUILD)/test_vectors_asan $(BUILD)/vectors.flat
	LD_LIBRARY_PATH=$(DEBUG_LIB) $(VALGRIND_RUN) $(BUILD)/capture_host_debug client examples/captures/server-stdout.jsonl > /dev/null

$(BUILD)/vectors.flat: tests/c/flatten_vectors.py tests/vectors/envelope.jsonl tests/vectors/log_value.jsonl | $(BUILD)
	$(PYTHON) tests/c/flatten_vectors.py tests/vectors/envelope.jsonl tests/vectors/log_value.jsonl $@

# The library's SONAME is libjsonrpc_envelope.so.<ABI>: programs linked here
# find it at run time through this link, as they would after `make install`.
ABI := $(shell sed -n 's/^pub const JSONRPC_ABI_VERSION: u32 = \([0-9]*\);/\1/p' src/ffi/version.rs)

$(DEBUG_LIB)/libjsonrpc_envelope.so: FORCE
	$(CARGO) build --lib
	ln -sf libjsonrpc_envelope.so $@.$(ABI)

$(RELEASE_LIB)/libjsonrpc_envelope.so: FORCE
	$(CARGO) build --release --workspace
	ln -sf libjsonrpc_envelope.so $@.$(ABI)

$(BUILD)/test_vectors: tests/c/test_vectors.c include/jsonrpc_envelope.h $(DEBUG_LIB)/libjsonrpc_envelope.so | $(BUILD)
	$(CC) $(CFLAGS_STRICT) -g -O1 $< -L$(DEBUG_LIB) -ljsonrpc_envelope -o $@

$(BUILD)/test_vectors_asan: tests/c/test_vectors.c include/jsonrpc_envelope.h $(DEBUG_LIB)/libjsonrpc_envelope.so | $(BUILD)
	$(CC) $(CFLAGS_STRICT) -g -O1 $(SANITIZE) $< -L$(DEBUG_LIB) -ljsonrpc_envelope -o $@

# Every allocation of every entry point failed in turn (interposed malloc).
$(BUILD)/alloc_failures: tests/c/alloc_failures.c include/jsonrpc_envelope.h $(DEBUG_LIB)/libjsonrpc_envelope.so | $(BUILD)
	$(CC) $(CFLAGS_STRICT) -g -O1 $< -L$(DEBUG_LIB) -ljsonrpc_envelope -o $@

# A real panic inside each entry point, caught by the guard: against a
# library built with the panic-test feature, in a target directory of its
# own so that it never stands where the real library does.
PANIC_LIB := target/panic-test/debug

$(PANIC_LIB)/libjsonrpc_envelope.so: FORCE
	$(CARGO) build --lib --features panic-test --target-dir target/panic-test
	ln -sf libjsonrpc_envelope.so $@.$(ABI)

$(BUILD)/panic_test: tests/c/panic_test.c include/jsonrpc_envelope.h $(PANIC_LIB)/libjsonrpc_envelope.so | $(BUILD)
	$(CC) $(CFLAGS_STRICT) -g $< -L$(PANIC_LIB) -ljsonrpc_envelope -o $@

$(BUILD)/million_calls: tests/c/million_calls.c include/jsonrpc_envelope.h $(DEBUG_LIB)/libjsonrpc_envelope.so | $(BUILD)
	$(CC) $(CFLAGS_STRICT) -g -O1 $< -L$(DEBUG_LIB) -ljsonrpc_envelope -o $@

$(BUILD)/capture_host_debug: examples/c/capture_host.c include/jsonrpc_envelope.h $(DEBUG_LIB)/libjsonrpc_envelope.so | $(BUILD)
	$(CC) $(CFLAGS_STRICT) -g $< -L$(DEBUG_LIB) -ljsonrpc_envelope -o $@

FORCE:

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
FUZZ := RUSTC_BOOTSTRAP=1 $(CARGO) fuzz

.PHONY: fuzz fuzz-seed test-fuzz

# Each target for FUZZ_SECONDS (default 5 minutes), seeded from the vectors.
fuzz: fuzz-seed
	@for t in $(FUZZ_TARGETS); do \
	  echo "== fuzz $$t for $(FUZZ_SECONDS) s"; \
	  $(FUZZ) run $$t -- -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -print_final_stats=1 2>&1 \
	    | grep -E '^(Done|stat::number_of_executed_units|==[0-9]+== ERROR|SUMMARY|thread .* panicked)' ; \
	  [ $${PIPESTATUS[0]} -eq 0 ] || exit 1; \
	done

fuzz-seed:
	$(PYTHON) fuzz/seed.py $(FUZZ_TARGETS)

# The smoke run inside `make test`: about 40 seconds in all.
test-fuzz: FUZZ_SECONDS = 6
test-fuzz: fuzz

# ---- maintenance ---------------------------------------------------------

# Regenerates include/jsonrpc_envelope.h with the pinned cbindgen.
header:
	JSONRPC_WRITE_HEADER=1 $(CARGO) test --test header

clean:
	$(CARGO) clean
