// End to end through an independent client: the TypeScript MCP SDK speaks
// to the built ghgate binary (`serve --demo`) over stdio and over
// streamable HTTP, and every contract point an agent relies on is checked
// as that client decodes it. Run by `make e2e` (node --test e2e/).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { assertMirrors, ghgateBin, startHTTP, textOf } from './ghgate.mjs';

const OWNER = 'acme';
const REPO = 'widgets';

function newClient() {
  return new Client({ name: 'ghgate-e2e', version: '0' });
}

// The same checks run over each transport.
const transports = {
  stdio: async () => {
    const transport = new StdioClientTransport({
      command: ghgateBin(),
      args: ['serve', '--demo'],
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (d) => { stderr += d; });
    const client = newClient();
    await client.connect(transport);
    return { client, close: () => client.close(), logs: () => stderr };
  },
  http: async () => {
    const server = await startHTTP(['--demo']);
    const client = newClient();
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    return {
      client,
      close: async () => {
        await client.close();
        const { code, signal } = await server.stop();
        assert.ok(code === 0 || signal === 'SIGTERM', `ghgate should exit cleanly on SIGTERM (code ${code}, signal ${signal})\n${server.stderr()}`);
      },
      logs: () => server.stderr(),
    };
  },
};

for (const [name, connect] of Object.entries(transports)) {
  describe(`TypeScript SDK over ${name}`, () => {
    let conn;
    before(async () => { conn = await connect(); });
    after(async () => { await conn?.close(); });

    test('initialize reports ghgate and its instructions', () => {
      assert.equal(conn.client.getServerVersion()?.name, 'ghgate');
      assert.match(conn.client.getInstructions() ?? '', /fingerprint/i);
    });

    test('tools/list: github_* names, every tool has an outputSchema', async () => {
      const { tools } = await conn.client.listTools();
      assert.ok(tools.length > 0, 'tools listed');
      for (const t of tools) {
        assert.match(t.name, /^github_[a-z_]+$/, `tool name ${t.name}`);
        assert.equal(t.outputSchema?.type, 'object', `${t.name} has an object outputSchema`);
        assert.equal(t.inputSchema?.type, 'object', `${t.name} has an object inputSchema`);
      }
      const names = tools.map((t) => t.name);
      assert.ok(names.includes('github_search_issues'));
      assert.ok(names.includes('github_get_issue'));
    });

    test('github_search_issues then github_get_issue', async () => {
      const search = await conn.client.callTool({ name: 'github_search_issues', arguments: { owner: OWNER, repo: REPO, page_size: 5 } });
      assert.ok(!search.isError, `search failed: ${textOf(search)}`);
      assertMirrors(search);
      const items = search.structuredContent.items;
      assert.ok(Array.isArray(items) && items.length > 0, `search returned rows: ${textOf(search)}`);
      const number = items[0].number;
      assert.ok(Number.isInteger(number), 'rows carry an issue number');

      const got = await conn.client.callTool({ name: 'github_get_issue', arguments: { owner: OWNER, repo: REPO, issue_number: number } });
      assert.ok(!got.isError, `get_issue failed: ${textOf(got)}`);
      assertMirrors(got);
      assert.equal(got.structuredContent.issue?.number, number);
      assert.ok(typeof got.structuredContent.issue?.version === 'string' && got.structuredContent.issue.version !== '', 'get_issue returns a version');
    });

    // Error results through client.callTool, as a TypeScript host makes
    // them: callTool in @modelcontextprotocol/sdk 1.32.2 validates
    // structuredContent against the tool's outputSchema even when isError is
    // true (typescript-sdk issue #1943), so the published output schemas
    // must accept the error envelope too. They list top-level fields and
    // types without a required list, which the envelope satisfies.
    const callRaw = (name, args) => conn.client.callTool({ name, arguments: args });

    test('a forced error is an isError result carrying the envelope', async () => {
      const res = await callRaw('github_get_issue', { owner: OWNER, repo: REPO, issue_number: 999999 });
      assert.equal(res.isError, true);
      assertMirrors(res);
      assert.equal(res.structuredContent.code, 'issue_not_found');
      assert.ok('retry_after_ms' in res.structuredContent, 'retry_after_ms always present');
    });

    test('an argument-validation failure also carries the envelope', async () => {
      const res = await callRaw('github_get_issue', { owner: OWNER, repo: REPO, issue_number: 'seven' });
      assert.equal(res.isError, true);
      assertMirrors(res);
      assert.equal(res.structuredContent.code, 'invalid_field');
      assert.equal(res.structuredContent.details?.field, 'issue_number');
    });

    test('resources: the error catalog is listed and readable', async () => {
      const { resources } = await conn.client.listResources();
      assert.ok(resources.some((r) => r.uri === 'ghgate://errors'), 'ghgate://errors listed');
      const { resourceTemplates } = await conn.client.listResourceTemplates();
      assert.ok(resourceTemplates.length > 0, 'resource templates listed');
      const read = await conn.client.readResource({ uri: 'ghgate://errors' });
      assert.equal(read.contents.length, 1);
      const catalog = JSON.parse(read.contents[0].text);
      assert.ok(Array.isArray(catalog) && catalog.some((c) => c.code === 'issue_not_found'), 'catalog lists issue_not_found');
    });

    // resources/read as sent on the wire: the SDK's own result schema
    // drops what ResourceContents does not declare (annotations), so the
    // read is made with a schema that keeps every field.
    const RawRead = z.object({
      ttlMs: z.number(),
      cacheScope: z.string(),
      contents: z.array(z.object({ uri: z.string(), text: z.string() }).passthrough()),
    }).passthrough();
    const read = (uri) => conn.client.request({ method: 'resources/read', params: { uri } }, RawRead);

    test('resources carry honest cache hints and the fingerprint', async () => {
      const listed = await conn.client.listResources();
      assert.equal(listed.cacheScope, 'public', 'resources/list is the same for every client');
      const summary = await read('ghgate://capabilities');
      assert.equal(summary.ttlMs, 300000);
      assert.equal(summary.cacheScope, 'public');
      const fp = /Surface fingerprint: (ghgate@\S+\+[0-9a-f]{16})/.exec(summary.contents[0].text)?.[1];
      assert.ok(fp, 'the summary names a ghgate@<version>+<hash> fingerprint');
      assert.ok((conn.client.getInstructions() ?? '').includes(fp), 'the instructions carry the same fingerprint');
      for (const code of ['missing_credential', 'invalid_credential', 'insufficient_scope']) {
        assert.ok(summary.contents[0].text.includes(code), `the summary states the credential failure ${code}`);
      }
      const catalog = await read('ghgate://errors');
      assert.equal(catalog.ttlMs, 86400000);
      assert.equal(catalog.cacheScope, 'public');
      await assert.rejects(read(`github://${OWNER}/${REPO}/issues/999999`), (err) => {
        assert.equal(err.data?.machine_code, 'issue_not_found');
        assert.equal(err.data?.fingerprint, fp, 'the envelope carries the fingerprint');
        return true;
      });
    });

    test('an issue resource is private, says when it changed, and its 75 comments are followed chunk by chunk', async () => {
      const created = await conn.client.callTool({ name: 'github_create_issue', arguments: { owner: OWNER, repo: REPO, title: 'A long thread', body: 'Many comments follow.' } });
      assert.ok(!created.isError, textOf(created));
      const number = created.structuredContent.issue.number;
      for (let i = 1; i <= 75; i++) {
        const c = await conn.client.callTool({ name: 'github_add_comment', arguments: { owner: OWNER, repo: REPO, issue_number: number, body: `comment ${i}` } });
        assert.ok(!c.isError, textOf(c));
      }
      const uri = `github://${OWNER}/${REPO}/issues/${number}`;
      const issue = await read(uri);
      assert.equal(issue.ttlMs, 30000);
      assert.equal(issue.cacheScope, 'private', 'an issue is one credential\'s view: never public');
      const doc = JSON.parse(issue.contents[0].text);
      assert.equal(issue.contents[0].annotations?.lastModified, doc.issue.updated_at, 'annotations.lastModified is the issue\'s updated_at');
      assert.equal(doc.comments.length, 30, 'the issue carries the first chunk');
      const bodies = doc.comments.map((c) => c.body);
      let next = doc.next_chunk_uri;
      let chunks = 1;
      while (next) {
        const part = await read(next);
        assert.equal(part.cacheScope, 'private');
        assert.equal(part.ttlMs, 30000);
        const chunk = JSON.parse(part.contents[0].text);
        chunks++;
        assert.equal(chunk.chunk, chunks);
        bodies.push(...chunk.comments.map((c) => c.body));
        next = chunk.next_chunk_uri;
      }
      assert.equal(chunks, 3, 'three chunks of at most 30');
      assert.deepEqual(bodies, Array.from({ length: 75 }, (_, i) => `comment ${i + 1}`), 'every comment once, in order');
      const { resourceTemplates } = await conn.client.listResourceTemplates();
      assert.ok(resourceTemplates.some((t) => t.uriTemplate === 'github://{owner}/{repo}/issues/{issue_number}/comments{?chunk}'), 'the chunk URI is a published template');
    });

    test('the issue index lists triage metadata, never bodies; the labels index completes label names', async () => {
      const index = await read(`github://${OWNER}/${REPO}/issues?state=open&labels=bug`);
      assert.equal(index.cacheScope, 'private');
      const doc = JSON.parse(index.contents[0].text);
      assert.ok(doc.issues.length > 0, 'open bugs listed');
      for (const row of doc.issues) {
        assert.ok(row.labels.includes('bug'));
        assert.equal(row.body, undefined, 'no body');
        assert.ok(typeof row.size === 'number' && typeof row.annotations?.lastModified === 'string', 'size and lastModified');
        assert.ok((row.preview ?? '').length <= 120, 'a short preview');
      }
      const labels = await read(`github://${OWNER}/${REPO}/labels`);
      assert.equal(labels.cacheScope, 'private');
      assert.ok(JSON.parse(labels.contents[0].text).items.some((l) => l.name === 'bug'));
      const done = await conn.client.complete({ ref: { type: 'ref/resource', uri: 'github://{owner}/{repo}/issues{?state,labels,assignee,updated_after}' },
        argument: { name: 'labels', value: 'bu' }, context: { arguments: { owner: OWNER, repo: REPO } } });
      assert.ok(done.completion.values.includes('bug'), `label completion: ${JSON.stringify(done.completion.values)}`);
    });

    test('completion for a resource template argument is an array, never null', async () => {
      const { resourceTemplates } = await conn.client.listResourceTemplates();
      const tmpl = resourceTemplates.find((t) => t.uriTemplate.includes('{owner}') && t.uriTemplate.includes('{repo}'));
      assert.ok(tmpl, 'a template with {owner} and {repo}');
      const ref = { type: 'ref/resource', uri: tmpl.uriTemplate };
      const owners = await conn.client.complete({ ref, argument: { name: 'owner', value: '' } });
      assert.ok(Array.isArray(owners.completion.values), 'values is an array');
      for (const owner of ['alice', OWNER]) {
        assert.ok(owners.completion.values.includes(owner), `owner completion offers ${owner}: ${JSON.stringify(owners.completion.values)}`);
      }
      const prefixed = await conn.client.complete({ ref, argument: { name: 'owner', value: 'ac' } });
      assert.deepEqual(prefixed.completion.values, [OWNER], 'owner completion filters by prefix');
      const repos = await conn.client.complete({ ref, argument: { name: 'repo', value: 'w' }, context: { arguments: { owner: OWNER } } });
      assert.ok(repos.completion.values.includes(REPO), `repo completion offers ${REPO}: ${JSON.stringify(repos.completion.values)}`);
      const none = await conn.client.complete({ ref, argument: { name: 'owner', value: 'zzz-no-such' } });
      assert.ok(Array.isArray(none.completion.values), 'values is an array even with nothing to offer');
      assert.equal(none.completion.values.length, 0);
    });

    test('logs went to stderr', () => {
      assert.match(conn.logs(), /ghgate serving/);
    });
  });
}

// A report sends notifications/progress to a client that asked for them
// (the SDK's onprogress sets the request's progressToken): repositories
// done of the total. The SDK stops listening for a token when the result
// arrives, and the last notifications may trail it on the wire, so the
// count is not checked to the end here (the Go SDK test waits for them).
describe('TypeScript SDK: a report with a progress token', () => {
  let client;
  before(async () => {
    const transport = new StdioClientTransport({
      command: ghgateBin(),
      args: ['serve', '--demo', '--toolsets', 'reports'],
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
      stderr: 'pipe',
    });
    client = newClient();
    await client.connect(transport);
  });
  after(async () => { await client?.close(); });

  test('github_report_unlabeled over the fleet reports its progress', async () => {
    const seen = [];
    const res = await client.callTool({ name: 'github_report_unlabeled', arguments: { owner: 'fleet', max_repos: 10 } },
      CallToolResultSchema, { onprogress: (p) => seen.push(p) });
    assert.ok(!res.isError, textOf(res));
    assertMirrors(res);
    const out = res.structuredContent;
    assert.equal(out.truncated, true, 'the fleet has more than 10 repositories');
    assert.equal(out.truncated_reason, 'max_repos');
    assert.equal(out.next_call.tool, 'github_report_unlabeled');
    assert.ok(seen.length > 0, 'progress notifications arrived');
    for (let i = 1; i < seen.length; i++) {
      assert.ok(seen[i].progress > seen[i - 1].progress, 'progress rises');
    }
    for (const p of seen) {
      assert.equal(p.total, 10, 'the total is the repositories scanned');
      assert.ok(p.progress >= 1 && p.progress <= p.total);
    }
  });
});
