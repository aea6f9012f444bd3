// The write policy's confirmation through independent clients: the built
// ghgate (`serve --config` with [policy.confirm] naming github_add_comment,
// against the GitHub emulator as alice) asks a person before it comments,
// and TypeScript SDK clients answer as a person would. Two SDK lines, two
// protocols:
//
// - @modelcontextprotocol/sdk 1.32.2 (the v1 line ts-sdk.test.mjs uses)
//   speaks at most 2025-11-25: ghgate asks with elicitation/create in the
//   middle of the tools/call. That needs a server-to-client request, which
//   a stateless streamable HTTP server cannot send, so over HTTP ghgate
//   can only answer confirmation_unavailable.
// - @modelcontextprotocol/client 2.4.0 (the v2 line) pinned to 2026-07-28:
//   the tools/call answers input_required (SEP-2322), the client asks its
//   person and retries with the answer and the requestState echoed.
//
// Every write is read back from the emulator itself, not through ghgate.
// Run by `make e2e`.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HTTPV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as ClientV2, StreamableHTTPClientTransport as HTTPV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { assertMirrors, ghgateBin, startEmulator, startHTTP, textOf } from './ghgate.mjs';

const OWNER = 'acme';
const REPO = 'widgets';
const TOKEN = 'emu-alice'; // the emulator's demo token for alice (admin of acme)
const TOOL = 'github_add_comment';

let emu;
let dir;
let config;
let servers = 0;

before(async () => {
  emu = await startEmulator();
  dir = mkdtempSync(join(tmpdir(), 'ghgate-e2e-policy-'));
  config = join(dir, 'serve.toml');
  writeFileSync(config, [
    `github_url = "${emu.url}"`,
    `token = "${TOKEN}"`,
    '[policy.confirm]',
    `tools = ["${TOOL}"]`,
    '',
  ].join('\n'), { mode: 0o600 });
});

