// The library's stream reader through Reader and readMessages: chunk
// boundaries (every chunk size from 1 to 70), CRLF, a too-long line split
// across many reads, the end of a stream without LF, over envelope.jsonl in
// the JSON-RPC profile and mcp.jsonl in the MCP profile; and the reader
// freed when an iteration ends, fails or is abandoned.
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import v8 from 'node:v8';
import vm from 'node:vm';
import { DEFAULT_MAX_LINE, Kind, Reader, readMessages } from 'jsonrpc-envelope';
import native from '../lib/native.cjs';
import { asVector, expected, vectorSets } from './helpers.mjs';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');

const MAX_LINE = 256;
const LF = Buffer.from('\n');
const CR = Buffer.from('\r');

// The stream of a file of vectors: every vector that fits the limit and has
// no LF; then each of those that is not a parse error again with CRLF; a
// 5,000-byte line (too long) in the middle; and the last line without LF.
// Each entry says what its message must be, from the vectors.
// The too-long line of the script: in the MCP profile its first bytes hold
// a request's id and method, which the reader reads (SPEC 10.6 (d)).
const TOO_LONG_HEAD = Buffer.from('{"jsonrpc":"2.0","id":1,"method":"x","params":"');
const TOO_LONG_REPLY = '{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"Invalid Request: the line is longer than this peer reads"}}';

function script(vectors) {
  const fitting = vectors.filter((v) => v.bytes.length <= MAX_LINE - 1 && !v.bytes.includes(0x0a));
  const entries = [];
  for (const v of fitting) entries.push({ v, bytes: v.bytes });
  entries.push({ tooLong: 5000 });
  for (const v of fitting.filter((v) => v.kind !== 'parse_error')) entries.push({ v, bytes: Buffer.concat([v.bytes, CR]) });
  const last = vectors.find((v) => v.name === 'request with a string id' || v.name === 'envelope: request with a string id');
  entries.push({ v: last, bytes: last.bytes, noLF: true });
  const parts = entries.map((e) => {
    if (e.tooLong) {
      const head = TOO_LONG_HEAD;
      const tail = Buffer.from('"}');
      return Buffer.concat([head, Buffer.alloc(e.tooLong - head.length - tail.length, 'x'), tail, LF]);
    }
    return e.noLF ? e.bytes : Buffer.concat([e.bytes, LF]);
  });
  return { entries, stream: Buffer.concat(parts) };
}

function check(messages, entries, profile) {
  assert.equal(messages.length, entries.length);
  messages.forEach((m, i) => {
    const e = entries[i];
    assert.equal(m.number, i + 1, `line ${i + 1}`);
    assert.ok(Object.isFrozen(m));
    if (e.tooLong) {
      assert.equal(m.kind, 'too_long');
      assert.equal(m.length, e.tooLong);
      assert.equal(m.line, null);
      assert.equal(m.replyClient, null);
      assert.equal(m.substitute, null);
      if (profile === 'mcp') {
        // Its id and method, where they stand in the line, and the reply
        // that says it is too long.
        assert.deepEqual([m.id, m.idKind, m.method], ['1', 'number', 'x']);
        assert.deepEqual(m.spans.id, { offset: TOO_LONG_HEAD.indexOf('1'), length: 1 });
        assert.deepEqual(m.spans.method, { offset: TOO_LONG_HEAD.indexOf('"x"'), length: 3 });
        assert.equal(m.replyServer, TOO_LONG_REPLY);
      } else {
        assert.deepEqual([m.id, m.idKind, m.method, m.replyServer], [null, 'absent', null, null]);
      }
      return;
    }
    assert.equal(m.length, e.bytes.length, e.v.name);
    assert.deepEqual(m.line, e.bytes, e.v.name);
    const got = asVector(m);
    assert.deepEqual(got, expected(e.v, got), `${e.v.name}${e.bytes.length > e.v.bytes.length ? ' (CRLF)' : ''}`);
  });
}

for (const { profile, file, vectors } of vectorSets) {
  test(`every chunk size from 1 to 70 gives the same messages (${file}, profile ${profile})`, () => {
    const { entries, stream } = script(vectors);
    assert.ok(entries.length > 150);
    for (let size = 1; size <= 70; size++) {
      const reader = new Reader({ maxLine: MAX_LINE, profile });
      const messages = [];
      for (let at = 0; at < stream.length; at += size) messages.push(...reader.feed(stream.subarray(at, at + size)));
      messages.push(...reader.end());
      reader.close();
      check(messages, entries, profile);
    }
  });

  test(`readMessages over a Readable at several chunk sizes (${file}, profile ${profile})`, async () => {
    const { entries, stream } = script(vectors);
    for (const size of [1, 7, 64, 65536]) {
      const chunks = [];
      for (let at = 0; at < stream.length; at += size) chunks.push(stream.subarray(at, at + size));
      const messages = [];
      for await (const m of readMessages(Readable.from(chunks, { objectMode: false }), { maxLine: MAX_LINE, profile })) {
        messages.push(m);
      }
      check(messages, entries, profile);
    }
    assert.equal(native.liveReaders(), 0);
  });
}

test('a too-long line at the default limit is reported with its length, and the next line read', () => {
  const reader = new Reader();
  const big = Buffer.alloc(DEFAULT_MAX_LINE + 1000, 'x');
  const messages = [];
  for (let at = 0; at < big.length; at += 1 << 20) messages.push(...reader.feed(big.subarray(at, at + (1 << 20))));
  assert.deepEqual(messages, []);
  messages.push(...reader.feed('\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n'));
  reader.close();
  assert.equal(messages.length, 2);
  assert.equal(messages[0].kind, Kind.TOO_LONG);
  assert.equal(messages[0].length, DEFAULT_MAX_LINE + 1000);
  assert.equal(messages[1].number, 2);
  assert.equal(messages[1].kind, Kind.REQUEST);
});

