// The official TypeScript MCP SDK's stdio client, driving one session
// against a server command: initialize, list the tools, call `echo`. Prints
// one JSON line with what it got and exits 0, or says what failed on stderr
// and exits 1. The report counts the errors the SDK's transport reported
// (lines from the server it could not read), which it otherwise survives.
//
//   node client.mjs [--timeout SECONDS] -- COMMAND [ARGS...]

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const args = process.argv.slice(2);
let timeout = 20;
if (args[0] === "--timeout") {
  timeout = Number(args[1]);
  args.splice(0, 2);
}
if (args[0] === "--") args.shift();
if (args.length === 0) {
  console.error("client.mjs: no server command");
  process.exit(2);
}

const transport = new StdioClientTransport({ command: args[0], args: args.slice(1), stderr: "inherit" });
const client = new Client({ name: "sdk-node-client", version: "1.0.0" });
let transportErrors = 0;
client.onerror = (error) => {
  transportErrors += 1;
  console.error(`client.mjs: transport error: ${error}`);
};
const options = { timeout: timeout * 1000 };
const timer = setTimeout(() => {
  console.error(`client.mjs: session failed: no answer within ${timeout} s`);
  process.exit(1);
}, timeout * 1000);

try {
  await client.connect(transport, options);
  const tools = await client.listTools(undefined, options);
  const result = await client.callTool({ name: "echo", arguments: { text: "hello through stdio" } }, undefined, options);
  const texts = result.content.filter((c) => c.type === "text").map((c) => c.text);
  console.log(JSON.stringify({ sdk: "node", tools: tools.tools.map((t) => t.name), echo: texts, is_error: Boolean(result.isError), transport_errors: transportErrors }));
  await client.close();
  clearTimeout(timer);
} catch (error) {
  console.error(`client.mjs: session failed: ${error}`);
  process.exit(1);
}
