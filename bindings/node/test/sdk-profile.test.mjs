// The MCP profile against the official TypeScript SDK's own decoder
// (deserializeMessage, what its stdio transports read each line with): what
// the profile hands on (every message of mcp.jsonl, every substitute, every
// attributed error, and the same of 20,000 random lines) the SDK reads
// (SPEC §10.4: the refusal path is never taken on the vectors and on random
// lines). And that refusal path itself, through the server transport with a
// decoder that refuses on purpose: the session's decision done, logged at
// error level, and never an error handed to the SDK.
import assert from 'node:assert/strict';
import { PassThrough, Writable } from 'node:stream';
import { test } from 'node:test';
import { deserializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { Action, Kind, Profile, Role, Session, classify } from 'jsonrpc-envelope';
import transports from '../lib/mcpstdio/server-transport.cjs';
import { mcpVectors } from './helpers.mjs';

const MCP = { profile: Profile.MCP };
const HANDED_ON = new Set([Kind.REQUEST, Kind.NOTIFICATION, Kind.RESPONSE]);

// Whether the SDK's decoder reads `text`; the complaint otherwise.
function sdkReads(text) {
  try {
    deserializeMessage(text);
    return true;
  } catch (error) {
    return String(error?.message ?? error).slice(0, 300);
  }
}

// What a session in the client role hands on for `line` (as the only line
// read), with a request outstanding whose id is the line's own (or 1).
function handedOn(line, id) {
  const session = new Session(Role.CLIENT, MCP);
  try {
    session.sent(`{"jsonrpc":"2.0","id":${id ?? 1},"method":"ping"}`);
    const [decided] = [...session.feed(line), ...session.end()];
    if (decided === undefined) return null;
    // The session's normal form where it gives one (SPEC 10.5), as the
    // transports hand it on: a message after a byte order mark, without it.
    if (decided.action === Action.FORWARD) return decided.actionText ?? decided.line.toString('utf8');
    if (decided.action === Action.SUBSTITUTE || decided.action === Action.ATTRIBUTE) return decided.actionText;
    return null;
  } finally {
    session.close();
  }
}

test('the SDK reads every message, substitute and attributed error of mcp.jsonl', () => {
  let checked = 0;
  for (const v of mcpVectors) {
    // A message after a byte order mark is handed on without it (SPEC 10.6 (a)).
    const text = v.bytes.toString('utf8').replace(/^\uFEFF/, '');
    if (HANDED_ON.has(v.kind) && !v.names_no_request) {
      assert.equal(sdkReads(text), true, v.name);
      checked++;
    }
    if (v.substitute !== null) {
      assert.equal(sdkReads(v.substitute), true, `${v.name}: its substitute`);
      checked++;
    }
    if (!v.bytes.includes(0x0a) && (HANDED_ON.has(v.kind) || v.kind === Kind.INVALID_RESPONSE)) {
      const handed = handedOn(v.bytes, v.id_kind === 'number' || v.id_kind === 'string' ? v.id : undefined);
      if (handed !== null) {
        assert.equal(sdkReads(handed), true, `${v.name}: handed on as ${handed}`);
        checked++;
      }
    }
  }
  assert.ok(checked > 100, `${checked} texts checked`);
});

test('the SDK reads whatever the profile hands on of 20,000 random lines', () => {
  let seed = 2025;
  const random = (n) => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return (seed >>> 8) % n;
  };
  const pick = (values) => values[random(values.length)];
  // Each member's values: MCP's own first, then others.
  const MEMBERS = {
    jsonrpc: [['"2.0"', '"\\u0032.0"'], ['"1.0"', '2.0', 'null']],
    id: [['7', '-0', '0', '9007199254740991', '"a"', '""', '"工具"', '"\\ud83d\\ude00"'], ['1.5', '1e2', '9007199254740992', '"\\ud800"', 'null', 'true', '{}', '[]']],
    method: [['"ping"', '"tools/call"', '"notifications/progress"', '"m\\u0065"'], ['5', 'null']],
    params: [['{}', '{"_meta":{}}', '{"_meta":{"progressToken":"t"}}', '{"_meta":{"progressToken":-3}}', '{"arguments":{"x":[1,{"y":null}]}}'], ['[]', '5', 'null', '{"_meta":5}', '{"_meta":{"progressToken":1.5}}', '{"_meta":{"progressToken":null}}']],
    result: [['{}', '{"a":1}', '{"_meta":{"x":1}}'], ['[]', 'null', '"x"']],
    error: [['{"code":1,"message":"m"}', '{"code":-32600,"message":"m","data":[1]}', '{"code":-0,"message":""}'], ['{"code":"x","message":"m"}', '{"message":"m"}', '{"code":1}', '{"code":1.5,"message":"m"}', '{"code":1,"message":5}', '"boom"', '{"code":1e3,"message":"m"}']],
    extra: [[], ['1', '{}', '"x"']],
  };
  const SHAPES = [
    ['jsonrpc', 'id', 'method', 'params'],
    ['jsonrpc', 'method', 'params'],
    ['jsonrpc', 'id', 'result'],
    ['jsonrpc', 'id', 'error'],
  ];
  const EXTRA_NAMES = ['"x"', '"_meta"', '"ID"', '"Result"', '"result"', '"error"', '"method"', '"id"'];
  let handed = 0;
  for (let i = 0; i < 20_000; i++) {
    const parts = [];
    for (const name of [...pick(SHAPES), ...(random(8) === 0 ? ['extra'] : [])]) {
      if (random(12) === 0) continue; // a member missing
      const [good, bad] = MEMBERS[name];
      const key = name === 'extra' ? pick(EXTRA_NAMES) : `"${name}"`;
      const value = () => (good.length > 0 && random(4) > 0 ? pick(good) : pick(bad));
      parts.push(`${key}:${value()}`);
      if (random(30) === 0) parts.push(`${key}:${value()}`); // duplicated: the last counts
    }
    for (let j = parts.length - 1; j > 0; j--) {
      const k = random(j + 1);
      [parts[j], parts[k]] = [parts[k], parts[j]];
    }
    const line = `{${parts.join(',')}}`;
    const c = classify(line, MCP);
    if (HANDED_ON.has(c.kind) && !c.namesNoRequest) {
      assert.equal(sdkReads(line), true, line);
      handed++;
    }
    if (c.substitute !== null) assert.equal(sdkReads(c.substitute), true, `${line}: its substitute`);
    const text = handedOn(line, c.idKind === 'number' || c.idKind === 'string' ? c.id : undefined);
    if (text !== null) assert.equal(sdkReads(text), true, `${line}: handed on as ${text}`);
  }
  assert.ok(handed > 2000, `${handed} random messages`);
});

