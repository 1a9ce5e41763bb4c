// What both TypeScript client scripts do once connected: read the calls from standard input,
// list every page of tools, make each call.

/** The `calls` of the JSON on standard input (`{"calls": [[name, arguments], ...]}`). */
export async function readCalls() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return JSON.parse(Buffer.concat(chunks).toString("utf8")).calls;
}

/** Every page of `tools/list`, following each cursor, as the client received it. */
export async function listPages(client) {
  const pages = [];
  let cursor;
  do {
    const page = await client.listTools(cursor ? { cursor } : {});
    pages.push(page);
    cursor = page.nextCursor;
  } while (cursor);
  return pages;
}

/** Per call, the result, or the error the client raised. */
export async function callAll(client, calls) {
  const results = [];
  for (const [name, args] of calls) {
    try {
      results.push({ result: await client.callTool({ name, arguments: args }) });
    } catch (error) {
      results.push({ error: String(error) });
    }
  }
  return results;
}
