// The official TypeScript SDK's Client on this project's
// StdioClientTransport (jsonrpc-envelope/mcpstdio/client), for one session
// against a server command: initialize, list the tools, call echo once for
// each TEXT. Prints one JSON line, {"tools": [...], "echo": [[texts of call
// 1], ...], "transport_errors": N, "error_records": N}, and exits 0; or says
// what failed on stderr and exits 1. transport_errors counts the SDK's
// onerror calls; error_records the transport's log records at level error
// (a line the SDK's own decoder refused, SPEC 10.4).
//
//   node node_client.mjs [--timeout SECONDS] --text TEXT [--text TEXT ...] -- COMMAND [ARGS...]
//
// The SDK and the package are the Node binding's (bindings/node, its
// node_modules), loaded as a file inside that package would load them.

import { createRequire } from 'node:module';
import process from 'node:process';

const inPackage = createRequire(new URL('../../../bindings/node/package.json', import.meta.url));
const { Client } = inPackage('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = inPackage('jsonrpc-envelope/mcpstdio/client');

const args = process.argv.slice(2);
let timeout = 20;
const texts = [];
while (args.length > 0 && args[0] !== '--') {
  const [flag, value] = args.splice(0, 2);
  if (flag === '--timeout') timeout = Number(value);
  else if (flag === '--text') texts.push(value);
  else {
    console.error(`node_client: unknown option ${flag}`);
    process.exit(2);
  }
}
args.shift();
if (args.length === 0) {
  console.error('node_client: no server command');
  process.exit(2);
}

let errorRecords = 0;
const transport = new StdioClientTransport({
  command: args[0],
  args: args.slice(1),
  env: process.env,
  stderr: 'inherit',
  log: (record) => {
    if (record.level === 'error') {
      errorRecords += 1;
      console.error(`node_client: ${record.message}`);
    }
  },
});
const client = new Client({ name: 'sessions-node-client', version: '1.0.0' });
let transportErrors = 0;
client.onerror = (error) => {
  transportErrors += 1;
  console.error(`node_client: transport error: ${error}`);
};
const options = { timeout: timeout * 1000 };
const timer = setTimeout(() => {
  console.error(`node_client: session failed: no answer within ${timeout} s`);
  process.exit(1);
}, (timeout + 10) * 1000);

try {
  await client.connect(transport, options);
  const tools = await client.listTools(undefined, options);
  const echo = [];
  for (const text of texts) {
    const result = await client.callTool({ name: 'echo', arguments: { text } }, undefined, options);
    echo.push(result.content.filter((c) => c.type === 'text').map((c) => c.text));
  }
  console.log(JSON.stringify({ tools: tools.tools.map((t) => t.name), echo, transport_errors: transportErrors, error_records: errorRecords }));
  await client.close();
  clearTimeout(timer);
} catch (error) {
  console.error(`node_client: session failed: ${error?.stack ?? error}`);
  process.exit(1);
}
