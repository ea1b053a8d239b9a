// npm run build: node-gyp rebuild against the headers of the node that runs
// this script (a Node install keeps them in <prefix>/include/node), so that
// nothing is downloaded. NODE_GYP_NODEDIR names another header folder (one
// with include/node/node_api.h and common.gypi).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const nodedir = process.env.NODE_GYP_NODEDIR || path.resolve(path.dirname(process.execPath), '..');
const headers = path.join(nodedir, 'include', 'node');
for (const file of ['node_api.h', 'common.gypi']) {
  if (!existsSync(path.join(headers, file))) {
    console.error(`build: no ${file} in ${headers}; set NODE_GYP_NODEDIR to a folder whose include/node has the Node headers`);
    process.exit(1);
  }
}
const args = ['rebuild', `--nodedir=${nodedir}`, ...process.argv.slice(2)];
const run = spawnSync('node-gyp', args, { stdio: 'inherit' });
if (run.error) {
  console.error(`build: cannot run node-gyp (${run.error.message}); run this through npm (npm run build), which provides it`);
  process.exit(1);
}
process.exit(run.status ?? 1);
