// ghgate over HTTP as an OAuth 2.1 resource server, through the TypeScript
// MCP SDK: an identity provider served here on loopback (OpenID metadata
// and a JWKS of a real RSA key made here) issues a JWT; a client holding it
// does real work within its policy and is refused outside it, and a client
// holding nothing discovers the protected resource metadata from the 401,
// follows it to the identity provider, and gets no further. Run by
// `make e2e`.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { generateKeyPairSync, sign, createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { startHTTP } from './ghgate.mjs';

const b64url = (buf) => Buffer.from(buf).toString('base64url');

// startIdP serves an issuer's metadata (both discovery documents) and its
// JWKS, and signs RS256 access tokens with its key.
async function startIdP() {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid: 'e2e-1', alg: 'RS256', use: 'sig' };
  let issuer = '';
  const server = createServer((req, res) => {
    const meta = {
      issuer,
      authorization_endpoint: `${issuer}/authorize`,
      token_endpoint: `${issuer}/token`,
      jwks_uri: `${issuer}/jwks`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
    };
    const send = (status, body) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.url === '/.well-known/openid-configuration' || req.url === '/.well-known/oauth-authorization-server') return send(200, meta);
    if (req.url === '/jwks') return send(200, { keys: [jwk] });
    return send(404, { error: 'not_found' });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  issuer = `http://127.0.0.1:${server.address().port}`;
  const token = (claims) => {
    const header = b64url(JSON.stringify({ alg: 'RS256', kid: jwk.kid, typ: 'at+jwt' }));
    const payload = b64url(JSON.stringify(claims));
    const sig = sign('sha256', Buffer.from(`${header}.${payload}`), privateKey);
    return `${header}.${payload}.${b64url(sig)}`;
  };
  return { issuer, token, close: () => new Promise((r) => server.close(r)) };
}

function structured(res) {
  assert.ok(res.structuredContent, 'structuredContent present');
  return res.structuredContent;
}

describe('ghgate serve --http --auth through the TypeScript SDK', () => {
  let idp, server, dir;
  const staticKey = 'e2e-static-key-0123456789abcdef';

  before(async () => {
    idp = await startIdP();
    dir = mkdtempSync(join(tmpdir(), 'ghgate-auth-e2e-'));
    const authFile = join(dir, 'auth.toml');
    writeFileSync(authFile, [
      'scopes_supported = ["read", "write"]',
      '[[issuer]]', `url = "${idp.issuer}"`,
      '[[client]]', 'name = "e2e-agent"', 'read = ["acme/widgets"]', 'write = ["acme/widgets"]',
      '[[client]]', 'name = "e2e-static"', `key_sha256 = "${createHash('sha256').update(staticKey).digest('hex')}"`, 'read = ["acme"]',
      '[client.tools]', 'read_only = true',
      '',
    ].join('\n'));
    server = await startHTTP(['--demo', '--auth', authFile]);
  });

  after(async () => {
    await server?.stop();
    await idp?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('a client with an IdP bearer token does real work within its policy and is refused outside it', async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = idp.token({ iss: idp.issuer, aud: server.url, sub: 'svc', client_id: 'e2e-agent', iat: now, exp: now + 600 });
    const client = new Client({ name: 'ghgate-auth-e2e', version: '0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    try {
      const found = await client.callTool({ name: 'github_search_issues', arguments: { owner: 'acme', repo: 'widgets', query: 'widget' } });
      assert.ok(!found.isError, JSON.stringify(found.structuredContent));
      const created = await client.callTool({ name: 'github_create_issue', arguments: { owner: 'acme', repo: 'widgets', title: 'Filed through an authenticated client' } });
      assert.ok(!created.isError, JSON.stringify(created.structuredContent));
      const number = structured(created).issue?.number ?? structured(created).number;
      assert.ok(Number.isInteger(number), `created issue number: ${JSON.stringify(created.structuredContent)}`);
      const read = await client.callTool({ name: 'github_get_issue', arguments: { owner: 'acme', repo: 'widgets', issue_number: number } });
      assert.ok(!read.isError, JSON.stringify(read.structuredContent));
      assert.match(JSON.stringify(read.structuredContent), /Filed through an authenticated client/);

      const refused = await client.callTool({ name: 'github_get_issue', arguments: { owner: 'acme', repo: 'gadgets', issue_number: 1 } });
      assert.equal(refused.isError, true);
      assert.equal(structured(refused).code, 'insufficient_scope');
      assert.deepEqual(structured(refused).details?.required_scopes, ['read:acme/gadgets']);
    } finally {
      await client.close();
    }
  });

  test('a static client key works, and is read-only as configured', async () => {
    const client = new Client({ name: 'ghgate-auth-e2e-static', version: '0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { Authorization: `Bearer ${staticKey}` } } }));
    try {
      const { tools } = await client.listTools();
      assert.ok(tools.some((t) => t.name === 'github_get_issue'));
      assert.ok(!tools.some((t) => t.name === 'github_create_issue'), 'a read-only client is not offered writes');
      const read = await client.callTool({ name: 'github_get_issue', arguments: { owner: 'acme', repo: 'gadgets', issue_number: 1 } });
      assert.ok(!read.isError, JSON.stringify(read.structuredContent));
    } finally {
      await client.close();
    }
  });

  test('a client without a token discovers the metadata from the 401 and is refused', async () => {
    let authorizationURL;
    const provider = {
      get redirectUrl() { return 'http://127.0.0.1:1/callback'; },
      get clientMetadata() { return { redirect_uris: ['http://127.0.0.1:1/callback'], client_name: 'no-token' }; },
      clientInformation: () => ({ client_id: 'no-token' }),
      tokens: () => undefined,
      saveTokens: () => {},
      redirectToAuthorization: (url) => { authorizationURL = url; },
      saveCodeVerifier: () => {},
      codeVerifier: () => 'unused',
    };
    const client = new Client({ name: 'ghgate-auth-e2e-none', version: '0' });
    await assert.rejects(client.connect(new StreamableHTTPClientTransport(new URL(server.url), { authProvider: provider })),
      (err) => err instanceof UnauthorizedError);
    // The SDK found the authorization server through ghgate's protected
    // resource metadata and would send the user there, asking for a token
    // for ghgate's resource URL (RFC 8707).
    assert.ok(authorizationURL, 'the client was sent to authorize');
    assert.equal(`${authorizationURL.origin}${authorizationURL.pathname}`, `${idp.issuer}/authorize`);
    assert.equal(authorizationURL.searchParams.get('resource'), server.url);

    // And the bare 401 itself, as any client sees it.
    const res = await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }) });
    assert.equal(res.status, 401);
    const metaURL = new URL('/.well-known/oauth-protected-resource', server.url).href;
    assert.equal(res.headers.get('www-authenticate'), `Bearer resource_metadata="${metaURL}"`);
    const meta = await (await fetch(metaURL)).json();
    assert.equal(meta.resource, server.url);
    assert.deepEqual(meta.authorization_servers, [idp.issuer]);
  });
});
