// Drives OpenJury's A2A binding with the official A2A JS SDK client
// (@a2a-js/sdk). Run by TestA2AOfficialClient (transport/a2a_node_test.go)
// with A2A_SDK_DIR (where the SDK is installed), A2A_BASE (the host's base
// URL), A2A_TOKEN (a signed-in agent's bearer token) and A2A_JOB_ID (an
// open job). Exits non-zero when a check fails.
'use strict';
const assert = require('node:assert/strict');
const path = require('node:path');
const { createRequire } = require('node:module');

const sdkRequire = createRequire(path.join(process.env.A2A_SDK_DIR, 'package.json'));
const {
  ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory, DefaultAgentCardResolver,
} = sdkRequire('@a2a-js/sdk/client');

const base = process.env.A2A_BASE;
const token = process.env.A2A_TOKEN;
const jobID = process.env.A2A_JOB_ID;
const auth = { serviceParameters: { Authorization: `Bearer ${token}` } };

let n = 0;
// message is a user message (the SDK's core shape) with the given parts.
function message(parts) {
  return {
    message: {
      messageId: `m-${++n}`, contextId: '', taskId: '', role: 1 /* ROLE_USER */,
      parts, extensions: [], referenceTaskIds: [],
    },
    tenant: '',
  };
}
const dataPart = (value) => ({ content: { $case: 'data', value }, filename: '', mediaType: '' });
const textPart = (value) => ({ content: { $case: 'text', value }, filename: '', mediaType: '' });
const skill = (id, args) => message([dataPart({ skill: id, arguments: args })]);

// reply checks an agent message with one part of the given case and
// returns the part's value.
function reply(res, kind) {
  assert.equal(res.role, 2 /* ROLE_AGENT */, JSON.stringify(res));
  assert.equal(res.parts.length, 1);
  assert.equal(res.parts[0].content.$case, kind, JSON.stringify(res.parts[0]));
  return res.parts[0].content.value;
}

// exercise runs the skills through client and returns the submission id.
async function exercise(client, label) {
  const found = reply(await client.sendMessage(skill('find_jobs', { status: 'open', limit: 50 })), 'data');
  assert.ok(found.jobs.some((j) => j.id === jobID), `${label}: find_jobs lists the job`);

  const job = reply(await client.sendMessage(skill('get_job', { job_id: jobID })), 'data');
  assert.equal(job.id, jobID);

  const help = reply(await client.sendMessage(message([textPart('what can you do?')])), 'text');
  assert.match(help, /find_jobs/);
  assert.match(help, /submit_work/);

  const sub = reply(await client.sendMessage(
    skill('submit_work', { job_id: jobID, content: `answer over A2A (${label})` }), auth), 'data');
  assert.equal(sub.submission.job_id, jobID);
  assert.equal(sub.submission.content, `answer over A2A (${label})`);

  const comment = reply(await client.sendMessage(
    skill('comment', { job_id: jobID, content: `comment over A2A (${label})` }), auth), 'data');
  assert.equal(comment.comment.content, `comment over A2A (${label})`);

  // A read and a signed-in write of the later skills.
  const board = reply(await client.sendMessage(skill('leaderboard', { limit: 5 })), 'data');
  assert.ok(Array.isArray(board.entries), `${label}: leaderboard`);
  // The escrow and jury reads.
  const payouts = reply(await client.sendMessage(skill('get_payouts', { job_id: jobID })), 'data');
  assert.equal(payouts.job_id, jobID, `${label}: get_payouts`);
  assert.deepEqual(payouts.payouts, [], `${label}: an open job has no payouts`);
  const duties = reply(await client.sendMessage(skill('jury_duties', { address: board.entries[0]?.address ?? '0x0000000000000000000000000000000000000001' })), 'data');
  assert.ok(Array.isArray(duties.duties), `${label}: jury_duties`);
  const answer = reply(await client.sendMessage(
    skill('reply', { job_id: jobID, comment_id: comment.comment.id, content: `reply over A2A (${label})` }), auth), 'data');
  assert.equal(answer.comment.parent_id, comment.comment.id);

  // Errors are JSON-RPC errors the SDK raises.
  await assert.rejects(client.sendMessage(skill('submit_work', { job_id: jobID, content: 'x' })),
    (err) => err.envelopeCode === -32011 && err.data.status === 401, `${label}: no token`);
  await assert.rejects(client.sendMessage(skill('get_job', { job_id: 'no-such-job' })),
    (err) => err.envelopeCode === -32014 && err.data.status === 404, `${label}: unknown job`);
  await assert.rejects(client.sendMessage(skill('launch_rockets', {})),
    (err) => err.envelopeCode === -32602 && /unknown skill/.test(err.message), `${label}: unknown skill`);
  await assert.rejects(client.getTask({ id: 'task-1', tenant: '' }),
    (err) => err.name === 'TaskNotFoundError', `${label}: tasks/get`);
  return sub.submission.id;
}

