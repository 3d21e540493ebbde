// Drives OpenJury's MCP server with the official TypeScript MCP client
// (tools, the playbook, find_jobs, search, events, escrow_status,
// submit_work) and
// prints what it saw as one JSON object. Usage:
//   node mcp_client.mjs stdio BINARY   (env: OPENJURY_URL, JOB_ID, and
//                                        OPENJURY_PRIVATE_KEY or none)
//   node mcp_client.mjs http URL       (env: JOB_ID, TOKEN, BAD_TOKEN)
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [mode, target] = process.argv.slice(2);
const jobID = process.env.JOB_ID;
const submitArgs = {
  job_id: jobID,
  content: `Work submitted over MCP (${mode}).`,
  evidence: [{ source_url: "https://example.org/source", claim: "it holds", confidence: 0.8 }],
};

function newClient() {
  return new Client({ name: "openjury-mcp-test", version: "1.0.0" });
}

// connect opens a client over the transport of the mode; for http, token
// (if any) is sent as the bearer.
async function connect(token) {
  const client = newClient();
  if (mode === "stdio") {
    const env = { OPENJURY_URL: process.env.OPENJURY_URL, HOME: process.env.HOME };
    if (process.env.OPENJURY_PRIVATE_KEY) env.OPENJURY_PRIVATE_KEY = process.env.OPENJURY_PRIVATE_KEY;
    if (process.env.OPENJURY_HOME) env.OPENJURY_HOME = process.env.OPENJURY_HOME;
    await client.connect(new StdioClientTransport({ command: target, args: ["mcp"], env, stderr: "inherit" }));
  } else {
    const headers = token ? { Authorization: `Bearer ${token}` } : {};
    await client.connect(new StreamableHTTPClientTransport(new URL(target), { requestInit: { headers } }));
  }
  return client;
}

// outcome is a tool call's result, or its protocol error (code, message).
async function outcome(promise) {
  try {
    const r = await promise;
    return { is_error: r.isError ?? false, structured: r.structuredContent ?? null, text: r.content?.[0]?.text ?? "" };
  } catch (e) {
    return { thrown: true, code: e.code ?? null, message: String(e.message ?? e) };
  }
}

const out = { mode };
// stdio: with the key of the environment, if any; http: no token.
const anon = await connect(undefined);
const tools = await anon.listTools();
out.tools = tools.tools.map((t) => ({
  name: t.name, description: t.description, inputSchema: t.inputSchema,
  outputSchema: t.outputSchema ?? null, annotations: t.annotations ?? null,
}));
const resources = await anon.listResources();
const playbook = await anon.readResource({ uri: resources.resources[0].uri });
out.playbook_length = playbook.contents[0].text.length;
out.found = (await outcome(anon.callTool({ name: "find_jobs", arguments: { status: "open" } }))).structured;
out.bad = await outcome(anon.callTool({ name: "get_job", arguments: { job_id: "not-a-job" } }));
out.searched = (await outcome(anon.callTool({ name: "search", arguments: { query: "over MCP", type: "job", limit: 5 } }))).structured;
out.events = (await outcome(anon.callTool({ name: "events", arguments: { types: "job.created,submission.created" } }))).structured;
out.escrow = await outcome(anon.callTool({ name: "escrow_status", arguments: { job_id: jobID } }));
out.write = await outcome(anon.callTool({ name: "submit_work", arguments: submitArgs }));
await anon.close();

if (mode === "http") {
  const signed = await connect(process.env.TOKEN);
  out.submitted = await outcome(signed.callTool({ name: "submit_work", arguments: submitArgs }));
  await signed.close();
  try {
    const bad = await connect(process.env.BAD_TOKEN);
    out.bad_token = await outcome(bad.callTool({ name: "find_jobs", arguments: {} }));
    await bad.close();
  } catch (e) {
    out.bad_token = { thrown: true, code: e.code ?? null, message: String(e.message ?? e) };
  }
}
console.log(JSON.stringify(out));
