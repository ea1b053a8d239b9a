// The official TypeScript MCP SDK's stdio server with one tool, `echo`, as a
// program written on the SDK would be: for tests that put the SDK's own
// transport in front of other peers (peers/README.md).
//
//   node echo_server.mjs [--pollute]
//
// --pollute writes what real servers write to stdout: a banner and a JSON log
// line at start, and console.log() output from the tool (console.log writes
// to stdout, which is the protocol's channel).

import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const pollute = process.argv.includes("--pollute");
const server = new McpServer({ name: "sdk-node-echo", version: "1.0.0" });

server.registerTool(
  "echo",
  { description: "Returns the text it is given.", inputSchema: { text: z.string() } },
  async ({ text }) => {
    if (pollute) console.log(`echo called with ${JSON.stringify(text)}`);
    return { content: [{ type: "text", text }] };
  },
);

if (pollute) {
  console.log("sdk-node-echo 1.0 starting on stdio");
  console.log(JSON.stringify({ level: "info", msg: "tools registered", tools: ["echo"] }));
}
await server.connect(new StdioServerTransport());
