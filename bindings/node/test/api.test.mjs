// The API's shape: frozen results, the library's names and constants (the
// types' unions held against them), both entry points, the addon's ABI
// check, clear errors for wrong argument types, and no crash on any input.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import * as esm from 'jsonrpc-envelope';
import {
  Action,
  DEFAULT_MAX_LINE,
  Direction,
  IdKind,
  Kind,
  Profile,
  Reader,
  Relay,
  Role,
  Session,
  classify,
  invalidReply,
  logValue,
  readMessages,
} from 'jsonrpc-envelope';
import { PACKAGE, ROOT, envelopeVectors, mcpVectors, run } from './helpers.mjs';

const require = createRequire(import.meta.url);
const cjs = require('jsonrpc-envelope');

test('ESM and CommonJS give the same module', () => {
  assert.deepEqual(Object.keys(esm).filter((k) => k !== 'default').sort(), Object.keys(cjs).sort());
  for (const key of Object.keys(cjs)) assert.equal(esm[key], cjs[key], key);
  assert.equal(esm.default, cjs);
});

test('results are frozen, all the way down', () => {
  const c = classify('{"jsonrpc":"2.0","id":7,"method":"ping","params":{}}');
  assert.ok(Object.isFrozen(c));
  assert.ok(Object.isFrozen(c.spans));
  assert.ok(Object.isFrozen(c.spans.id));
  assert.throws(() => {
    c.kind = 'response';
  }, TypeError);
  assert.throws(() => {
    c.spans.id.offset = 0;
  }, TypeError);
  assert.throws(() => {
    c.extra = 1;
  }, TypeError);
  assert.equal(c.kind, 'request');
  assert.deepEqual({ ...c.spans.params }, { offset: 49, length: 2 });
  // The spans are built when asked for, and JSON has them too.
  assert.deepEqual(JSON.parse(JSON.stringify(c)).spans, {
    id: { offset: 22, length: 1 },
    method: { offset: 33, length: 6 },
    params: { offset: 49, length: 2 },
    result: null,
    error: null,
  });
});

// The names of a union type `export type NAME = 'a' | 'b';` in index.d.ts.
function union(name) {
  const dts = readFileSync(path.join(PACKAGE, 'index.d.ts'), 'utf8');
  const match = dts.match(new RegExp(`export type ${name} =([^;]*);`));
  assert.ok(match, `no type ${name} in index.d.ts`);
  return [...match[1].matchAll(/'([a-z_0-9]+)'/g)].map((m) => m[1]).sort();
}

test('the names are the library\'s, and the types say the same', () => {
  assert.deepEqual(Object.values(Kind).sort(), union('Kind'));
  assert.deepEqual(Object.values(IdKind).sort(), union('IdKind'));
  assert.deepEqual(Object.values(Role).sort(), union('Role'));
  assert.deepEqual(Object.values(Profile).sort(), union('Profile'));
  assert.deepEqual(Object.values(Action).sort(), union('Action'));
  assert.deepEqual(Object.values(Direction).sort(), union('Direction'));
  // The vectors name kinds and id kinds as the library does.
  for (const v of [...envelopeVectors, ...mcpVectors]) {
    assert.ok(Object.values(Kind).includes(v.kind), v.kind);
    assert.ok(Object.values(IdKind).includes(v.id_kind), v.id_kind);
  }
  // Each key is the header's enumerator for that name, and the header has
  // no enumerator the names lack (NONE, which has no name, aside).
  const header = readFileSync(path.join(ROOT, 'include', 'jsonrpc_envelope.h'), 'utf8');
  const enums = [
    ['JSONRPC_KIND_', Kind],
    ['JSONRPC_ID_', IdKind],
    ['JSONRPC_ROLE_', Role],
    ['JSONRPC_PROFILE_', Profile],
    ['JSONRPC_ACTION_', Action],
    ['JSONRPC_DIRECTION_', Direction],
  ];
  for (const [prefix, names] of enums) {
    for (const key of Object.keys(names)) assert.match(header, new RegExp(`\\b${prefix}${key} = \\d+`), key);
    const declared = [...header.matchAll(new RegExp(`\\b${prefix}([A-Z_]+) = \\d+`, 'g'))].map((m) => m[1]).filter((k) => k !== 'NONE');
    assert.deepEqual(declared.sort(), Object.keys(names).sort(), prefix);
  }
  for (const names of [Kind, IdKind, Role, Profile, Action, Direction]) assert.ok(Object.isFrozen(names));
});

