// The types (index.d.ts, mcpstdio/*.d.ts) checked by tsc --noEmit: programs that
// use them, ESM and CommonJS, where lines marked @ts-expect-error must fail
// to type; and the declarations themselves.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { PACKAGE, run } from './helpers.mjs';

async function tsc(project) {
  const compiler = path.join(PACKAGE, 'node_modules', 'typescript', 'bin', 'tsc');
  const result = await run(process.execPath, [compiler, '--noEmit', '-p', path.join(PACKAGE, 'test', 'types', project)], {
    cwd: PACKAGE,
    timeout: 300_000,
  });
  assert.equal(result.status, 0, `tsc -p ${project}:\n${result.stdout}${result.stderr}`);
}

// The programs, with the declaration files taken as given (checking the
// SDK's and zod's own declarations would take most of a minute).
test('tsc --noEmit accepts the uses and rejects the misuses', async () => {
  await tsc('tsconfig.json');
});

// This package's own declarations, checked themselves.
test('tsc --noEmit checks the declarations', async () => {
  await tsc('tsconfig.declarations.json');
});
