// The official TypeScript MCP client against `toolshape serve` over stdio, as a desktop client
// starts it. Usage: node stdio-client.mjs COMMAND [ARGS...]  (standard input: {"calls": [...]})
// Lists every tool (following every page) and makes each call; prints, as JSON, each page's
// tool count and size (its JSON text, as the client received it) and, per call, the result
// or the error the client raised (it validates structuredContent and refuses an error result
// whose structuredContent breaks the tool's outputSchema).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { callAll, listPages, readCalls } from "./session.mjs";

const calls = await readCalls();
const [command, ...args] = process.argv.slice(2);
const client = new Client({ name: "toolshape-tests", version: "1.0.0" });
await client.connect(new StdioClientTransport({ command, args, stderr: "ignore" }));
const pages = (await listPages(client)).map((page) => ({
  tools: page.tools.length,
  bytes: Buffer.byteLength(JSON.stringify(page)),
}));
const results = await callAll(client, calls);
await client.close();
process.stdout.write(JSON.stringify({ pages, results }));
