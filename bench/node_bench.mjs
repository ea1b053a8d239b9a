// Benchmark of the Node binding (not a test): ns per line of classify and
// readMessages against JSON.parse plus a plain classification in
// JavaScript, over the same ~180-byte MCP lines (tools/call requests,
// progress notifications, results; those of bench/python_bench.py).
//
//   make bench-node          (the release library, the addon, then this)
//   node bench/node_bench.mjs [--lines N] [--rounds R]     (10,000 lines, 100 rounds)
//
// Each figure is the best of R rounds in which every row runs once over the
// same N lines, in turns, in wall time: the machine's other load only ever
// adds time, and a row's best round is one the load spared (short rounds
// make that likely on a shared machine; N lines are enough for each round
// to include its share of garbage collection). The "floor" rows are the
// addon's calls alone, with no JavaScript objects built; the last rows are
// the cost of one call into the addon.
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import os from 'node:os';

const require = createRequire(import.meta.url);
const envelope = require('../bindings/node/lib/index.cjs');
const native = require('../bindings/node/lib/native.cjs');
const { classify, readMessages, Reader, Session, Profile, Role, LIBRARY_VERSION } = envelope;
const MCP = { profile: Profile.MCP };

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const COUNT = option('--lines', 10_000);
const ROUNDS = option('--rounds', 100);
const CHUNK = 64 * 1024;

// ---- the traffic ------------------------------------------------------------

function mcpLines(count) {
  const lines = [];
  for (let i = 0; i < count; i++) {
    const n = Math.floor(i / 3);
    let message;
    if (i % 3 === 0) {
      message = {
        jsonrpc: '2.0', id: n, method: 'tools/call',
        params: { name: 'search_files', arguments: { query: `ctypes struct layout of JsonRpcLine ${n}`, limit: 10 }, _meta: { progressToken: `tok-${n}` } },
      };
    } else if (i % 3 === 1) {
      message = {
        jsonrpc: '2.0', method: 'notifications/progress',
        params: { progressToken: `tok-${n}`, progress: n % 100, total: 100, message: 'indexing src/ffi, tests/vectors and bindings/ for the query' },
      };
    } else {
      message = {
        jsonrpc: '2.0', id: n,
        result: { content: [{ type: 'text', text: `found ${n % 7} matches in src/ffi/lines.rs and src/ffi/text.rs` }], isError: false },
      };
    }
    lines.push(JSON.stringify(message));
  }
  return lines;
}

// ---- the plain-JavaScript baseline: JSON.parse and the kind, as a host would

// A baseline only, written for this benchmark: it is not the SPEC (it misses
// duplicate members, lone surrogates, exact ids, invalid UTF-8, ...).
function plainClassify(line) {
  let value;
  try {
    value = JSON.parse(line);
  } catch {
    return { kind: 'parse_error', id: null, method: null };
  }
  if (Array.isArray(value)) return { kind: 'batch', id: null, method: null };
  if (value === null || typeof value !== 'object') return { kind: 'not_object', id: null, method: null };
  const hasId = Object.hasOwn(value, 'id');
  const id = hasId ? value.id : null;
  if (Object.hasOwn(value, 'method')) {
    const method = value.method;
    if (typeof method !== 'string' || (hasId && id !== null && typeof id !== 'string' && typeof id !== 'number')) {
      return { kind: 'invalid_request', id, method };
    }
    return { kind: hasId ? 'request' : 'notification', id, method };
  }
  if (hasId || (Object.hasOwn(value, 'error') && value.jsonrpc === '2.0')) return { kind: 'response', id, method: null };
  return { kind: 'not_jsonrpc', id: null, method: null };
}

// The same over a stream, as a host without the library reads one (the
// SDK's ReadBuffer does this): split the chunks at LF, decode, parse.
async function* plainMessages(stream) {
  let rest = null;
  for await (const chunk of stream) {
    const buffer = rest === null ? chunk : Buffer.concat([rest, chunk]);
    let start = 0;
    let end;
    while ((end = buffer.indexOf(10, start)) !== -1) {
      yield plainClassify(buffer.toString('utf8', start, end));
      start = end + 1;
    }
    rest = start < buffer.length ? buffer.subarray(start) : null;
  }
  if (rest !== null) yield plainClassify(rest.toString('utf8'));
}

// ---- the rows ---------------------------------------------------------------

