// Every vector of tests/vectors, byte for byte: classify (bytes and, where
// the input is text, the string), invalidReply in both roles, logValue, and
// the reader over all of them as one stream.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Reader, classify, invalidReply, logValue } from 'jsonrpc-envelope';
import { asVector, envelopeVectors, expected, logValueVectors } from './helpers.mjs';

test('the vectors are there', () => {
  assert.ok(envelopeVectors.length >= 100, `${envelopeVectors.length} envelope vectors`);
  assert.ok(logValueVectors.length >= 15, `${logValueVectors.length} log_value vectors`);
});

for (const v of envelopeVectors) {
  test(`classify: ${v.name}`, () => {
    const fromBytes = asVector(classify(v.bytes));
    assert.deepEqual(fromBytes, expected(v, fromBytes));
    if (v.kind === 'parse_error') assert.equal(typeof fromBytes.reason, 'string');
    if (v.line !== undefined) {
      const fromString = asVector(classify(v.line));
      assert.deepEqual(fromString, expected(v, fromString));
    }
    // A Uint8Array that is not a Buffer, at an offset in a bigger buffer.
    const backing = new Uint8Array(v.bytes.length + 7);
    backing.set(v.bytes, 3);
    const view = new Uint8Array(backing.buffer, 3, v.bytes.length);
    const fromView = asVector(classify(view));
    assert.deepEqual(fromView, expected(v, fromView));
  });

  test(`invalidReply: ${v.name}`, () => {
    assert.equal(invalidReply(v.bytes, 'server'), v.reply_server);
    assert.equal(invalidReply(v.bytes, 'client'), v.reply_client);
    if (v.line !== undefined) {
      assert.equal(invalidReply(v.line, 'server'), v.reply_server);
      assert.equal(invalidReply(v.line, 'client'), v.reply_client);
    }
  });
}

for (const v of logValueVectors) {
  test(`logValue: ${v.name}`, () => {
    assert.equal(logValue(v.bytes), v.output);
    if (v.input !== undefined) assert.equal(logValue(v.input), v.output);
  });
}

test('the reader classifies every vector without a line break as a line of one stream', () => {
  const lines = envelopeVectors.filter((v) => !v.bytes.includes(0x0a));
  assert.ok(lines.length > 90);
  const stream = Buffer.concat(lines.flatMap((v) => [v.bytes, Buffer.from('\n')]));
  const reader = new Reader();
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
    });
  } finally {
    reader.close();
  }
});
