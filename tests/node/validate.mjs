// Reads [[schema, instance], ...] as JSON on standard input and prints, as JSON, whether the
// official TypeScript MCP SDK's default validator (Ajv with ajv-formats, the one its Client
// judges structuredContent with) accepts each instance: true, false, or the error a schema
// raised while compiling (as a string).
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const cases = JSON.parse(Buffer.concat(chunks).toString("utf8"));
const validator = new AjvJsonSchemaValidator();
const verdicts = cases.map(([schema, instance]) => {
  try {
    return validator.getValidator(schema)(instance).valid;
  } catch (error) {
    return String(error);
  }
});
process.stdout.write(JSON.stringify(verdicts));
