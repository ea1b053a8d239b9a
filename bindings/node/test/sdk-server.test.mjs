// The official SDK's server (McpServer, one echo tool) on this package's
// StdioServerTransport, fed the abuse lines through a pipe: every reply byte
// for byte as the vectors of the MCP profile give it, never a reply to a
// line that owes none, and the normal requests around them still answered.
// The same run on the SDK's own StdioServerTransport is the control: it
// answers none of them. And a request of the server's own (roots/list)
// answered with an invalid response: the request fails at once with the
// substitute, where on the SDK's own transport it waits for its timeout.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { FIXTURES, mcpVector, run } from './helpers.mjs';

const SERVER = path.join(FIXTURES, 'sdk-server.mjs');

// The abuse lines, from mcp.jsonl (their expected replies with them): the
// lines of envelope.jsonl as the MCP profile reads them, and requests only
// the MCP profile refuses.
const ABUSE = [
  ...[
    'request with id null is a request, answered with id null',
    'object id is an invalid request',
    'number method with a string id echoes the id',
    'boolean method and null id',
    'batch of one request',
    'plain text',
    'string',
  ].map((name) => mcpVector(`envelope: ${name}`)),
  ...['request with an extra member', 'params array', 'id with a fraction'].map(mcpVector),
];
// Lines that are not JSON-RPC: dropped with a log record, never answered.
const DROPPED = ['log line', 'empty object'].map((name) => mcpVector(`envelope: ${name}`));

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
  // The SDK's answers to the normal requests (results), by id; everything
  // else (abuse lines of the MCP profile have id 1 too).
  const answers = new Map();
  const others = [];
  for (const line of lines) {
    const { id, result } = JSON.parse(line);
    if ((id === 1 || id === 2 || id === 42) && result !== undefined) answers.set(id, JSON.parse(line));
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
  assert.equal(owed.length, ABUSE.length, 'in the MCP profile every abuse line owes a reply, the id-null request too');
  assert.deepEqual(others, owed);
  // Every answered line has its record; the empty and not-JSON-RPC lines
  // are dropped with one; the line numbers are stdin's.
  const empty = 3 + ABUSE.length;
  assert.deepEqual(
    records.map((r) => [r.number, r.kind, r.action, r.reply, r.level]),
    [
      ...ABUSE.map((v, i) => [3 + i, v.kind, 'answered', v.reply_server, 'warning']),
      [empty, 'empty', 'dropped', null, 'warning'],
      ...DROPPED.map((v, i) => [empty + 1 + i, v.kind, 'dropped', null, 'warning']),
    ],
  );
  assert.ok(records.every((r) => r.role === 'server' && typeof r.note === 'string'));
  assert.equal(records[5].text, 'Server listening on port 3000');
  // Nothing reached the SDK that it could not read: not one error.
  assert.deepEqual(sdkErrors, []);
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

// The server asks the client for its roots when its tool `roots` is called,
// and the test answers that request with `answer`: what the tool reports and
// how long the call took.
async function askRoots(which, answer, timeout, maxLine) {
  const args = [SERVER, which, ...(maxLine === undefined ? [] : [String(maxLine)])];
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  const lines = [];
  let pending = '';
  let wake = () => {};
  child.stdout.on('data', (chunk) => {
    pending += chunk;
    const parts = pending.split('\n');
    pending = parts.pop();
    lines.push(...parts.map((line) => JSON.parse(line)));
    wake();
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const until = async (found, ms) => {
    const deadline = Date.now() + ms;
    for (;;) {
      const line = lines.find(found);
      if (line !== undefined) return line;
      if (Date.now() > deadline) throw new Error(`nothing came; the server's stderr:\n${stderr}`);
      await new Promise((resolve) => {
        wake = resolve;
        setTimeout(resolve, 50);
      });
    }
  };
  try {
    const initialize = JSON.parse(INITIALIZE);
    initialize.params.capabilities = { roots: {} };
    child.stdin.write(`${JSON.stringify(initialize)}\n${INITIALIZED}\n`);
    await until((m) => m.id === 1, 20_000);
    const started = performance.now();
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'roots', arguments: { timeout } } })}\n`);
    const request = await until((m) => m.method === 'roots/list', 20_000);
    child.stdin.write(`${answer(request.id)}\n`);
    const result = await until((m) => m.id === 3, timeout + 20_000);
    const elapsed = performance.now() - started;
    // The server's records reach its stderr pipe in their own time: all of
    // them are read once it has exited (end of stdin; killed after 5 s).
    const closed = new Promise((resolve) => child.on('close', resolve));
    child.stdin.end();
    const killer = setTimeout(() => child.kill(), 5000);
    await closed;
    clearTimeout(killer);
    return { text: result.result?.content?.[0]?.text, elapsed, stderr };
  } finally {
    child.stdin.end();
    child.kill();
  }
}

test('an invalid response to the server\'s own request: its substitute fails the request at once', async () => {
  // A result that is not an object (SPEC §10.3 (d)), from the vectors.
  const invalid = mcpVector('result an array');
  assert.equal(invalid.kind, 'invalid_response');
  const { text, elapsed, stderr } = await askRoots('envelope', (id) => invalid.line.replace('"id":1', `"id":${JSON.stringify(id)}`), 10_000);
  assert.equal(text, "error -32603: MCP error -32603: Internal error: the peer's response to this request is not valid MCP");
  assert.ok(elapsed < 5000, `failed after ${elapsed.toFixed(0)} ms`);
  const records = stderr.split('\n').filter((line) => line.startsWith('{"record"')).map((line) => JSON.parse(line).record);
  assert.deepEqual(records.map((r) => [r.kind, r.action, r.level]), [['invalid_response', 'substituted', 'warning']]);
});

test('the control: on the SDK\'s own transport the server\'s request waits for its timeout', async () => {
  const invalid = mcpVector('result an array');
  const { text, elapsed } = await askRoots('sdk', (id) => invalid.line.replace('"id":1', `"id":${JSON.stringify(id)}`), 1500);
  assert.match(text, /^error -32001: /); // the SDK's own "Request timed out"
  assert.ok(elapsed >= 1400);
});

// SPEC §10.6: lines whose requests once waited for a timeout, each with the
// ids in it and what each gets back (null: the SDK's own result), for the
// server on our transport with a small line limit (its maxLine option).
const LIMIT = 256;
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const batchReply = (id) =>
  `{"jsonrpc":"2.0","id":${id},"error":{"code":-32600,"message":"Invalid Request: MCP has no batches; send each request on its own line"}}`;
const damagedReply = (id) => `{"jsonrpc":"2.0","id":${id},"error":{"code":-32700,"message":"Parse error"}}`;
const tooLongReply = (id) =>
  `{"jsonrpc":"2.0","id":${id},"error":{"code":-32600,"message":"Invalid Request: the line is longer than this peer reads"}}`;
const UNREADABLE = [
  {
    label: 'a batch of two requests',
    line: Buffer.from('[{"jsonrpc":"2.0","id":11,"method":"ping"},{"jsonrpc":"2.0","id":"twelve","method":"tools/list"}]'),
    ids: new Map([[11, batchReply('11')], ['twelve', batchReply('"twelve"')]]),
  },
  {
    label: 'a request after a byte order mark',
    line: Buffer.concat([BOM, Buffer.from('{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"name":"echo","arguments":{"text":"bom"}}}')]),
    ids: new Map([[13, null]]),
  },
  {
    label: 'a damaged request (a byte FF inside params)',
    line: Buffer.concat([
      Buffer.from('{"jsonrpc":"2.0","id":14,"method":"tools/call","params":{"name":"echo","arguments":{"text":"'),
      Buffer.from([0xff]),
      Buffer.from('"}}}'),
    ]),
    ids: new Map([[14, damagedReply('14')]]),
  },
  {
    label: 'a request cut short',
    line: Buffer.from('{"jsonrpc":"2.0","id":15,"method":"tools/call","params":{"name":"ec'),
    ids: new Map([[15, damagedReply('15')]]),
  },
  {
    label: 'a request longer than the line limit',
    line: Buffer.from(`{"jsonrpc":"2.0","id":"sixteen","method":"tools/call","params":{"name":"echo","arguments":{"text":"${'x'.repeat(4 * LIMIT)}"}}}`),
    ids: new Map([['sixteen', tooLongReply('"sixteen"')]]),
  },
];

// The host's input: the handshake, each line above followed by a ping, a
// last tools/call; and what came back, line by line, by id.
async function unreadable(which, maxLine) {
  const parts = [INITIALIZE, INITIALIZED];
  UNREADABLE.forEach(({ line }, n) => parts.push(line, `{"jsonrpc":"2.0","id":${100 + n},"method":"ping"}`));
  parts.push(CALL);
  const input = Buffer.concat(parts.flatMap((part) => [Buffer.from(part), Buffer.from('\n')]));
  const result = await run(process.execPath, [SERVER, which, ...(maxLine === undefined ? [] : [String(maxLine)])], { input });
  assert.equal(result.status, 0, result.stderr);
  const out = result.stdout.toString('utf8');
  assert.ok(out.endsWith('\n'), 'every line written ends with LF');
  const byId = new Map();
  for (const line of out.split('\n').slice(0, -1)) {
    const { id } = JSON.parse(line); // one response a line: a batch's answer is a line per reply
    assert.ok(!byId.has(id), `one response for id ${id}`);
    byId.set(id, line);
  }
  const records = result.stderr
    .split('\n')
    .filter((line) => line.startsWith('{"record"'))
    .map((line) => JSON.parse(line).record);
  return { byId, records, stderr: result.stderr };
}

test('the SDK server on our transport answers every request whose id is in the line, and serves on', async () => {
  const { byId, records, stderr } = await unreadable('envelope', LIMIT);
  for (const { label, line, ids } of UNREADABLE) {
    assert.equal(line.length > LIMIT, label.includes('longer'), label);
    for (const [id, reply] of ids) {
      assert.ok(byId.has(id), `${label}: no response for id ${id}; stderr:\n${stderr}`);
      if (reply !== null) assert.equal(byId.get(id), reply, label);
    }
  }
  assert.deepEqual(JSON.parse(byId.get(13)).result.content, [{ type: 'text', text: 'bom' }], 'the request after a mark reached the SDK');
  UNREADABLE.forEach((_, n) => assert.deepEqual(JSON.parse(byId.get(100 + n)).result, {}, `ping ${100 + n}`));
  assert.equal(JSON.parse(byId.get(1)).result.serverInfo.name, 'sdk-echo', 'initialize answered');
  assert.deepEqual(JSON.parse(byId.get(2)).result.content, [{ type: 'text', text: TEXT }], 'the last call answered: the session lives on');
  assert.deepEqual(
    records.map((r) => [r.kind, r.action]),
    [['batch', 'answered'], ['parse_error', 'answered'], ['parse_error', 'answered'], ['too_long', 'answered']],
  );
  const tooLong = records.at(-1);
  assert.equal(tooLong.reply, tooLongReply('"sixteen"'));
  assert.match(tooLong.message, /: too_long, answered \(.*\): \d+ bytes, id "sixteen" -> /);
  assert.doesNotMatch(stderr, /sdkError/, 'nothing reached the SDK that it could not read');
});

test('the control: the SDK server on the SDK\'s own transport leaves those requests waiting', async () => {
  const { byId } = await unreadable('sdk');
  const answered = UNREADABLE.map(({ label, ids }) => [label, [...ids.keys()].filter((id) => byId.has(id))]);
  // The SDK reads its pipe as UTF-8 with U+FFFD for a byte FF, and has no
  // line limit of 256 bytes: those two requests it answers.
  assert.deepEqual(answered, [
    ['a batch of two requests', []],
    ['a request after a byte order mark', []],
    ['a damaged request (a byte FF inside params)', [14]],
    ['a request cut short', []],
    ['a request longer than the line limit', ['sixteen']],
  ]);
  UNREADABLE.forEach((_, n) => assert.ok(byId.has(100 + n), `ping ${100 + n}`));
});

test('a too-long response to the server\'s own request: its substitute fails the request at once (SPEC §10.6 (d))', async () => {
  const answer = (id) => `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"roots":[{"uri":"file:///${'r'.repeat(1000)}"}]}}`;
  const { text, elapsed, stderr } = await askRoots('envelope', answer, 10_000, 256);
  assert.equal(text, "error -32603: MCP error -32603: Internal error: the peer's response to this request is not valid MCP");
  assert.ok(elapsed < 5000, `failed after ${elapsed.toFixed(0)} ms`);
  const records = stderr.split('\n').filter((line) => line.startsWith('{"record"')).map((line) => JSON.parse(line).record);
  assert.deepEqual(records.map((r) => [r.kind, r.action, r.level]), [['too_long', 'substituted', 'warning']]);
});
