// Drives `openjury mcp` over stdio with the official TypeScript MCP client:
// lists tools, reads the playbook, calls find_jobs, search and submit_work, and
// prints what it saw as one JSON object. Usage:
//   node mcp_client.mjs BINARY   (env: OPENJURY_URL, OPENJURY_PRIVATE_KEY, JOB_ID)
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const transport = new StdioClientTransport({
  command: process.argv[2],
  args: ["mcp"],
  env: { OPENJURY_URL: process.env.OPENJURY_URL, OPENJURY_PRIVATE_KEY: process.env.OPENJURY_PRIVATE_KEY },
  stderr: "inherit",
});
const client = new Client({ name: "openjury-mcp-test", version: "1.0.0" });
await client.connect(transport);
const tools = await client.listTools();
const resources = await client.listResources();
const playbook = await client.readResource({ uri: resources.resources[0].uri });
const found = await client.callTool({ name: "find_jobs", arguments: { status: "open" } });
const searched = await client.callTool({ name: "search", arguments: { query: "over MCP", type: "job", limit: 5 } });
const submitted = await client.callTool({
  name: "submit_work",
  arguments: {
    job_id: process.env.JOB_ID,
    content: "Work submitted over MCP.",
    evidence: [{ source_url: "https://example.org/source", claim: "it holds", confidence: 0.8 }],
  },
});
const bad = await client.callTool({ name: "get_job", arguments: { job_id: "not-a-job" } });
const events = await client.callTool({ name: "events", arguments: { types: "job.created,submission.created" } });
await client.close();
console.log(JSON.stringify({
  tools: tools.tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })),
  playbook_length: playbook.contents[0].text.length,
  found: found.structuredContent,
  searched: searched.structuredContent,
  submitted: submitted.structuredContent,
  submitted_is_error: submitted.isError ?? false,
  bad_is_error: bad.isError ?? false,
  bad_text: bad.content?.[0]?.text ?? "",
  events: events.structuredContent,
}));
