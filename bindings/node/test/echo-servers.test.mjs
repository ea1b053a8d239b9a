// The project's echo servers (examples/node/echo_server.mjs on a Session,
// examples/python/echo_server.py, examples/go/echo-server): the official SDK
// client completes a session with each, over this package's transport and
// over the SDK's own; and each, fed the same raw lines, answers the broken
// ones with the vectors' replies byte for byte and the rest alike.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as SdkTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StdioClientTransport } from 'jsonrpc-envelope/mcpstdio/client';
import { ROOT, run, vector } from './helpers.mjs';

const RELEASE_LIB = path.join(ROOT, 'target', 'release', 'libjsonrpc_envelope.so');
const TEXT = 'Unicode ✓ 日本語 🙂 “quoted” \\ back\\slash\nnew line\u2028separator';

let work;
const servers = {};

before(() => {
  work = mkdtempSync(path.join(os.tmpdir(), 'jsonrpc-envelope-echo-'));
  // The Go server, built here (cgo, the library's static archive).
  const goServer = path.join(work, 'echo-server');
  execFileSync('go', ['build', '-o', goServer, '.'], {
    cwd: path.join(ROOT, 'examples', 'go', 'echo-server'),
    env: { ...process.env, PATH: `${process.env.PATH}:/usr/local/go/bin`, CGO_ENABLED: '1' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  servers.node = { command: process.execPath, args: [path.join(ROOT, 'examples', 'node', 'echo_server.mjs')], env: {} };
  servers.python = {
    command: 'python3',
    args: [path.join(ROOT, 'examples', 'python', 'echo_server.py')],
    env: { JSONRPC_ENVELOPE_LIB: RELEASE_LIB, PYTHONPATH: path.join(ROOT, 'bindings', 'python', 'src'), PYTHONDONTWRITEBYTECODE: '1' },
  };
  servers.go = { command: goServer, args: [], env: {} };
});

after(() => rmSync(work, { recursive: true, force: true }));

for (const name of ['node', 'python', 'go']) {
  for (const [label, Transport] of [['this package\'s transport', StdioClientTransport], ['the SDK\'s own transport', SdkTransport]]) {
    test(`the SDK client completes a session with the ${name} echo server, over ${label}`, async () => {
      const server = servers[name];
      const records = [];
      const params = { command: server.command, args: server.args, env: server.env, stderr: 'pipe' };
      const transport = new Transport(Transport === SdkTransport ? params : { ...params, log: (r) => records.push(r) });
      let stderr = '';
      transport.stderr.on('data', (chunk) => {
        stderr += chunk;
      });
      const client = new Client({ name: 'echo-test', version: '0' });
      const errors = [];
      client.onerror = (error) => errors.push(error);
      try {
        await client.connect(transport, { timeout: 20_000 });
        assert.equal(client.getServerVersion()?.name, 'jsonrpc-envelope-echo');
        const { tools } = await client.listTools();
        assert.deepEqual(tools.map((t) => t.name), ['echo']);
        assert.equal(tools[0].inputSchema.type, 'object');
        const result = await client.callTool({ name: 'echo', arguments: { text: TEXT } });
        assert.deepEqual(result.content, [{ type: 'text', text: TEXT }]);
        assert.equal(result.isError, false);
        assert.deepEqual(await client.ping(), {});
        await assert.rejects(client.callTool({ name: 'nope', arguments: {} }), (error) => error.code === -32602);
      } catch (error) {
        error.message += `\n${name} server's stderr:\n${stderr}`;
        throw error;
      } finally {
        await client.close();
      }
      assert.deepEqual(errors, []);
      assert.deepEqual(records, [], 'the server wrote nothing but JSON-RPC to its stdout');
    });
  }
}

// A session of raw lines (as the Python binding's test of its echo server
// sends): requests, and broken lines from the vectors.
const BROKEN = [
  vector('unterminated object'),
  vector('JSON-RPC\'s invalid batch example'),
  vector('number'),
  vector('object id is an invalid request'),
  vector('null method'),
  vector('invalid UTF-8 in a string'),
  vector('string'),
];
const LINES = [
  '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}',
  '{"jsonrpc":"2.0","method":"notifications/initialized"}',
  '{"jsonrpc":"2.0","id":"p","method":"ping"}',
  '{"jsonrpc":"2.0","id":3,"method":"tools/list"}',
  JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'echo', arguments: { text: TEXT } } }),
  '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"nope","arguments":{}}}',
  '{"jsonrpc":"2.0","id":6,"method":"resources/list"}',
  '{"jsonrpc":"2.0","id":null,"method":"ping"}',
  '{"jsonrpc":"2.0","id":12345678901234567890123,"method":"ping"}',
  '{"jsonrpc":"2.0","id":1.50,"method":"ping"}',
  ...BROKEN.map((v) => v.bytes),
  '',
  '{"jsonrpc":"2.0","id":99,"result":{}}', // a response: never answered
  '{"level":"info","msg":"a log line"}', // not JSON-RPC: ignored
  '{"jsonrpc":"2.0","id":9,"method":"ping"}\r', // CRLF
  `{"jsonrpc":"2.0","id":10,"method":"tools/call","params":${'['.repeat(100_000)}${']'.repeat(100_000)}}`,
  '{"jsonrpc":"2.0","id":11,"method":"ping"}', // the last line, without LF
];
const INPUT = Buffer.concat(LINES.flatMap((line, i) => [Buffer.from(line), Buffer.from(i < LINES.length - 1 ? '\n' : '')]));