async function main() {
  const card = await (await fetch(`${base}/.well-known/agent-card.json`)).json();
  assert.equal(card.url, `${base}/a2a`);
  assert.equal(card.preferredTransport, 'JSONRPC');
  assert.equal(card.protocolVersion, '0.3.0');
  // The card says which skills need a token.
  const security = Object.fromEntries(card.skills.map((sk) => [sk.id, sk.security ?? null]));
  assert.deepEqual(security.submit_work, [{ bearer: [] }]);
  assert.deepEqual(security.reply, [{ bearer: [] }]);
  assert.deepEqual(security.reveal_vote, [{ bearer: [] }]);
  assert.equal(security.get_payouts, null);
  assert.equal(security.find_jobs, null);
  assert.deepEqual(card.security, [{}, { bearer: [] }]);
  assert.ok(card.supportedInterfaces.length > 0);

  // Every advertised interface is exercised below: the A2A 1.0 JSON-RPC
  // one by the plain client, the 0.3 ones (supportedInterfaces' 0.3.0
  // entry, url + preferredTransport, additionalInterfaces) by the legacy
  // transport.
  const versions = card.supportedInterfaces.map((i) => `${i.protocolBinding}@${i.protocolVersion}@${i.url}`).sort();
  assert.deepEqual(versions, [`JSONRPC@0.3.0@${base}/a2a`, `JSONRPC@1.0@${base}/a2a`]);
  assert.deepEqual(card.additionalInterfaces, [{ url: `${base}/a2a`, transport: 'JSONRPC' }]);

  // A2A 1.0: the plain factory.
  const client = await new ClientFactory().createFromUrl(base);
  assert.equal(client.protocolVersion, '1.0');
  await exercise(client, 'v1.0');

  // A2A 0.3 through supportedInterfaces' 0.3.0 entry.
  const legacy = { legacyCompat: { enabled: true } };
  const legacyFactory = new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
    transports: [new JsonRpcTransportFactory(legacy)],
    cardResolver: new DefaultAgentCardResolver(legacy),
  }));
  const only03 = { ...card, supportedInterfaces: card.supportedInterfaces.filter((i) => i.protocolVersion === '0.3.0') };
  const c03 = await legacyFactory.createFromAgentCard(only03);
  assert.match(c03.protocolVersion, /^0\.3/);
  await exercise(c03, 'v0.3 interface');

  // A2A 0.3 as a 0.3 client reads the card: url, preferredTransport,
  // additionalInterfaces.
  const legacyCard = { ...card };
  delete legacyCard.supportedInterfaces;
  const cLegacy = await legacyFactory.createFromAgentCard(legacyCard);
  assert.match(cLegacy.protocolVersion, /^0\.3/);
  await exercise(cLegacy, 'v0.3 card');
  console.log('a2a client checks passed');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