test('the end of a stream: a last line without LF, a CR alone, nothing', () => {
  const reader = new Reader();
  assert.deepEqual(reader.feed('{"jsonrpc":"2.0","id":1,"result":{}}'), []);
  const [last] = reader.end();
  assert.equal(last.kind, 'response');
  assert.equal(last.number, 1);
  // After end() the reader is as new: line numbers from 1 again.
  assert.deepEqual(reader.feed('\r'), []);
  const [cr] = reader.end();
  assert.equal(cr.kind, 'empty');
  assert.equal(cr.number, 1);
  assert.deepEqual(cr.line, CR);
  assert.deepEqual(reader.end(), []);
  reader.close();
  assert.ok(reader.closed);
  assert.throws(() => reader.feed('x'), /closed/);
  assert.throws(() => reader.end(), /closed/);
  reader.close(); // twice is harmless
});

test('string chunks are read as their UTF-8 bytes', async () => {
  const text = '{"jsonrpc":"2.0","id":"é","method":"工具/调用"}\n{"jsonrpc":"2.0","method":"🙂"}\n';
  const stream = Readable.from([Buffer.from(text)], { objectMode: false });
  stream.setEncoding('utf8');
  const messages = [];
  for await (const m of readMessages(stream)) messages.push(m);
  assert.deepEqual(
    messages.map((m) => [m.kind, m.id, m.method, m.length]),
    [
      ['request', '"é"', '工具/调用', Buffer.byteLength(text.split('\n')[0])],
      ['notification', null, '🙂', Buffer.byteLength(text.split('\n')[1])],
    ],
  );
});

test('readMessages over a web ReadableStream and an async generator', async () => {
  const lines = ['{"jsonrpc":"2.0","id":1,"method":"a"}', '{"jsonrpc":"2.0","id":2,"method":"b"}'];
  const web = new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(`${lines[0]}\n${lines[1].slice(0, 5)}`));
      controller.enqueue(new TextEncoder().encode(`${lines[1].slice(5)}\n`));
      controller.close();
    },
  });
  const fromWeb = [];
  for await (const m of readMessages(web)) fromWeb.push(m.method);
  assert.deepEqual(fromWeb, ['a', 'b']);
  async function* chunks() {
    yield lines[0];
    yield `\n${lines[1]}`;
  }
  const fromGenerator = [];
  for await (const m of readMessages(chunks())) fromGenerator.push(m.method);
  assert.deepEqual(fromGenerator, ['a', 'b']);
});

test('the reader is freed when the iteration ends, breaks, fails or is thrown into', async () => {
  const lines = Buffer.from('{"jsonrpc":"2.0","id":1,"method":"a"}\n'.repeat(10));
  assert.equal(native.liveReaders(), 0);

  for await (const m of readMessages(Readable.from([lines]))) assert.equal(m.kind, 'request');
  assert.equal(native.liveReaders(), 0, 'after the end');

  const readable = Readable.from([lines, lines]);
  for await (const m of readMessages(readable)) {
    assert.equal(native.liveReaders(), 1);
    assert.equal(m.number, 1);
    break;
  }
  assert.equal(native.liveReaders(), 0, 'after break');
  assert.ok(readable.destroyed, 'leaving early ends the stream, as for await over it does');

  async function* failing() {
    yield lines;
    throw new Error('the stream broke');
  }
  await assert.rejects(async () => {
    for await (const m of readMessages(failing())) assert.equal(m.kind, 'request');
  }, /the stream broke/);
  assert.equal(native.liveReaders(), 0, 'after the stream failed');

  await assert.rejects(async () => {
    for await (const m of readMessages(Readable.from([lines, 42], { objectMode: true }))) assert.equal(m.kind, 'request');
  }, { name: 'TypeError', message: /chunk must be a string, a Buffer or a Uint8Array, not a number/ });
  assert.equal(native.liveReaders(), 0, 'after a chunk of the wrong type');

  const iterator = readMessages(Readable.from([lines]));
  await iterator.next();
  await assert.rejects(iterator.throw(new Error('stop')), /stop/);
  assert.equal(native.liveReaders(), 0, 'after throw()');
  assert.deepEqual(await iterator.next(), { value: undefined, done: true });
});

test('an abandoned iteration frees its reader when collected (the safety net)', async () => {
  await (async () => {
    const iterator = readMessages(Readable.from([Buffer.from('{"id":1,"result":2}\n{"id":2,"result":2}\n')]));
    await iterator.next(); // the reader is made on the first read; then the iterator is dropped
    assert.equal(native.liveReaders(), 1);
  })();
  for (let i = 0; i < 50 && native.liveReaders() > 0; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.equal(native.liveReaders(), 0);
});

test('concurrent next() calls are served in order', async () => {
  async function* slow() {
    for (let i = 1; i <= 3; i++) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      yield `{"jsonrpc":"2.0","id":${i},"method":"m"}\n`;
    }
  }
  const iterator = readMessages(slow());
  const steps = await Promise.all([iterator.next(), iterator.next(), iterator.next(), iterator.next()]);
  assert.deepEqual(
    steps.map((s) => (s.done ? 'done' : s.value.id)),
    ['1', '2', '3', 'done'],
  );
});
