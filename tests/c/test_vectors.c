/*
 * test_vectors.c: the shared vectors of tests/vectors, one line at a time
 * and as streams through a JsonRpcReader and a JsonRpcSession, the
 * reader's and the session's promises, and the edges of the C ABI, through
 * jsonrpc_envelope.h. envelope.jsonl runs in the JSON-RPC profile and
 * mcp.jsonl in the MCP profile (SPEC section 10).
 *
 * Input: the flat file that tests/c/flatten_vectors.py writes (its format is
 * described there). Output: one "FAIL <where>: <what>" line (and details)
 * per failed check, then exactly one summary line "N passed, F failed".
 * Exit status: 0 when every check passed, 1 when one failed, 2 when the
 * input could not be read.
 *
 *   python3 tests/c/flatten_vectors.py tests/vectors/envelope.jsonl \
 *       tests/vectors/log_value.jsonl tests/vectors/mcp.jsonl target/c/vectors.flat
 *   cc -std=c11 -Wall -Wextra -Wpedantic -Werror -Iinclude \
 *       tests/c/test_vectors.c tests/c/support.c tests/c/vector_file.c \
 *       tests/c/check_*.c -Ltarget/debug -ljsonrpc_envelope -o target/c/test_vectors
 *   LD_LIBRARY_PATH=target/debug target/c/test_vectors target/c/vectors.flat
 *
 * The parts: support.c (checks, expected values), vector_file.c (the flat
 * file), check_lines.c, check_streams.c, check_edges.c, check_reader.c,
 * check_session.c, check_relay.c; vector_test.h declares what they share.
 */

#include "vector_test.h"

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s FLATFILE (written by tests/c/flatten_vectors.py)\n", argv[0]);
        return 2;
    }
    Vectors vectors;
    if (!load_vectors(argv[1], &vectors)) {
        free_vectors(&vectors);
        return 2;
    }
    for (size_t i = 0; i < vectors.envelope_count; i++) {
        check_envelope_vector(&vectors.envelopes[i]);
        check_prefixes(&vectors.envelopes[i]);
    }
    for (size_t i = 0; i < vectors.log_count; i++) {
        check_log_vector(&vectors.logs[i]);
    }
    check_edges();
    check_reader_promises();
    check_session_promises();
    check_relay_promises();
    check_many_lines(&vectors);
    check_too_long();
    check_long_line_in_pieces();
    free_vectors(&vectors);
    printf("%lu passed, %lu failed\n", tally.passed, tally.failed);
    return tally.failed == 0 ? 0 : 1;
}
