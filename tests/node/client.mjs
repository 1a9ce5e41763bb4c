// The official TypeScript MCP client against a toolshape server over streamable HTTP.
// Usage: node client.mjs URL  (standard input: {"calls": [[name, arguments], ...]})
// Lists every tool (following every page) and makes each call; prints, as JSON, the tool
// names and, per call, the result or the error the client raised — the client validates each
// structuredContent against the tool's outputSchema itself.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const { calls } = JSON.parse(Buffer.concat(chunks).toString("utf8"));

const client = new Client({ name: "toolshape-tests", version: "1.0.0" });
await client.connect(new StreamableHTTPClientTransport(new URL(process.argv[2])));
const names = [];
let cursor;
do {
  const page = await client.listTools(cursor ? { cursor } : {});
  names.push(...page.tools.map((tool) => tool.name));
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
process.stdout.write(JSON.stringify({ names, results }));