// The server transport with a decoder that refuses what `refuses` says (and
// is the SDK's own otherwise), on a pipe: what it wrote, gave the SDK, and
// logged, and the errors it reported.
async function refusingServer(refuses, lines, before) {
  const StdioServerTransport = transports.makeServerTransport((line) => {
    if (refuses(line)) throw new Error(`the test's decoder refuses ${line}`);
    return deserializeMessage(line);
  });
  const stdin = new PassThrough();
  const written = [];
  const stdout = new Writable({
    write(chunk, encoding, done) {
      written.push(chunk.toString());
      done();
    },
  });
  const records = [];
  const messages = [];
  const errors = [];
  const transport = new StdioServerTransport(stdin, stdout, { log: (r) => records.push(r) });
  transport.onmessage = (m) => messages.push(m);
  transport.onerror = (e) => errors.push(e);
  await transport.start();
  await before?.(transport);
  stdin.write(lines.map((line) => `${line}\n`).join(''));
  await new Promise((resolve) => setImmediate(resolve));
  await transport.close();
  return { written: written.join(''), records, messages, errors };
}

const INTERNAL = "Internal error: the peer's response to this request is not valid MCP";

test('a line the SDK\'s decoder refuses: the session\'s decision, logged at error level, no error to the SDK', async () => {
  const { written, records, messages, errors } = await refusingServer(
    (line) => line.includes('refuse/me') || line.includes('"refuse-me"') || line.includes('"id":5'),
    [
      '{"jsonrpc":"2.0","id":3,"method":"refuse/me"}', // a request: answered
      '{"jsonrpc":"2.0","method":"refuse/me"}', // a notification: dropped
      '{"jsonrpc":"2.0","id":4,"result":{"refuse-me":1}}', // a response: its substitute instead
      '{"jsonrpc":"2.0","id":5,"result":{}}', // a response whose substitute is refused too: dropped
      '{"jsonrpc":"2.0","id":6,"method":"ping"}', // read
    ],
    async (transport) => {
      await transport.send({ jsonrpc: '2.0', id: 4, method: 'roots/list' });
      await transport.send({ jsonrpc: '2.0', id: 5, method: 'roots/list' });
    },
  );
  assert.deepEqual(errors, [], 'the SDK never gets the decoder\'s error');
  assert.equal(
    written,
    '{"jsonrpc":"2.0","id":4,"method":"roots/list"}\n{"jsonrpc":"2.0","id":5,"method":"roots/list"}\n' +
      '{"jsonrpc":"2.0","id":3,"error":{"code":-32600,"message":"Invalid Request: the receiving MCP SDK cannot read this request"}}\n',
  );
  assert.deepEqual(messages, [
    { jsonrpc: '2.0', id: 4, error: { code: -32603, message: INTERNAL } },
    { jsonrpc: '2.0', id: 6, method: 'ping' },
  ]);
  assert.deepEqual(
    records.map((r) => [r.level, r.number, r.kind, r.action]),
    [
      ['error', 1, 'request', 'answered'],
      ['error', 2, 'notification', 'dropped'],
      ['error', 3, 'response', 'substituted'],
      ['error', 4, 'response', 'substituted'],
      ['error', 4, 'response', 'dropped'],
    ],
  );
  for (const r of records) {
    assert.equal(r.role, 'server');
    assert.equal(typeof r.note, 'string');
    assert.match(r.error, /the test's decoder refuses/);
    assert.match(r.message, /the test's decoder refuses/);
    assert.ok(Object.isFrozen(r));
  }
  assert.equal(records[0].reply, '{"jsonrpc":"2.0","id":3,"error":{"code":-32600,"message":"Invalid Request: the receiving MCP SDK cannot read this request"}}');
  assert.equal(records[2].reply, `{"jsonrpc":"2.0","id":4,"error":{"code":-32603,"message":"${INTERNAL}"}}`);
  assert.equal(records[4].reply, null);
});