const lines = mcpLines(COUNT);
const buffers = lines.map((line) => Buffer.from(line));
const stream = Buffer.from(`${lines.join('\n')}\n`);
const chunks = [];
for (let at = 0; at < stream.length; at += CHUNK) chunks.push(stream.subarray(at, at + CHUNK));
const readable = () => Readable.from(chunks, { objectMode: false });
const linesLF = lines.map((line) => Buffer.from(`${line}\n`));
const empty = Buffer.alloc(0);
let sink;

const rows = [
  ['classify(line).kind', () => { for (const b of buffers) sink = classify(b).kind; }],
  ['classify(line): kind, id, method', () => { for (const b of buffers) { const c = classify(b); sink = [c.kind, c.id, c.method]; } }],
  ['classify(string).kind', () => { for (const l of lines) sink = classify(l).kind; }],
  ['readMessages: kind', async () => { for await (const m of readMessages(readable())) sink = m.kind; }],
  ['readMessages: kind, id, method', async () => { for await (const m of readMessages(readable())) sink = [m.kind, m.id, m.method]; }],
  ['Reader.feed (no async iteration): kind', () => {
    const reader = new Reader();
    for (const chunk of chunks) for (const m of reader.feed(chunk)) sink = m.kind;
    reader.close();
  }],
  ['Reader.feed, one line per call (a conversation\'s reads): kind', () => {
    const reader = new Reader();
    for (const line of linesLF) for (const m of reader.feed(line)) sink = m.kind;
    reader.close();
  }],
  ['classify(line, { profile: mcp }).kind', () => { for (const b of buffers) sink = classify(b, MCP).kind; }],
  ['Session.feed (role client, MCP: what the SDK transports do): action', () => {
    const session = new Session(Role.CLIENT, MCP);
    for (const chunk of chunks) for (const m of session.feed(chunk)) sink = m.action;
    session.close();
  }],
  ['JSON.parse', () => { for (const l of lines) sink = JSON.parse(l); }],
  ['JSON.parse + JS classification', () => { for (const l of lines) sink = plainClassify(l).kind; }],
  ['JS stream: split + JSON.parse + classification', async () => { for await (const m of plainMessages(readable())) sink = m.kind; }],
  ['floor: the addon\'s classify, no object built', () => { for (const b of buffers) sink = native.classify(b); }],
  ['floor: the addon\'s readerFeed, no object built', () => {
    const handle = native.readerNew(0);
    for (const chunk of chunks) sink = native.readerFeed(handle, chunk);
    native.readerFree(handle);
  }],
  ['one addon call (liveReaders(): no argument, no work)', () => { for (let i = 0; i < COUNT; i++) sink = native.liveReaders(); }],
  ['one addon call of classify on the empty line', () => { for (let i = 0; i < COUNT; i++) sink = native.classify(empty); }],
];

const best = new Map();
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, body] of rows) {
    const start = process.hrtime.bigint();
    await body();
    const took = Number(process.hrtime.bigint() - start) / COUNT;
    best.set(name, Math.min(best.get(name) ?? Infinity, took));
  }
}

const mean = lines.reduce((sum, line) => sum + line.length, 0) / COUNT;
console.log(
  `jsonrpc-envelope ${LIBRARY_VERSION} (Node-API addon); Node ${process.version} on ${os.arch()}, ${os.cpus()[0]?.model ?? 'unknown CPU'};` +
    ` ${COUNT} lines of ${mean.toFixed(0)} bytes on average; best of ${ROUNDS} rounds in turns, wall time`,
);
console.log('');
console.log('| per line | ns |');
console.log('|---|---:|');
for (const [name] of rows) console.log(`| ${name} | ${best.get(name).toFixed(0)} |`);
const baseline = best.get('JSON.parse + JS classification');
const streamBaseline = best.get('JS stream: split + JSON.parse + classification');
const read = best.get('readMessages: kind');
const one = best.get('classify(line).kind');
console.log('');
console.log(`speed-up over JSON.parse + JS classification: readMessages ${(baseline / read).toFixed(2)}x, classify ${(baseline / one).toFixed(2)}x`);
console.log(`speed-up over the JS stream reader: readMessages ${(streamBaseline / read).toFixed(2)}x`);
console.log(
  `JavaScript's share above the addon floor: classify ${(one - best.get('floor: the addon\'s classify, no object built')).toFixed(0)} ns,` +
    ` readMessages ${(read - best.get('floor: the addon\'s readerFeed, no object built')).toFixed(0)} ns`,
);
console.log(`target readMessages >= 2x JSON.parse + JS classification: ${baseline / read >= 2 ? 'met' : 'NOT met'}`);
console.log(`target classify >= 1.5x JSON.parse + JS classification: ${baseline / one >= 1.5 ? 'met' : 'NOT met'}`);
