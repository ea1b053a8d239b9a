// `npm pack` makes a package that installs into an empty folder, with no
// network and nothing to build, and works there from CommonJS and ESM.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { PACKAGE, run } from './helpers.mjs';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

test('npm pack, then npm install into an empty folder: it works there', async () => {
  const work = mkdtempSync(path.join(os.tmpdir(), 'jsonrpc-envelope-pack-'));
  try {
    const packed = await run(npm, ['pack', '--json', '--pack-destination', work], { cwd: PACKAGE, timeout: 120_000 });
    assert.equal(packed.status, 0, packed.stderr);
    const [{ filename, files }] = JSON.parse(packed.stdout.toString());
    const paths = files.map((f) => f.path).sort();
    assert.ok(paths.includes('build/Release/jsonrpc_envelope.node'), 'the addon, with the library linked in');
    for (const required of ['package.json', 'README.md', 'index.d.ts', 'lib/index.cjs', 'mcpstdio/server.d.ts', 'mcpstdio/client.d.ts', 'mcpstdio/records.d.ts']) {
      assert.ok(paths.includes(required), required);
    }
    assert.deepEqual(paths.filter((p) => /^(src|test|scripts|node_modules)\/|\.gyp$|obj\.target/.test(p)), [], 'no sources, tests or build leftovers');

    const app = path.join(work, 'app');
    await run('mkdir', [app]);
    writeFileSync(path.join(app, 'package.json'), '{"name":"app","version":"1.0.0","private":true}\n');
    const installed = await run(npm, ['install', '--offline', '--no-audit', '--no-fund', path.join(work, filename)], { cwd: app, timeout: 120_000 });
    assert.equal(installed.status, 0, installed.stderr);

    const cjs = await run(process.execPath, ['-e', `
      const je = require('jsonrpc-envelope');
      const c = je.classify('{"jsonrpc":"2.0","id":{},"method":"x"}');
      console.log(JSON.stringify([c.kind, c.replyServer, je.invalidReply('[]', je.Role.SERVER), je.logValue('a\\nb'), require.resolve('jsonrpc-envelope')]));
    `], { cwd: app });
    assert.equal(cjs.status, 0, cjs.stderr);
    const [kind, reply, batch, log, resolved] = JSON.parse(cjs.stdout.toString());
    assert.equal(kind, 'invalid_request');
    assert.equal(reply, '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: the id must be a string, a number or null, not an object"}}');
    assert.equal(batch, '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: this server doesn\'t accept batches"}}');
    assert.equal(log, 'a\\u000ab');
    assert.ok(resolved.startsWith(path.join(app, 'node_modules', 'jsonrpc-envelope')), resolved);

    writeFileSync(path.join(app, 'main.mjs'), `
      import { readMessages, Kind } from 'jsonrpc-envelope';
      import { Readable } from 'node:stream';
      const kinds = [];
      for await (const m of readMessages(Readable.from([Buffer.from('{"jsonrpc":"2.0","id":1,"method":"a"}\\n[1]\\nnot json')]))) kinds.push(m.kind);
      console.log(JSON.stringify(kinds), Kind.REQUEST);
    `);
    const esm = await run(process.execPath, ['main.mjs'], { cwd: app });
    assert.equal(esm.status, 0, esm.stderr);
    assert.equal(esm.stdout.toString(), '["request","batch","parse_error"] request\n');

    // The SDK transports name the SDK, an optional peer dependency, when it
    // is not installed.
    const sdk = await run(process.execPath, ['-e', "require('jsonrpc-envelope/mcpstdio/server')"], { cwd: app });
    assert.notEqual(sdk.status, 0);
    assert.match(sdk.stderr, /@modelcontextprotocol\/sdk/);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
