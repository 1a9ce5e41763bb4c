// The official TypeScript MCP client against `toolshape serve` over stdio, as a desktop client
// starts it. Usage: node stdio-client.mjs COMMAND [ARGS...]  (standard input: {"calls": [...]})
// Lists every tool (following every page) and makes each call; prints, as JSON, each page's
// tool count and size (its JSON text, as the client received it) and, per call, the result
// or the error the client raised (it validates structuredContent and refuses an error result
// whose structuredContent breaks the tool's outputSchema).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const { calls } = JSON.parse(Buffer.concat(chunks).toString("utf8"));

const [command, ...args] = process.argv.slice(2);
const client = new Client({ name: "toolshape-tests", version: "1.0.0" });
await client.connect(new StdioClientTransport({ command, args, stderr: "ignore" }));
const pages = [];
let cursor;
do {
  const page = await client.listTools(cursor ? { cursor } : {});
  pages.push({ tools: page.tools.length, bytes: Buffer.byteLength(JSON.stringify(page)) });
  cursor = page.nextCursor;
} while (cursor);
const results = [];
for (const [name, args] of calls) {
  try {
    results.push({ result: await client.callTool({ name, arguments: args }) });
  } catch (error) {
    results.push({ error: String(error) });
  }
}
await client.close();
process.stdout.write(JSON.stringify({ pages, results }));
