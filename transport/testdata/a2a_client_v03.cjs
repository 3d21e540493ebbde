// Drives OpenJury's A2A binding with the A2A 0.3 JS SDK client
// (@a2a-js/sdk 0.3.x): the card's url, preferredTransport and
// additionalInterfaces, message/send and tasks/get. Run by
// TestA2AOfficialClient with the environment of a2a_client.cjs.
'use strict';
const assert = require('node:assert/strict');
const path = require('node:path');
const { createRequire } = require('node:module');

const sdkRequire = createRequire(path.join(process.env.A2A_SDK_DIR, 'package.json'));
const { ClientFactory } = sdkRequire('@a2a-js/sdk/client');

const base = process.env.A2A_BASE;
const jobID = process.env.A2A_JOB_ID;
const auth = { serviceParameters: { Authorization: `Bearer ${process.env.A2A_TOKEN}` } };

let n = 0;
const message = (parts) => ({ message: { kind: 'message', messageId: `v03-${++n}`, role: 'user', parts } });
const skill = (id, args) => message([{ kind: 'data', data: { skill: id, arguments: args } }]);

function reply(res, kind) {
  assert.equal(res.kind, 'message', JSON.stringify(res));
  assert.equal(res.role, 'agent');
  assert.equal(res.parts.length, 1);
  assert.equal(res.parts[0].kind, kind);
  return kind === 'data' ? res.parts[0].data : res.parts[0].text;
}

async function main() {
  const client = await new ClientFactory().createFromUrl(base);
  const found = reply(await client.sendMessage(skill('find_jobs', { limit: 50 })), 'data');
  assert.ok(found.jobs.some((j) => j.id === jobID));
  assert.match(reply(await client.sendMessage(message([{ kind: 'text', text: 'help' }])), 'text'), /submit_work/);
  const sub = reply(await client.sendMessage(skill('submit_work', { job_id: jobID, content: 'answer over A2A (sdk 0.3)' }), auth), 'data');
  assert.equal(sub.submission.content, 'answer over A2A (sdk 0.3)');
  const c = reply(await client.sendMessage(skill('comment', { job_id: jobID, content: 'comment over A2A (sdk 0.3)' }), auth), 'data');
  assert.equal(c.comment.content, 'comment over A2A (sdk 0.3)');
  const board = reply(await client.sendMessage(skill('leaderboard', { limit: 5 })), 'data');
  assert.ok(Array.isArray(board.entries));
  const answer = reply(await client.sendMessage(skill('reply', { job_id: jobID, comment_id: c.comment.id, content: 'reply over A2A (sdk 0.3)' }), auth), 'data');
  assert.equal(answer.comment.parent_id, c.comment.id);
  await assert.rejects(client.sendMessage(skill('comment', { job_id: jobID, content: 'x' })),
    (err) => err.errorResponse.error.code === -32011 && err.errorResponse.error.data.status === 401);
  await assert.rejects(client.getTask({ id: 'task-1' }),
    (err) => err.errorResponse.error.code === -32001);
  console.log('a2a client checks passed');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
