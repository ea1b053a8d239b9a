// The official SDK's server (McpServer, one echo tool) on this package's
// StdioServerTransport, fed the abuse lines through a pipe: every reply byte
// for byte as the vectors give it, never a reply to a line that owes none,
// and the normal requests around them still answered. The same run on the
// SDK's own StdioServerTransport is the control: it answers none of them.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { FIXTURES, run, vector } from './helpers.mjs';

const SERVER = path.join(FIXTURES, 'sdk-server.mjs');

// The abuse lines, from the vectors (their expected replies with them).
const ABUSE = [
  'request with id null is a request, answered with id null',
  'object id is an invalid request',
  'number method with a string id echoes the id',
  'boolean method and null id',
  'batch of one request',
  'plain text',
  'string',
].map(vector);
// Lines that are not JSON-RPC: dropped with a log record, never answered.
const DROPPED = ['log line', 'empty object'].map(vector);

const TEXT = 'Unicode ✓ 日本語 🙂 — “quoted”';
const INITIALIZE = '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"test","version":"0"}}}';
const INITIALIZED = '{"jsonrpc":"2.0","method":"notifications/initialized"}';
const CALL = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: TEXT } } });
const PING = '{"jsonrpc":"2.0","id":42,"method":"ping"}';

function input() {
  const lines = [INITIALIZE, INITIALIZED];
  for (const v of ABUSE) lines.push(v.bytes);
  lines.push(Buffer.alloc(0)); // an empty line
  for (const v of DROPPED) lines.push(v.bytes);
  lines.push(CALL, PING);
  return Buffer.concat(lines.flatMap((line) => [Buffer.from(line), Buffer.from('\n')]));
}

async function session(which) {
  const result = await run(process.execPath, [SERVER, which], { input: input() });
  assert.equal(result.status, 0, result.stderr);
  const out = result.stdout.toString('utf8');
  assert.ok(out === '' || out.endsWith('\n'), 'every line written ends with LF');
  const lines = out.split('\n').slice(0, -1);
  const notes = result.stderr
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line));
  // The SDK's answers to the normal requests, by id; everything else.
  const answers = new Map();
  const others = [];
  for (const line of lines) {
    const id = JSON.parse(line).id;
    if (id === 1 || id === 2 || id === 42) answers.set(id, JSON.parse(line));
    else others.push(line);
  }
  return { answers, others, records: notes.filter((n) => n.record).map((n) => n.record), sdkErrors: notes.filter((n) => n.sdkError) };
}

function checkAnswers(answers) {
  assert.equal(answers.get(1)?.result?.serverInfo?.name, 'sdk-echo', 'initialize answered');
  assert.deepEqual(answers.get(2)?.result?.content, [{ type: 'text', text: TEXT }], 'tools/call answered, its text intact');
  assert.deepEqual(answers.get(42), { result: {}, jsonrpc: '2.0', id: 42 }, 'a ping after the abuse still answered');
}

test('the SDK server on our transport: the library\'s reply to every abuse line, byte for byte', async () => {
  const { answers, others, records, sdkErrors } = await session('envelope');
  checkAnswers(answers);
  // Exactly the vectors' server replies, in the order of their lines (the
  // transport answers as it reads, before the SDK answers anything).
  const owed = ABUSE.map((v) => v.reply_server).filter((reply) => reply !== null);
  assert.equal(owed.length, ABUSE.length - 1, 'all but the id-null request owe an envelope reply');
  assert.deepEqual(others, owed);
  // Every answered line has its record; the empty and not-JSON-RPC lines
  // are dropped with one; the line numbers are stdin's.
  assert.deepEqual(
    records.map((r) => [r.number, r.kind, r.action, r.reply]),
    [
      ...ABUSE.slice(1).map((v, i) => [4 + i, v.kind, 'answered', v.reply_server]),
      [10, 'empty', 'dropped', null],
      ...DROPPED.map((v, i) => [11 + i, v.kind, 'dropped', null]),
    ],
  );
  assert.ok(records.every((r) => r.role === 'server'));
  assert.equal(records[4].text, 'Server listening on port 3000');
  // The id-null request is a request (SPEC §2), so it goes to the SDK, as
  // its own transport would hand it; the SDK's schema refuses a null id and
  // reports it: no reply, and the only error the SDK sees.
  assert.equal(sdkErrors.length, 1, JSON.stringify(sdkErrors));
});

test('the control: the SDK server on the SDK\'s own transport answers none of the abuse lines', async () => {
  const { answers, others, records, sdkErrors } = await session('sdk');
  checkAnswers(answers);
  assert.deepEqual(others, [], 'no reply to any abuse line: a client waiting on one hangs');
  assert.deepEqual(records, []);
  // It reports each abuse line, the empty line and the lines that are not
  // JSON-RPC as errors of its own, and answers nothing for them.
  assert.equal(sdkErrors.length, ABUSE.length + 1 + DROPPED.length, JSON.stringify(sdkErrors));
});
