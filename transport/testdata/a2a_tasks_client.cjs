// Drives OpenJury's A2A tasks and push notifications with the official A2A
// JS SDK client: A2A_MODE "1.0" (@a2a-js/sdk 1.x, the A2A 1.0 interface)
// or "0.3" (@a2a-js/sdk 0.3.x). Run by TestA2ATasksOfficialClient
// (a2a_tasks_node_test.go) with A2A_SDK_DIR, A2A_BASE, A2A_TOKEN (the
// sponsor's bearer token) and, by phase:
//   A2A_PHASE=create (A2A_PUSH_URL): post_job is answered with a working
//     task; tasks/get reads it; a push notification config is set, read
//     and listed. Prints {"task_id", "job_id", "config_id"}.
//   A2A_PHASE=check (A2A_TASK_ID, A2A_CONFIG_ID): the task is completed;
//     the config is deleted. Prints {"state"}.
'use strict';
const assert = require('node:assert/strict');
const path = require('node:path');
const { createRequire } = require('node:module');

const sdkRequire = createRequire(path.join(process.env.A2A_SDK_DIR, 'package.json'));
const { ClientFactory } = sdkRequire('@a2a-js/sdk/client');

const base = process.env.A2A_BASE;
const v1 = process.env.A2A_MODE === '1.0';
const auth = { serviceParameters: { Authorization: `Bearer ${process.env.A2A_TOKEN}` } };
const WORKING = v1 ? 2 /* TASK_STATE_WORKING */ : 'working';
const COMPLETED = v1 ? 3 /* TASK_STATE_COMPLETED */ : 'completed';

// postJob is a user message running the post_job skill.
function postJob(args) {
  const data = { skill: 'post_job', arguments: args };
  if (v1) {
    return {
      message: {
        messageId: `task-${Date.now()}`, contextId: '', taskId: '', role: 1 /* ROLE_USER */,
        parts: [{ content: { $case: 'data', value: data }, filename: '', mediaType: '' }], extensions: [], referenceTaskIds: [],
      },
      tenant: '',
    };
  }
  return { message: { kind: 'message', messageId: `task-${Date.now()}`, role: 'user', parts: [{ kind: 'data', data }] } };
}

// artifactData returns the data of the task's artifact named name.
function artifactData(task, name) {
  const a = task.artifacts.find((x) => x.artifactId === name);
  assert.ok(a, `artifact ${name} in ${JSON.stringify(task)}`);
  return v1 ? a.parts[0].content.value : a.parts[0].data;
}

async function create(client) {
  const task = await client.sendMessage(postJob({ title: `Task over A2A ${process.env.A2A_MODE}`, prompt: 'p', bounty_usdc: 1 }), auth);
  if (!v1) assert.equal(task.kind, 'task', JSON.stringify(task));
  assert.ok(task.id, JSON.stringify(task));
  assert.equal(task.status.state, WORKING);
  const job = artifactData(task, 'job');
  assert.equal(job.status, 'open');
  assert.equal(artifactData(task, 'result').id, job.id, 'the skill answer is an artifact too');

  const again = await client.getTask(v1 ? { id: task.id, tenant: '' } : { id: task.id }, auth);
  assert.equal(again.id, task.id);
  assert.equal(again.status.state, WORKING);
  await assert.rejects(client.getTask(v1 ? { id: task.id, tenant: '' } : { id: task.id }), 'no token: not found');

  let config;
  if (v1) {
    config = await client.createTaskPushNotificationConfig({
      tenant: '', taskId: task.id, id: 'cfg-1', url: process.env.A2A_PUSH_URL, token: 'tok-1',
      authentication: { scheme: 'Bearer', credentials: 'push-secret' },
    }, auth);
    assert.equal(config.url, process.env.A2A_PUSH_URL);
    const got = await client.getTaskPushNotificationConfig({ tenant: '', taskId: task.id, id: 'cfg-1' }, auth);
    assert.equal(got.token, 'tok-1');
    const list = await client.listTaskPushNotificationConfig({ tenant: '', taskId: task.id, pageSize: 0, pageToken: '' }, auth);
    assert.equal(list.configs.length, 1);
    config = { id: config.id };
  } else {
    const set = await client.setTaskPushNotificationConfig({
      taskId: task.id,
      pushNotificationConfig: { id: 'cfg-1', url: process.env.A2A_PUSH_URL, token: 'tok-1', authentication: { schemes: ['Bearer'], credentials: 'push-secret' } },
    }, auth);
    assert.equal(set.pushNotificationConfig.url, process.env.A2A_PUSH_URL);
    const got = await client.getTaskPushNotificationConfig({ id: task.id, pushNotificationConfigId: 'cfg-1' }, auth);
    assert.equal(got.pushNotificationConfig.token, 'tok-1');
    const list = await client.listTaskPushNotificationConfig({ id: task.id }, auth);
    assert.equal(list.length, 1);
    config = { id: set.pushNotificationConfig.id };
  }
  assert.equal(config.id, 'cfg-1');
  console.log(JSON.stringify({ task_id: task.id, job_id: job.id, config_id: config.id }));
}

async function check(client) {
  const id = process.env.A2A_TASK_ID;
  const task = await client.getTask(v1 ? { id, tenant: '' } : { id }, auth);
  assert.equal(task.status.state, COMPLETED);
  assert.equal(artifactData(task, 'job').status, 'closed');
  if (v1) {
    await client.deleteTaskPushNotificationConfig({ tenant: '', taskId: id, id: process.env.A2A_CONFIG_ID }, auth);
    const list = await client.listTaskPushNotificationConfig({ tenant: '', taskId: id, pageSize: 0, pageToken: '' }, auth);
    assert.equal(list.configs.length, 0);
  } else {
    await client.deleteTaskPushNotificationConfig({ id, pushNotificationConfigId: process.env.A2A_CONFIG_ID }, auth);
    const list = await client.listTaskPushNotificationConfig({ id }, auth);
    assert.equal(list.length, 0);
  }
  console.log(JSON.stringify({ state: String(task.status.state) }));
}

async function main() {
  const client = await new ClientFactory().createFromUrl(base);
  if (v1) assert.equal(client.protocolVersion, '1.0');
  if (process.env.A2A_PHASE === 'create') {
    await create(client);
  } else {
    await check(client);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
