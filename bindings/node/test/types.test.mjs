// The types (index.d.ts, sdk/*.d.ts) checked by tsc --noEmit against
// programs that use them, ESM and CommonJS, where lines marked
// @ts-expect-error must fail to type.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { PACKAGE, run } from './helpers.mjs';

test('tsc --noEmit accepts the uses and rejects the misuses', async () => {
  const tsc = path.join(PACKAGE, 'node_modules', 'typescript', 'bin', 'tsc');
  const result = await run(process.execPath, [tsc, '--noEmit', '-p', path.join(PACKAGE, 'test', 'types', 'tsconfig.json')], {
    cwd: PACKAGE,
    timeout: 120_000,
  });
  assert.equal(result.status, 0, `tsc:\n${result.stdout}${result.stderr}`);
});