test('the constants are the library\'s', () => {
  // SPEC §6: the default limit is 16 MiB.
  assert.equal(DEFAULT_MAX_LINE, 16 * 1024 * 1024);
  const header = readFileSync(path.join(ROOT, 'include', 'jsonrpc_envelope.h'), 'utf8');
  assert.equal(esm.ABI_VERSION, Number(header.match(/#define JSONRPC_ABI_VERSION (\d+)/)[1]));
  const cargo = readFileSync(path.join(ROOT, 'Cargo.toml'), 'utf8');
  assert.equal(esm.LIBRARY_VERSION, cargo.match(/^version = "([^"]+)"/m)[1]);
  const pkg = JSON.parse(readFileSync(path.join(PACKAGE, 'package.json'), 'utf8'));
  assert.equal(pkg.version, esm.LIBRARY_VERSION, 'the package has the library\'s version');
});

// The addon's own sources built into `dir` with `cc`, against `library`
// (a static archive), with `-include shim` when given: for the tests that
// need an addon built another way than the package's.
function buildAddon(dir, library, shim) {
  const addon = path.join(dir, 'variant.node');
  const nodeHeaders = path.resolve(path.dirname(process.execPath), '..', 'include', 'node');
  const src = path.join(PACKAGE, 'src');
  const sources = readdirSync(src).filter((f) => f.endsWith('.c')).map((f) => path.join(src, f));
  execFileSync(process.env.CC || 'cc', [
    '-std=c11', '-shared', '-fPIC', '-O1', '-DNAPI_VERSION=8', `-I${nodeHeaders}`, `-I${path.join(ROOT, 'include')}`,
    ...(shim ? ['-include', shim] : []), ...sources, library, '-lpthread', '-ldl', '-lm', '-o', addon,
  ]);
  return addon;
}

test('the addon refuses a library of another ABI version when it loads', async () => {
  // Built against a header whose ABI version is not the library's.
  const work = mkdtempSync(path.join(os.tmpdir(), 'jsonrpc-envelope-abi-'));
  try {
    const shim = path.join(work, 'shim.h');
    writeFileSync(shim, '#include "jsonrpc_envelope.h"\n#undef JSONRPC_ABI_VERSION\n#define JSONRPC_ABI_VERSION 999\n');
    const addon = buildAddon(work, path.join(ROOT, 'target', 'release', 'libjsonrpc_envelope.a'), shim);
    const result = await run(process.execPath, ['-e', `require(${JSON.stringify(addon)})`]);
    assert.notEqual(result.status, 0);
    const header = readFileSync(path.join(ROOT, 'include', 'jsonrpc_envelope.h'), 'utf8');
    const abi = header.match(/#define JSONRPC_ABI_VERSION (\d+)/)[1];
    assert.equal(abi, '3');
    assert.match(result.stderr, new RegExp(`ABI version ${abi}, but the addon was built for version 999`));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

test('a fault inside the library is an Error, and the addon goes on', async () => {
  // Against the library built with the panic-test feature (make's
  // target/panic-test, never a release build), in which each entry point
  // that reads bytes panics inside on one hidden input (src/ffi/guard.rs).
  const library = process.env.JSONRPC_PANIC_LIB || path.join(ROOT, 'target', 'panic-test', 'debug', 'libjsonrpc_envelope.a');
  assert.ok(existsSync(library), `${library} is missing: make test-node builds it`);
  const work = mkdtempSync(path.join(os.tmpdir(), 'jsonrpc-envelope-panic-'));
  try {
    const addon = buildAddon(work, library);
    const script = `
      const native = require(${JSON.stringify(addon)});
      const PANIC = 'jsonrpc-envelope panic-test: panic here';
      const results = [];
      const attempt = (name, call) => {
        try { call(); results.push([name, 'no error']); } catch (error) { results.push([name, error.constructor.name, error.message]); }
      };
      attempt('classify', () => native.classify(PANIC));
      attempt('invalidReply', () => native.invalidReply(PANIC, 'server'));
      attempt('logValue', () => native.logValue(PANIC));
      const reader = native.readerNew(0);
      attempt('readerFeed', () => native.readerFeed(reader, PANIC));
      attempt('readerFeed after', () => native.readerFeed(reader, '{}\\n'));
      native.readerFree(reader);
      const session = native.sessionNew('server', 'mcp', 0);
      attempt('sessionFeed', () => native.sessionFeed(session, PANIC));
      native.sessionFree(session);
      const relay = native.relayNew('mcp', 0);
      attempt('relayFeed', () => native.relayFeed(relay, 'to_host', PANIC));
      native.relayFree(relay);
      native.classify('{"jsonrpc":"2.0","id":1,"method":"m"}');
      results.push(['then', native.kindNames[native.record[native.layout.kind]]]);
      console.log(JSON.stringify(results));
    `;
    const result = await run(process.execPath, ['-e', script], { env: { ...process.env, RUST_BACKTRACE: '0' } });
    assert.equal(result.status, 0, result.stderr);
    assert.deepEqual(JSON.parse(result.stdout.toString()), [
      ['classify', 'Error', 'jsonrpc_classify_into failed: internal_error: internal error in jsonrpc_classify_into'],
      ['invalidReply', 'Error', 'jsonrpc_invalid_reply failed: internal_error'],
      ['logValue', 'Error', 'jsonrpc_log_value failed: out of memory or a fault inside the library'],
      ['readerFeed', 'Error', 'jsonrpc_reader_feed failed: internal_error (this reader fails from now on)'],
      ['readerFeed after', 'Error', 'jsonrpc_reader_feed failed: internal_error (this reader fails from now on)'],
      ['sessionFeed', 'Error', 'jsonrpc_session_feed failed: internal_error (this session fails from now on)'],
      ['relayFeed', 'Error', 'jsonrpc_relay_feed failed: internal_error (this relay fails from now on)'],
      ['then', 'request'],
    ]);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

test('wrong argument types throw TypeError with a clear message', () => {
  const line = /^line must be a string, a Buffer or a Uint8Array, not /;
  for (const bad of [undefined, null, 42, true, {}, [], () => {}, Symbol('x'), 10n]) {
    assert.throws(() => classify(bad), { name: 'TypeError', message: line });
    assert.throws(() => invalidReply(bad, 'server'), { name: 'TypeError', message: line });
    assert.throws(() => logValue(bad), { name: 'TypeError', message: /^bytes must be a string, a Buffer or a Uint8Array, not / });
  }
  assert.throws(() => classify(42), { message: 'line must be a string, a Buffer or a Uint8Array, not a number' });
  assert.throws(() => classify({}), { message: 'line must be a string, a Buffer or a Uint8Array, not an object of another kind' });
  for (const bad of [new Uint16Array(2), new Int8Array(2), new Float64Array(1), new Uint8ClampedArray(1)]) {
    assert.throws(() => classify(bad), { name: 'TypeError', message: /not a typed array of another kind/ });
  }
  for (const bad of [new ArrayBuffer(4), new DataView(new ArrayBuffer(4))]) {
    assert.throws(() => classify(bad), { name: 'TypeError', message: line });
  }
  assert.throws(() => invalidReply('[]'), { name: 'TypeError', message: "role must be 'server' or 'client'" });
  assert.throws(() => invalidReply('[]', 1), { name: 'TypeError', message: "role must be 'server' or 'client'" });
  assert.throws(() => invalidReply('[]', 'SERVER'), { name: 'RangeError', message: "role must be 'server' or 'client'" });
  assert.throws(() => invalidReply('[]', 'server\0'), { name: 'RangeError' });
  // The profile option: one of the library's profile names.
  const profile = "profile must be 'jsonrpc' or 'mcp'";
  for (const call of [
    (options) => classify('[]', options),
    (options) => invalidReply('[]', 'server', options),
    (options) => new Reader(options),
    (options) => readMessages((async function* () {})(), options),
    (options) => new Session('client', options),
    (options) => new Relay(options),
  ]) {
    assert.throws(() => call({ profile: 'MCP' }), { name: 'RangeError', message: profile });
    assert.throws(() => call({ profile: 'mcp\0' }), { name: 'RangeError', message: profile });
    assert.throws(() => call({ profile: 2 }), { name: 'TypeError', message: profile });
    assert.throws(() => call({ profile: null }), { name: 'TypeError', message: profile });
    assert.throws(() => call('mcp'), { name: 'TypeError', message: 'options must be an object, not a string' });
  }
  assert.throws(() => new Reader(5), { name: 'TypeError', message: 'options must be an object, not a number' });
  assert.throws(() => new Reader({ maxLine: '5' }), { name: 'TypeError', message: 'maxLine must be a number of bytes, not a string' });
  for (const bad of [-1, 1.5, NaN, Infinity, 2 ** 60]) {
    assert.throws(() => new Reader({ maxLine: bad }), { name: 'RangeError', message: /^maxLine must be a whole number of bytes/ });
  }
  const reader = new Reader();
  assert.throws(() => reader.feed(7), { name: 'TypeError', message: 'chunk must be a string, a Buffer or a Uint8Array, not a number' });
  reader.close();
  for (const bad of [undefined, null, 'text', 5, {}, [Buffer.from('x')]]) {
    assert.throws(() => readMessages(bad), { name: 'TypeError', message: /^stream must be a Readable or an async iterable of chunks/ });
  }
  assert.throws(() => readMessages((async function* () {})(), { maxLine: -2 }), RangeError);
});

test('inputs at the edges', () => {
  assert.equal(classify('').kind, 'empty');
  assert.equal(classify(Buffer.alloc(0)).kind, 'empty');
  assert.equal(classify(new Uint8Array(0)).kind, 'empty');
  // A detached buffer reads as empty.
  const detached = new Uint8Array(new ArrayBuffer(8));
  structuredClone(detached.buffer, { transfer: [detached.buffer] });
  assert.equal(detached.byteLength, 0);
  assert.equal(classify(detached).kind, 'empty');
  // Memory shared between threads.
  const shared = new Uint8Array(new SharedArrayBuffer(40));
  shared.set(Buffer.from('{"jsonrpc":"2.0","id":1,"method":"x"}'));
  assert.equal(classify(shared.subarray(0, 37)).kind, 'request');
  // NUL bytes are bytes, not ends.
  assert.equal(classify('{"jsonrpc":"2.0","id":1,"method":"a\\u0000b"}').method, 'a\0b');
  assert.equal(classify(Buffer.from('{"id":1,"method":"ping"}\0')).kind, 'parse_error');
  // A lone surrogate in a string is encoded as U+FFFD (as Buffer.from does).
  const lone = classify('{"jsonrpc":"2.0","id":1,"method":"a\ud800b"}');
  assert.equal(lone.method, 'a\ufffdb');
  assert.equal(lone.spans.method.length, Buffer.byteLength('"a\ufffdb"'));
  // Spans count bytes of the UTF-8 encoding.
  const wide = classify('{"é":1,"jsonrpc":"2.0","id":"日本","method":"m"}');
  assert.deepEqual({ ...wide.spans.id }, { offset: Buffer.from('{"é":1,"jsonrpc":"2.0","id":').length, length: 8 });
  assert.equal(wide.id, '"日本"');
  // Strings past the 1 KiB scratch, and a string argument past 64 KiB.
  const longId = `"${'i'.repeat(5000)}"`;
  const long = classify(`{"jsonrpc":"2.0","id":${longId},"method":[1]}`);
  assert.equal(long.id, longId);
  assert.equal(long.replyServer, `{"jsonrpc":"2.0","id":${longId},"error":{"code":-32600,"message":"Invalid Request: the method must be a string, not an array"}}`);
  const huge = `{"jsonrpc":"2.0","id":"${'é'.repeat(100_000)}","method":"${'ü'.repeat(70_000)}"}`;
  const hugeC = classify(huge);
  assert.equal(hugeC.method, 'ü'.repeat(70_000));
  assert.equal(hugeC.id.length, 100_002);
  // Deep nesting: no recursion.
  const deep = `{"jsonrpc":"2.0","id":1,"method":"m","params":${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}}`;
  assert.equal(classify(deep).kind, 'request');
  assert.equal(classify(deep.slice(0, -1)).kind, 'parse_error');
});

test('no crash and a valid answer on random input', () => {
  let seed = 12345;
  const random = () => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return seed >>> 8;
  };
  const alphabet = Buffer.from('{}[]":,\\ \t\r\n0123456789-+.eEtrufalsn"idmethodjsonrpc2.0\u00e9\ud83d\ude00');
  const kinds = new Set(Object.values(Kind));
  const actions = new Set(Object.values(Action));
  const reader = new Reader({ maxLine: 64 });
  const mcpReader = new Reader({ maxLine: 64, profile: Profile.MCP });
  const sessions = [new Session(Role.SERVER, { maxLine: 64, profile: Profile.MCP }), new Session(Role.CLIENT, { maxLine: 64, profile: Profile.MCP })];
  const relay = new Relay({ maxLine: 64, profile: Profile.MCP });
  for (let i = 0; i < 20_000; i++) {
    const length = random() % 120;
    const bytes = Buffer.alloc(length);
    for (let j = 0; j < length; j++) bytes[j] = random() % 4 === 0 ? random() & 0xff : alphabet[random() % alphabet.length];
    const c = classify(bytes);
    assert.ok(kinds.has(c.kind));
    assert.equal(invalidReply(bytes, 'server'), c.replyServer);
    assert.equal(invalidReply(bytes, 'client'), c.replyClient);
    const m = classify(bytes, { profile: Profile.MCP });
    assert.ok(kinds.has(m.kind));
    assert.equal(invalidReply(bytes, 'server', { profile: Profile.MCP }), m.replyServer);
    assert.equal(invalidReply(bytes, 'client', { profile: Profile.MCP }), m.replyClient);
    for (const line of mcpReader.feed(bytes)) assert.ok(kinds.has(line.kind));
    for (const s of sessions) {
      s.sent(bytes);
      for (const line of s.feed(bytes)) assert.ok(actions.has(line.action));
      assert.ok(actions.has(s.refused(bytes).action));
    }
    for (const direction of Object.values(Direction)) {
      relay.wrote(direction, bytes);
      for (const line of relay.feed(direction, bytes)) assert.ok(actions.has(line.action));
      assert.ok(actions.has(relay.refused(direction, bytes).action));
    }
    assert.equal(typeof logValue(bytes), 'string');
    if (c.id !== null) assert.equal(c.id, bytes.toString('utf8', c.spans.id.offset, c.spans.id.offset + c.spans.id.length));
    for (const m of reader.feed(bytes)) assert.ok(kinds.has(m.kind));
    const text = String.fromCharCode(...Array.from({ length: length % 40 }, () => random() % 0xffff));
    assert.ok(kinds.has(classify(text).kind));
  }
  reader.close();
  mcpReader.close();
  for (const s of sessions) s.close();
  relay.close();
});
