// The official SDK's client on this package's StdioClientTransport, against
// fake servers (test/fixtures/fake-server.mjs) over real pipes: one that
// writes a banner, print() output and a JSON log line to its stdout and
// sends a broken request; ones that answer initialize with an error that
// names no request; one that writes such errors while none or two requests
// are out; one that answers a request with a response MCP refuses. The
// SDK's own StdioClientTransport is the control.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as SdkTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StdioClientTransport } from 'jsonrpc-envelope/mcpstdio/client';
import { FIXTURES, mcpVector } from './helpers.mjs';

// A broken request, as the MCP profile reads it (the transport's profile).
const BROKEN = mcpVector('envelope: number method with a string id echoes the id');
const TEXT = 'Unicode ✓ 日本語 🙂 — “quoted”';
const REFUSAL = 'Unsupported protocol version: this server speaks 2024-11-05';

// A client on the given transport class against `fake-server.mjs mode`:
// what the server read, the transport's log records, the SDK's errors.
function connect(Transport, mode, options = {}) {
  const got = [];
  const records = [];
  const errors = [];
  const params = {
    command: process.execPath,
    args: [path.join(FIXTURES, 'fake-server.mjs'), mode],
    env: { BROKEN_REQUEST: BROKEN.line, ...options.env },
    stderr: 'pipe',
    ...(options.maxLine === undefined ? {} : { maxLine: options.maxLine }),
  };
  const transport = new Transport(Transport === SdkTransport ? params : { ...params, log: (r) => records.push(r) });
  let pending = '';
  transport.stderr.on('data', (chunk) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop();
    for (const line of lines) if (line.startsWith('{"got":')) got.push(JSON.parse(line).got);
  });
  const client = new Client({ name: 'test-client', version: '0' });
  client.onerror = (error) => errors.push(error);
  return { client, transport, got, records, errors };
}

async function settle() {
  await new Promise((resolve) => setTimeout(resolve, 100));
}

test('a server with a banner, print() output and a JSON log line on stdout: the session completes', async () => {
  const { client, transport, got, records, errors } = connect(StdioClientTransport, 'good');
  try {
    await client.connect(transport);
    assert.equal(client.getServerVersion()?.name, 'fake-server');
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name), ['echo']);
    const result = await client.callTool({ name: 'echo', arguments: { text: TEXT } });
    assert.deepEqual(result.content, [{ type: 'text', text: TEXT }]);
    await settle();
  } finally {
    await client.close();
  }
  assert.deepEqual(errors, [], 'nothing reached the SDK that it could not read');
  assert.deepEqual(
    records.map((r) => [r.number, r.kind, r.action, r.text, r.reply]),
    [
      [1, 'parse_error', 'diverted', 'fake-server 0.1 starting (a banner on stdout)', null],
      [2, 'not_jsonrpc', 'diverted', '{"level":"info","msg":"initializing"}', null],
      [3, 'parse_error', 'diverted', 'Loading tools...', null],
      [6, 'invalid_request', 'answered', BROKEN.line, BROKEN.reply_client],
    ],
  );
  assert.ok(records.every((r) => r.role === 'client' && r.level === 'warning'));
  // The server got the library's client reply, byte for byte, and the SDK's
  // answer to its ping.
  assert.ok(got.includes(BROKEN.reply_client), JSON.stringify(got));
  assert.ok(got.includes('{"result":{},"jsonrpc":"2.0","id":"srv-1"}'), JSON.stringify(got));
});

test('the control: the SDK\'s own transport reports each such line as an error and answers nothing', async () => {
  const { client, transport, got, errors } = connect(SdkTransport, 'good');
  try {
    await client.connect(transport);
    await client.listTools();
    await client.callTool({ name: 'echo', arguments: { text: TEXT } });
    await settle();
  } finally {
    await client.close();
  }
  assert.equal(errors.length, 4, errors.map((e) => e.message).join('\n'));
  assert.ok(!got.some((line) => line.includes('"id":"a"')), 'no reply to the broken request');
});

for (const mode of ['refuse', 'refuse-no-id']) {
  test(`an error that names no request answers initialize (${mode}): the client fails at once with it`, async () => {
    const { client, transport, records } = connect(StdioClientTransport, mode);
    const start = performance.now();
    try {
      await assert.rejects(client.connect(transport, { timeout: 20_000 }), (error) => {
        assert.equal(error.code, -32602);
        assert.match(error.message, new RegExp(REFUSAL));
        return true;
      });
    } finally {
      await client.close();
    }
    const elapsed = performance.now() - start;
    assert.ok(elapsed < 1000, `failed after ${elapsed.toFixed(0)} ms`);
    const attributed = records.find((r) => r.action === 'attributed');
    assert.equal(attributed?.kind, 'response');
    // The error handed on is the server's, with the id of initialize (the
    // SDK's first request, 0) put in.
    assert.deepEqual(JSON.parse(attributed.reply), { jsonrpc: '2.0', id: 0, error: { code: -32602, message: REFUSAL } });
  });
}

