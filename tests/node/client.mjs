// The official TypeScript MCP client against a toolshape server over streamable HTTP.
// Usage: node client.mjs URL  (standard input: {"calls": [[name, arguments], ...]})
// Lists every tool (following every page) and makes each call; prints, as JSON, the tool
// names and, per call, the result or the error the client raised — the client validates each
// structuredContent against the tool's outputSchema itself.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { callAll, listPages, readCalls } from "./session.mjs";

const calls = await readCalls();
const client = new Client({ name: "toolshape-tests", version: "1.0.0" });
await client.connect(new StreamableHTTPClientTransport(new URL(process.argv[2])));
const names = (await listPages(client)).flatMap((page) => page.tools.map((tool) => tool.name));
const results = await callAll(client, calls);
await client.close();
process.stdout.write(JSON.stringify({ names, results }));
