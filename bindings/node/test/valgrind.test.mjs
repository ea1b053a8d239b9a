// The addon under valgrind's memcheck: every path once (fixtures/every-path.cjs),
// no invalid read or write, no use of uninitialised memory.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { FIXTURES, run } from './helpers.mjs';

test('every path of the addon under valgrind: no memory error', async () => {
  const result = await run('valgrind', ['--error-exitcode=9', '--quiet', process.execPath, path.join(FIXTURES, 'every-path.cjs')], {
    timeout: 300_000,
  });
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stdout.toString(), /^every path taken \(\d+\)\n$/);
});
