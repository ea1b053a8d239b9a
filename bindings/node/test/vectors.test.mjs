// Every vector of tests/vectors, byte for byte: envelope.jsonl in the
// JSON-RPC profile (the default, and given explicitly) and mcp.jsonl in the
// MCP profile, through classify (bytes and, where the input is text, the
// string), invalidReply in both roles, and the reader over all of them as
// one stream; and logValue.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Profile, Reader, classify, invalidReply, logValue } from 'jsonrpc-envelope';
import { asVector, envelopeVectors, expected, logValueVectors, mcpVectors, vectorSets } from './helpers.mjs';

test('the vectors are there', () => {
  assert.ok(envelopeVectors.length >= 100, `${envelopeVectors.length} envelope vectors`);
  assert.ok(mcpVectors.length >= 200, `${mcpVectors.length} MCP vectors`);
  assert.ok(logValueVectors.length >= 15, `${logValueVectors.length} log_value vectors`);
  // mcp.jsonl covers what only the MCP profile gives.
  assert.ok(mcpVectors.filter((v) => v.kind === 'invalid_response').length >= 10);
  assert.ok(mcpVectors.filter((v) => v.substitute !== null).length >= 5);
  assert.deepEqual(Object.values(Profile).sort(), vectorSets.map((set) => set.profile).sort());
});

for (const { profile, file, vectors } of vectorSets) {
  // envelope.jsonl is read with no option too: the default profile.
  const optionSets = profile === Profile.JSONRPC ? [undefined, { profile }] : [{ profile }];

  for (const v of vectors) {
    test(`classify (${file}): ${v.name}`, () => {
      for (const options of optionSets) {
        const fromBytes = asVector(classify(v.bytes, options));
        assert.deepEqual(fromBytes, expected(v, fromBytes));
        if (v.kind === 'parse_error') assert.equal(typeof fromBytes.reason, 'string');
        if (v.line !== undefined) {
          const fromString = asVector(classify(v.line, options));
          assert.deepEqual(fromString, expected(v, fromString));
        }
        // A Uint8Array that is not a Buffer, at an offset in a bigger buffer.
        const backing = new Uint8Array(v.bytes.length + 7);
        backing.set(v.bytes, 3);
        const view = new Uint8Array(backing.buffer, 3, v.bytes.length);
        const fromView = asVector(classify(view, options));
        assert.deepEqual(fromView, expected(v, fromView));
      }
    });

    test(`invalidReply (${file}): ${v.name}`, () => {
      for (const options of optionSets) {
        const args = options === undefined ? [] : [options];
        assert.equal(invalidReply(v.bytes, 'server', ...args), v.reply_server);
        assert.equal(invalidReply(v.bytes, 'client', ...args), v.reply_client);
        if (v.line !== undefined) {
          assert.equal(invalidReply(v.line, 'server', ...args), v.reply_server);
          assert.equal(invalidReply(v.line, 'client', ...args), v.reply_client);
        }
      }
    });
  }

  test(`the reader classifies every vector of ${file} without a line break as a line of one stream`, () => {
    const lines = vectors.filter((v) => !v.bytes.includes(0x0a));
    assert.ok(lines.length > 90);
    const stream = Buffer.concat(lines.flatMap((v) => [v.bytes, Buffer.from('\n')]));
    for (const options of optionSets) {
      const reader = new Reader(options);
      try {
        const messages = [...reader.feed(stream), ...reader.end()];
        assert.equal(messages.length, lines.length);
        messages.forEach((m, i) => {
          const v = lines[i];
          assert.equal(m.number, i + 1);
          assert.equal(m.length, v.bytes.length);
          assert.deepEqual(m.line, v.bytes, v.name);
          const got = asVector(m);
          assert.deepEqual(got, expected(v, got), v.name);
          // A plain reader decides no action.
          assert.deepEqual([m.action, m.actionText, m.note], [null, null, null]);
        });
      } finally {
        reader.close();
      }
    }
  });
}

test('the profiles differ where SPEC §10 says: the same line in each', () => {
  // An id null request: a request in JSON-RPC, an invalid request in MCP.
  const line = '{"jsonrpc":"2.0","id":null,"method":"ping"}';
  assert.equal(classify(line).kind, 'request');
  assert.equal(classify(line, { profile: Profile.JSONRPC }).kind, 'request');
  assert.equal(classify(line, { profile: Profile.MCP }).kind, 'invalid_request');
  assert.equal(invalidReply(line, 'server'), null);
  assert.equal(
    invalidReply(line, 'server', { profile: Profile.MCP }),
    '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: an MCP id must be a string or an integer, not null"}}',
  );
});

for (const v of logValueVectors) {
  test(`logValue: ${v.name}`, () => {
    assert.equal(logValue(v.bytes), v.output);
    if (v.input !== undefined) assert.equal(logValue(v.input), v.output);
  });
}