after(async () => {
  await emu?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// serveArgs are one ghgate's arguments: the shared config and a state
// database of its own (flags override the file).
function serveArgs() {
  return ['serve', '--config', config, '--state', join(dir, `state-${++servers}.db`)];
}

// The emulator, as GitHub: what the tests read back is what it holds.
async function github(path, init = {}) {
  const res = await fetch(`${emu.url}${path}`, {
    ...init,
    headers: { Authorization: `Bearer ${TOKEN}`, Accept: 'application/vnd.github+json', 'Content-Type': 'application/json' },
  });
  const body = await res.json();
  assert.ok(res.ok, `${init.method ?? 'GET'} ${path}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

// newIssue opens an issue of the test's own, so every check starts from a
// known count of comments.
async function newIssue(title) {
  const issue = await github(`/repos/${OWNER}/${REPO}/issues`, { method: 'POST', body: JSON.stringify({ title }) });
  assert.ok(Number.isInteger(issue.number));
  return issue.number;
}

async function commentBodies(number) {
  const comments = await github(`/repos/${OWNER}/${REPO}/issues/${number}/comments?per_page=100`);
  return comments.map((c) => c.body);
}

// A person at the client: answers each question with the answer set for
// the test, and remembers the questions.
function newPerson() {
  const person = {
    answer: null,
    asked: [],
    reset(answer) { person.answer = answer; person.asked = []; },
    elicit(params) { person.asked.push(params); return person.answer; },
  };
  return person;
}

const ACCEPT = { action: 'accept', content: { confirm: true } };

// The two SDK lines. connect returns { client, protocol(), close(), logs() };
// elicit is the person's answer function, or null for a client that does
// not declare elicitation.
const sdks = [
  {
    label: '@modelcontextprotocol/sdk 1.32.2',
    protocol: '2025-11-25',
    asksOverHTTP: false,
    newClient(elicit) {
      const client = new ClientV1({ name: 'ghgate-e2e-policy', version: '0' },
        elicit ? { capabilities: { elicitation: { form: {} } } } : {});
      if (elicit) client.setRequestHandler(ElicitRequestSchema, (req) => elicit(req.params));
      return client;
    },
    // The v1 stdio transport keeps no protocol version; the client hands
    // the one initialize answered to any transport that takes it.
    observe(transport) {
      let version;
      if (!transport.setProtocolVersion) transport.setProtocolVersion = (v) => { version = v; };
      return () => version ?? transport.protocolVersion;
    },
    Stdio: StdioV1,
    HTTP: HTTPV1,
  },
  {
    label: '@modelcontextprotocol/client 2.4.0',
    protocol: '2026-07-28',
    asksOverHTTP: true,
    newClient(elicit, options = {}) {
      const client = new ClientV2({ name: 'ghgate-e2e-policy', version: '0' }, {
        ...(elicit ? { capabilities: { elicitation: { form: {} } } } : {}),
        versionNegotiation: { mode: { pin: '2026-07-28' } },
        ...options,
      });
      if (elicit) client.setRequestHandler('elicitation/create', (req) => elicit(req.params));
      return client;
    },
    observe() { return null; },
    Stdio: StdioV2,
    HTTP: HTTPV2,
  },
];

function protocolOf(sdk, client, observed) {
  return observed ? observed() : client.getNegotiatedProtocolVersion();
}

async function connectStdio(sdk, elicit, options) {
  const transport = new sdk.Stdio({
    command: ghgateBin(),
    args: serveArgs(),
    env: { PATH: process.env.PATH ?? '', HOME: dir },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d) => { stderr += d; });
  const observed = sdk.observe(transport);
  const client = sdk.newClient(elicit, options);
  await client.connect(transport);
  return { client, protocol: () => protocolOf(sdk, client, observed), close: () => client.close(), logs: () => stderr };
}

async function connectHTTP(sdk, server, elicit, options) {
  const transport = new sdk.HTTP(new URL(server.url));
  const observed = sdk.observe(transport);
  const client = sdk.newClient(elicit, options);
  await client.connect(transport);
  return { client, protocol: () => protocolOf(sdk, client, observed), close: () => client.close(), logs: () => server.stderr() };
}

// assertRefused checks a refusal of the confirmation step: an error
// result carrying the envelope, nothing started.
function assertRefused(res, code) {
  assertMirrors(res);
  assert.equal(res.isError, true, `an error result: ${textOf(res)}`);
  const e = res.structuredContent;
  assert.equal(e.code, code, textOf(res));
  assert.equal(e.settlement, 'not_started');
  assert.equal(e.details?.rule, 'confirm');
  assert.ok(e.message.includes(TOOL), `the message names the tool: ${e.message}`);
  assert.match(e.message, /nothing was written/);
  assert.ok(e.repair?.next_step, 'a repair is offered');
  return e;
}

// assertQuestion checks the one question a person was shown: a form with
// one boolean, naming the tool, the issue and the size of the text.
function assertQuestion(asked, number, body) {
  assert.equal(asked.length, 1, `one question asked: ${JSON.stringify(asked)}`);
  const q = asked[0];
  assert.equal(q.mode ?? 'form', 'form');
  assert.ok(q.message.includes(TOOL), `the question names the tool: ${q.message}`);
  assert.ok(q.message.includes(`${OWNER}/${REPO}#${number}`), `the question names the issue: ${q.message}`);
  assert.ok(q.message.includes(`body of ${Buffer.byteLength(body)} bytes`), `the question gives the body's size: ${q.message}`);
  assert.match(q.message, /the operator asks a person to confirm every github_add_comment/);
  assert.deepEqual(Object.keys(q.requestedSchema.properties), ['confirm']);
  assert.equal(q.requestedSchema.properties.confirm.type, 'boolean');
  assert.deepEqual(q.requestedSchema.required, ['confirm']);
}

const comment = (conn, number, body, extra = {}) =>
  conn.client.callTool({ name: TOOL, arguments: { owner: OWNER, repo: REPO, issue_number: number, body, ...extra } });

// The checks every (SDK, transport) pair runs. connect(elicit) opens a
// client; asks says whether a person can be asked on this pair.
function confirmationSuite(sdk, connect, asks) {
  const person = newPerson();
  let capable;
  let incapable;
  before(async () => {
    capable = await connect((params) => person.elicit(params));
    incapable = await connect(null);
  });
  after(async () => {
    await capable?.close();
    await incapable?.close();
  });

  test(`negotiates ${sdk.protocol}`, () => {
    assert.equal(capable.protocol(), sdk.protocol);
    assert.equal(incapable.protocol(), sdk.protocol);
  });

  if (asks) {
    test('accept with confirm: true: the person is asked once and the comment is written once', async () => {
      const number = await newIssue('confirm: accepted');
      const body = `accepted ${sdk.protocol} ${Date.now()}`;
      person.reset(ACCEPT);
      const res = await comment(capable, number, body);
      assertMirrors(res);
      assert.ok(!res.isError, `${textOf(res)}\nghgate's log:\n${capable.logs()}`);
      assertQuestion(person.asked, number, body);
      assert.equal(res.structuredContent.comment?.body, body);
      assert.deepEqual(await commentBodies(number), [body], 'GitHub holds the comment, once');
    });

    test('accept with confirm: false is no yes: confirmation_declined, nothing written', async () => {
      const number = await newIssue('confirm: unticked');
      person.reset({ action: 'accept', content: { confirm: false } });
      const e = assertRefused(await comment(capable, number, 'unticked'), 'confirmation_declined');
      assert.match(e.message, /did not accept \(accept\)/);
      assertQuestion(person.asked, number, 'unticked');
      assert.deepEqual(await commentBodies(number), []);
    });

    for (const action of ['decline', 'cancel']) {
      test(`${action}: confirmation_declined, nothing written`, async () => {
        const number = await newIssue(`confirm: ${action}`);
        const body = `${action}d comment`;
        person.reset({ action });
        const e = assertRefused(await comment(capable, number, body), 'confirmation_declined');
        assert.ok(e.message.includes(`(${action})`), `the refusal says what the person did: ${e.message}`);
        assertQuestion(person.asked, number, body);
        assert.deepEqual(await commentBodies(number), [], 'GitHub holds no comment');
      });
    }
  } else {
    test('a client that declares elicitation cannot be asked here: confirmation_unavailable, nothing written', async () => {
      const number = await newIssue('confirm: cannot ask');
      person.reset(ACCEPT);
      assertRefused(await comment(capable, number, 'never asked'), 'confirmation_unavailable');
      assert.deepEqual(person.asked, [], 'no question reached the client');
      assert.deepEqual(await commentBodies(number), []);
    });
  }

  test('a client without the elicitation capability: confirmation_unavailable, nothing written', async () => {
    const number = await newIssue('confirm: no capability');
    const e = assertRefused(await comment(incapable, number, 'no one to ask'), 'confirmation_unavailable');
    assert.match(e.message, /did not declare elicitation/);
    assert.deepEqual(await commentBodies(number), []);
  });

  test('dry_run: true answers the plan, asks no one and writes nothing', async () => {
    const number = await newIssue('confirm: dry run');
    const was = await github(`/repos/${OWNER}/${REPO}/issues/${number}`);
    const body = 'planned, not posted';
    person.reset(ACCEPT);
    const res = await comment(capable, number, body, { dry_run: true });
    assertMirrors(res);
    assert.ok(!res.isError, textOf(res));
    const plan = res.structuredContent.dry_run;
    assert.ok(plan, `a dry_run plan: ${textOf(res)}`);
    assert.deepEqual(Object.keys(res.structuredContent), ['dry_run'], 'the plan and nothing else');
    assert.equal(plan.tool, TOOL);
    assert.equal(plan.confirmation, 'required', 'the real call would ask a person');
    assert.equal(plan.writes.length, 1);
    assert.equal(plan.writes[0].kind, 'comment');
    assert.equal(plan.writes[0].target, `${OWNER}/${REPO}#${number}`);
    assert.deepEqual(plan.writes[0].text, { body });
    assert.deepEqual(person.asked, [], 'a dry run asks no one');
    const now = await github(`/repos/${OWNER}/${REPO}/issues/${number}`);
    assert.equal(now.comments, was.comments, 'the comment count is unchanged');
    assert.deepEqual(await commentBodies(number), []);
  });
}

for (const sdk of sdks) {
  describe(`${sdk.label} (${sdk.protocol}) over stdio`, () => {
    confirmationSuite(sdk, (elicit) => connectStdio(sdk, elicit), true);
  });

  describe(`${sdk.label} (${sdk.protocol}) over streamable HTTP`, () => {
    let server;
    before(async () => { server = await startHTTP(serveArgs().slice(1)); });
    after(async () => {
      const { code, signal } = await server.stop();
      assert.ok(code === 0 || signal === 'SIGTERM', `ghgate should exit cleanly on SIGTERM (code ${code}, signal ${signal})\n${server.stderr()}`);
    });
    confirmationSuite(sdk, (elicit) => connectHTTP(sdk, server, elicit), sdk.asksOverHTTP);
  });
}

// The 2026-07-28 wire itself, with the v2 client's automatic rounds off:
// the input-required result as sent, and what ghgate makes of the
// requestState a retry echoes.
const v2 = sdks[1];
const transports = {
  stdio: (options) => connectStdio(v2, () => ACCEPT, options),
  'streamable HTTP': (options, server) => connectHTTP(v2, server, () => ACCEPT, options),
};
for (const [name, connect] of Object.entries(transports)) {
  describe(`2026-07-28 input_required over ${name}, answered by hand`, () => {
    let server;
    let conn;
    before(async () => {
      if (name !== 'stdio') server = await startHTTP(serveArgs().slice(1));
      conn = await connect({ inputRequired: { autoFulfill: false } }, server);
    });
    after(async () => {
      await conn?.close();
      await server?.stop();
    });

    const call = (args, retry = {}) => conn.client.callTool({ name: TOOL, arguments: args, ...retry }, { allowInputRequired: true });
    const accept = (requestState) => ({ inputResponses: { confirm: ACCEPT }, requestState });

    test('the call answers input_required: one form asking for a boolean confirm, and a requestState', async () => {
      const number = await newIssue('input_required: shape');
      const body = 'asked on the wire';
      const res = await call({ owner: OWNER, repo: REPO, issue_number: number, body });
      assert.equal(res.resultType, 'input_required', JSON.stringify(res));
      assert.deepEqual(Object.keys(res.inputRequests), ['confirm']);
      const req = res.inputRequests.confirm;
      assert.equal(req.method, 'elicitation/create');
      assert.equal(req.params.mode, 'form');
      assertQuestion([req.params], number, body);
      assert.equal(typeof res.requestState, 'string');
      assert.ok(res.requestState.length > 0, 'a requestState to echo');
      assert.equal(res.content, undefined, 'no content beside the question');
      assert.deepEqual(await commentBodies(number), [], 'asking writes nothing');
    });

    test('a yes with the requestState echoed writes the comment once', async () => {
      const number = await newIssue('input_required: accepted');
      const args = { owner: OWNER, repo: REPO, issue_number: number, body: 'confirmed by hand' };
      const asked = await call(args);
      assert.equal(asked.resultType, 'input_required');
      const res = await call(args, accept(asked.requestState));
      assertMirrors(res);
      assert.ok(!res.isError, textOf(res));
      assert.equal(res.structuredContent.comment?.body, args.body);
      assert.deepEqual(await commentBodies(number), [args.body]);
    });

    test('a yes is bound to the call it was asked about: other arguments, or a forged requestState, are asked again', async () => {
      const number = await newIssue('input_required: bound');
      const args = { owner: OWNER, repo: REPO, issue_number: number, body: 'the text the person saw' };
      const asked = await call(args);
      assert.equal(asked.resultType, 'input_required');

      const swapped = await call({ ...args, body: 'a different text' }, accept(asked.requestState));
      assert.equal(swapped.resultType, 'input_required', `other arguments are asked again: ${JSON.stringify(swapped)}`);
      assert.ok(swapped.inputRequests.confirm.params.message.includes(`body of ${Buffer.byteLength('a different text')} bytes`));

      const forged = asked.requestState.slice(0, -4) + (asked.requestState.endsWith('AAAA') ? 'BBBB' : 'AAAA');
      const refused = await call(args, accept(forged));
      assert.equal(refused.resultType, 'input_required', `a forged state is asked again: ${JSON.stringify(refused)}`);

      const unasked = await call(args, { inputResponses: { confirm: ACCEPT } });
      assert.equal(unasked.resultType, 'input_required', `a yes without a state is asked again: ${JSON.stringify(unasked)}`);

      assert.deepEqual(await commentBodies(number), [], 'nothing written');
    });

    test('a decline with the requestState echoed: confirmation_declined, nothing written', async () => {
      const number = await newIssue('input_required: declined');
      const args = { owner: OWNER, repo: REPO, issue_number: number, body: 'declined by hand' };
      const asked = await call(args);
      const res = await call(args, { inputResponses: { confirm: { action: 'decline' } }, requestState: asked.requestState });
      assertRefused(res, 'confirmation_declined');
      assert.deepEqual(await commentBodies(number), []);
    });
  });
}