for (const name of ['node', 'python', 'go']) {
  test(`the ${name} echo server answers raw lines as the library says`, async () => {
    const server = servers[name];
    const result = await run(server.command, server.args, { input: INPUT, env: { ...process.env, ...server.env } });
    assert.equal(result.status, 0, result.stderr);
    const out = result.stdout.toString('utf8');
    assert.ok(out.endsWith('\n'), 'every reply ends with LF');
    const replies = out.split('\n').slice(0, -1);
    // Ids echoed exactly, one reply per request and per broken line, in order.
    assert.deepEqual(
      replies.map((reply) => reply.match(/^\{"jsonrpc":"2\.0","id":(.*?),"(result|error)":/)?.[1]),
      ['1', '"p"', '3', '4', '5', '6', 'null', '12345678901234567890123', '1.50', 'null', 'null', 'null', 'null', '3', 'null', 'null', '9', '10', '11'],
    );
    // The broken lines get exactly the vectors' replies.
    assert.deepEqual(replies.slice(9, 16), BROKEN.map((v) => v.reply_server));
    const parsed = replies.map((reply) => JSON.parse(reply));
    assert.equal(parsed[0].result.protocolVersion, '2025-11-25');
    assert.ok('tools' in parsed[0].result.capabilities);
    assert.deepEqual(parsed[1].result, {});
    assert.deepEqual(parsed[2].result.tools.map((t) => t.name), ['echo']);
    assert.deepEqual(parsed[3].result, { content: [{ type: 'text', text: TEXT }], isError: false });
    assert.equal(parsed[4].error.code, -32602);
    assert.deepEqual(parsed[5].error, { code: -32601, message: 'Method not found' });
    for (const i of [6, 7, 8, 16, 18]) assert.deepEqual(parsed[i].result, {});
    assert.equal(parsed[17].error.code, -32602); // params 100,000 levels deep, and not an object
  });
}

test('the node echo server answers each request as it arrives, with stdin still open', async () => {
  const server = spawn(process.execPath, servers.node.args, { stdio: ['pipe', 'pipe', 'pipe'] });
  try {
    const lines = [];
    let pending = '';
    let wake = null;
    server.stdout.on('data', (chunk) => {
      pending += chunk;
      const parts = pending.split('\n');
      pending = parts.pop();
      lines.push(...parts);
      wake?.();
    });
    for (let i = 0; i < 3; i++) {
      server.stdin.write(`{"jsonrpc":"2.0","id":${i},"method":"ping"}\n`);
      const deadline = Date.now() + 20_000;
      while (lines.length <= i && Date.now() < deadline) await new Promise((resolve) => { wake = resolve; setTimeout(resolve, 100); });
      assert.equal(lines[i], `{"jsonrpc":"2.0","id":${i},"result":{}}`);
    }
  } finally {
    server.stdin.end();
    await new Promise((resolve) => server.on('close', resolve));
  }
  assert.equal(server.exitCode, 0);
});

test('the node echo server drops a line too long to read, as its session says', async () => {
  const big = `{"jsonrpc":"2.0","id":1,"method":"ping","params":"${'x'.repeat(17 * 1024 * 1024)}"}`;
  const result = await run(process.execPath, servers.node.args, { input: `${big}\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n` });
  assert.equal(result.status, 0);
  assert.equal(result.stdout.toString(), '{"jsonrpc":"2.0","id":2,"result":{}}\n');
  // The library's word for what was done with it.
  assert.match(result.stderr, /echo_server: dropped a line: [^\n]* kind=too_long length=\d+\n/);
  assert.ok(result.stderr.split('\n').filter(Boolean).every((line) => line.startsWith('echo_server: ')));
});
