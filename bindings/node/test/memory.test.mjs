// A million calls of each kind with no growth in memory: the process's RSS
// and V8's heap, after collecting garbage, against a warmed-up baseline.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import v8 from 'node:v8';
import vm from 'node:vm';
import { Direction, Profile, Reader, Relay, Role, Session, classify, goes, invalidReply, logValue } from 'jsonrpc-envelope';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');

const MiB = 1024 * 1024;
const CALLS = 1_000_000;

const lines = [
  Buffer.from('{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}'),
  Buffer.from('{"jsonrpc":"2.0","id":{"a":1},"method":[1]}'),
  Buffer.from('[1,2,3]'),
  Buffer.from('not json at all'),
  Buffer.from(`{"jsonrpc":"2.0","id":"${'x'.repeat(1500)}","method":5}`), // strings past the scratch
  Buffer.from('{"jsonrpc":"2.0","id":7,"result":[]}'), // an invalid_response in the MCP profile, with a substitute
  Buffer.from('{"jsonrpc":"2.0","id":null,"error":{"code":1,"message":"m"}}'), // names no request
];
const strings = lines.map((line) => line.toString());
const stream = Buffer.concat(lines.flatMap((line) => [line, Buffer.from('\n')]));

// Collects garbage, and lets the addon's finalizers (which Node runs after
// a collection, not during it) run.
async function settle() {
  for (let i = 0; i < 4; i++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { rss: process.memoryUsage.rss(), heap: process.memoryUsage().heapUsed, external: process.memoryUsage().external };
}

async function measure(name, body) {
  body(CALLS / 10); // warm up: JIT, pools, the addon's buffers
  const before = await settle();
  body(CALLS);
  const after = await settle();
  const grew = {
    rss: (after.rss - before.rss) / MiB,
    heap: (after.heap - before.heap) / MiB,
    external: (after.external - before.external) / MiB,
  };
  // A leak of 8 bytes a call would be 7.6 MiB here.
  assert.ok(grew.rss < 6, `${name}: RSS grew ${grew.rss.toFixed(1)} MiB over ${CALLS} calls`);
  assert.ok(grew.heap < 4, `${name}: the heap grew ${grew.heap.toFixed(1)} MiB`);
  assert.ok(grew.external < 2, `${name}: external memory grew ${grew.external.toFixed(1)} MiB`);
}

test('classify, a million times (bytes and strings)', async () => {
  await measure('classify', (n) => {
    for (let i = 0; i < n; i++) classify(i % 2 ? lines[i % lines.length] : strings[i % lines.length]);
  });
  const mcp = { profile: Profile.MCP };
  await measure('classify (MCP)', (n) => {
    for (let i = 0; i < n; i++) classify(i % 2 ? lines[i % lines.length] : strings[i % lines.length], mcp);
  });
});

test('invalidReply, a million times', async () => {
  await measure('invalidReply', (n) => {
    for (let i = 0; i < n; i++) invalidReply(lines[i % lines.length], i % 2 ? 'server' : 'client', i % 3 ? undefined : { profile: 'mcp' });
  });
});

test('logValue, a million times', async () => {
  await measure('logValue', (n) => {
    for (let i = 0; i < n; i++) logValue(lines[i % lines.length]);
  });
});

test('a reader fed a million lines, and readers made and closed', async () => {
  await measure('Reader.feed', (n) => {
    const reader = new Reader();
    for (let i = 0; i < n; i += lines.length) reader.feed(stream);
    reader.end();
    reader.close();
  });
  await measure('new Reader + close', (n) => {
    for (let i = 0; i < n / 10; i++) new Reader().close();
  });
});

test('a session fed a million lines (every action), told of sent lines, asked of refusals; sessions made and closed', async () => {
  const sent = Buffer.from('{"jsonrpc":"2.0","id":7,"method":"tools/list"}');
  await measure('Session.feed', (n) => {
    for (const role of [Role.SERVER, Role.CLIENT]) {
      const session = new Session(role, { profile: Profile.MCP, maxLine: 1024 });
      for (let i = 0; i < n / 2; i += lines.length) {
        session.sent(sent); // so that the invalid_response is substituted, and the error attributed
        for (const line of session.feed(stream)) if (line.action === 'answered') session.refused(line.line);
      }
      session.end();
      session.close();
    }
  });
  await measure('new Session + close', (n) => {
    for (let i = 0; i < n / 10; i++) new Session(Role.CLIENT, { profile: Profile.MCP }).close();
  });
});

test('a relay fed a million lines (every action, both directions), told of written lines, asked of refusals; relays made and closed', async () => {
  const wrote = Buffer.from('{"jsonrpc":"2.0","id":7,"method":"tools/list"}');
  await measure('Relay.feed', (n) => {
    const relay = new Relay({ profile: Profile.MCP, maxLine: 1024 });
    for (let i = 0; i < n; i += 2 * lines.length) {
      for (const direction of [Direction.TO_SERVER, Direction.TO_HOST]) {
        relay.wrote(direction === Direction.TO_SERVER ? Direction.TO_HOST : Direction.TO_SERVER, wrote);
        for (const line of relay.feed(direction, stream)) {
          if (goes(line.action, direction) !== direction && line.line !== null) relay.refused(direction, line.line);
        }
      }
    }
    relay.end(Direction.TO_SERVER);
    relay.end(Direction.TO_HOST);
    relay.close();
  });
  await measure('new Relay + close', (n) => {
    for (let i = 0; i < n / 10; i++) new Relay({ profile: Profile.MCP }).close();
  });
});