test('the control: the SDK\'s own transport waits for its timeout', async () => {
  const { client, transport } = connect(SdkTransport, 'refuse');
  const start = performance.now();
  try {
    await assert.rejects(client.connect(transport, { timeout: 1500 }), (error) => {
      assert.equal(error.code, -32001); // the SDK's own "Request timed out"
      return true;
    });
  } finally {
    await client.close();
  }
  assert.ok(performance.now() - start >= 1400);
});

test('an error that names no request, with none or two requests out, is logged and dropped', async () => {
  const { client, transport, records, errors } = connect(StdioClientTransport, 'null-errors');
  try {
    await client.connect(transport);
    const [tools, pong] = await Promise.all([client.listTools(), client.ping()]);
    assert.deepEqual(tools.tools, []);
    assert.deepEqual(pong, {});
    await settle();
  } finally {
    await client.close();
  }
  assert.deepEqual(errors, []);
  assert.deepEqual(
    records.map((r) => [r.number, r.kind, r.action]),
    [
      [1, 'parse_error', 'diverted'], // the banner
      [3, 'response', 'dropped'], // none out: initialize was answered on line 2
      [4, 'response', 'dropped'], // two out
    ],
  );
});

test('a response MCP refuses, to the request waiting: the request fails at once with the substitute', async () => {
  const { client, transport, records, errors } = connect(StdioClientTransport, 'invalid-response');
  const start = performance.now();
  try {
    await client.connect(transport);
    await assert.rejects(client.listTools(undefined, { timeout: 20_000 }), (error) => {
      assert.equal(error.code, -32603);
      assert.match(error.message, /Internal error: the peer's response to this request is not valid MCP/);
      return true;
    });
  } finally {
    await client.close();
  }
  assert.ok(performance.now() - start < 5000);
  assert.deepEqual(errors, []);
  assert.deepEqual(records.map((r) => [r.number, r.kind, r.action]), [
    [1, 'parse_error', 'diverted'], // the banner
    [3, 'invalid_response', 'substituted'],
  ]);
  assert.equal(
    records[1].reply,
    '{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"Internal error: the peer\'s response to this request is not valid MCP"}}',
  );
});

test('the control: the SDK\'s own transport reports the response as an error and the request waits for its timeout', async () => {
  const { client, transport, errors } = connect(SdkTransport, 'invalid-response');
  const start = performance.now();
  try {
    await client.connect(transport);
    await assert.rejects(client.listTools(undefined, { timeout: 1500 }), (error) => error.code === -32001);
  } finally {
    await client.close();
  }
  assert.ok(performance.now() - start >= 1400);
  assert.ok(errors.length >= 1);
});

test('a response longer than maxLine, to the request waiting: the request fails at once with the substitute, and the session goes on', async () => {
  // SPEC §10.6 (d): the line's first bytes hold its id.
  const LONG = 4096;
  const { client, transport, records, errors } = connect(StdioClientTransport, 'too-long-response', {
    maxLine: 1024,
    env: { LONG_RESPONSE: String(LONG) },
  });
  const start = performance.now();
  try {
    await client.connect(transport);
    await assert.rejects(client.listTools(undefined, { timeout: 20_000 }), (error) => {
      assert.equal(error.code, -32603);
      assert.match(error.message, /Internal error: the peer's response to this request is not valid MCP/);
      return true;
    });
    assert.deepEqual(await client.ping(), {}, 'the session goes on');
  } finally {
    await client.close();
  }
  assert.ok(performance.now() - start < 5000);
  assert.deepEqual(errors, []);
  assert.deepEqual(records.map((r) => [r.number, r.kind, r.action]), [
    [1, 'parse_error', 'diverted'], // the banner
    [3, 'too_long', 'substituted'],
  ]);
  assert.equal(records[1].length, LONG);
  assert.match(records[1].message, new RegExp(`: ${LONG} bytes, id 1 -> `));
  assert.equal(
    records[1].reply,
    '{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"Internal error: the peer\'s response to this request is not valid MCP"}}',
  );
});
