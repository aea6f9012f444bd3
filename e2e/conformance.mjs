// Runs the official MCP conformance suite against `ghgate serve --demo
// --http` and compares its failures with e2e/conformance-expected-failures.txt.
//
//   GHGATE_BIN=bin/ghgate node_modules/.bin/node e2e/conformance.mjs
//
// Two servers are tested, each by both suites:
//   - ghgate: the released binary (GHGATE_BIN), serving its own tools;
//   - fixtures: the test-only build (go build -tags conformance; taken
//     from GHGATE_FIXTURES_BIN, or built here with the go command) with
//     --conformance-fixtures: the same stack, HTTP handler, auth, wrapper
//     and tasks middleware, plus the suites' fixture tools, prompts and
//     resources (internal/conformance).
//
// The fixture server runs first. Its failing checks must each be in
// e2e/conformance-expected-failures.txt, which lists only what stateless
// HTTP (or the go-sdk under it) cannot do, with the reason. A check
// failing on plain ghgate is accounted for when the fixture server, the
// same stack with the fixtures added, passes it (the fixture was all it
// lacked) or fails it as listed; any other ghgate failure fails the run.
//
// Two versions of the suite run (servers are tested over HTTP only):
//   - @modelcontextprotocol/conformance 0.1.16 with --spec-version 2025-11-25
//     (the stateful initialize handshake; every scenario it runs is gated);
//   - the 0.2.0 prerelease (npm alias conformance-next) with --requirements
//     2026-07-28: the scenarios the package's frozen requirements file lists
//     under `server:` are gated (each must run); those it lists as
//     not_scored (extensions such as tasks, pending ones) are run too, and
//     their failures are accounted for like the rest.
//
// ghgate runs with --auth (a static client key allowed everything): the
// suite's server command cannot send a bearer token, so it reaches ghgate
// through a loopback proxy that adds the client's Authorization header to
// every request and changes nothing else. A request that skips the proxy
// is checked to be refused with 401, so the suites do run with auth on.
//
// The run fails on a failing check not accounted for as above, on a listed
// check that now passes or did not run, and on a gated scenario that
// produced no result. The suite needs Node 22; the npm package `node`
// provides it (node_modules/.bin/node).
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, createWriteStream, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ghgateBin, startHTTP } from './ghgate.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const LIST = join(here, 'conformance-expected-failures.txt');
// A whole suite run is bounded; a hung scenario must not hang CI.
const SUITE_TIMEOUT_MS = 10 * 60 * 1000;

const SUITES = [
  { label: '2025-11-25', pkg: '@modelcontextprotocol/conformance', args: ['--spec-version', '2025-11-25'] },
  { label: '2026-07-28', pkg: 'conformance-next', args: ['--requirements', '2026-07-28'], requirements: '2026-07-28' },
];

function fail(msg) {
  console.error(`conformance: ${msg}`);
  process.exit(1);
}

const major = Number(process.versions.node.split('.')[0]);
if (major < 22) fail(`Node ${process.versions.node}: the conformance suite needs Node 22 or newer; run it with node_modules/.bin/node (npm package node@22)`);

// packageDir finds an installed package's directory and its CLI entry.
function packageCLI(pkg) {
  const pj = require.resolve(`${pkg}/package.json`);
  const meta = JSON.parse(readFileSync(pj, 'utf8'));
  const bin = typeof meta.bin === 'string' ? meta.bin : Object.values(meta.bin ?? {})[0];
  if (!bin) fail(`${pkg} has no bin entry`);
  return { dir: dirname(pj), cli: join(dirname(pj), bin), version: meta.version };
}

// gatedScenarios reads the `server:` list of the package's frozen
// requirements file (a flat YAML list; no YAML library needed).
function gatedScenarios(dir, revision) {
  const file = join(dir, 'requirements', `${revision}.yaml`);
  if (!existsSync(file)) fail(`${file} is missing: is the package version right?`);
  const out = new Set();
  let inServer = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (/^\S/.test(line)) inServer = /^server:\s*$/.test(line);
    const m = inServer && /^\s+-\s+(\S+)\s*$/.exec(line);
    if (m) out.add(m[1]);
  }
  if (out.size === 0) fail(`${file}: no server scenarios found`);
  return out;
}

// readExpected parses the committed list: "<suite> <scenario> <check>
// <reason>", the fixture server's expected failures.
function readExpected() {
  const out = new Map();
  readFileSync(LIST, 'utf8').split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const m = /^(\S+)\s+(\S+)\s+(\S+)\s+(.+)$/.exec(line);
    if (!m) fail(`${LIST}:${i + 1}: want "<suite> <scenario> <check-id> <reason>"`);
    const [, suite, scenario, check, reason] = m;
    if (!SUITES.some((s) => s.label === suite)) fail(`${LIST}:${i + 1}: unknown suite ${suite}`);
    // The fixture server has every fixture: what it may fail is what
    // stateless HTTP (or the SDK under it) cannot do, and the reason says
    // which.
    if (!/stateless|go-sdk/.test(reason)) fail(`${LIST}:${i + 1}: the reason must say what stateless HTTP or the go-sdk cannot do`);
    const key = `${suite} ${scenario} ${check}`;
    if (out.has(key)) fail(`${LIST}:${i + 1}: duplicate entry ${key}`);
    out.set(key, reason);
  });
  return out;
}

function runSuite(cli, args, logFile) {
  return new Promise((resolve) => {
    const log = createWriteStream(logFile);
    const child = spawn(process.execPath, [cli, 'server', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    const timer = setTimeout(() => { log.write(`\n[conformance.mjs] timed out after ${SUITE_TIMEOUT_MS} ms\n`); child.kill('SIGKILL'); }, SUITE_TIMEOUT_MS);
    child.on('close', (code, signal) => { clearTimeout(timer); log.end(() => resolve({ code, signal })); });
  });
}

// readResults maps scenario name to its checks from the suite's output
// directory (one server-<scenario>-<timestamp>/checks.json per scenario).
function readResults(dir) {
  const out = new Map();
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const m = entry.isDirectory() && /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(entry.name);
    if (!m) continue;
    const file = join(dir, entry.name, 'checks.json');
    const checks = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : [];
    out.set(m[1], checks);
  }
  return out;
}

// startBearerProxy forwards every request to target unchanged (Host and
// Origin included, so ghgate's cross-origin check sees what the suite
// sent) but for an added Authorization header. Resolves to { url, close }.
async function startBearerProxy(target, token) {
  const t = new URL(target);
  const proxy = createServer((req, res) => {
    const up = httpRequest({ hostname: t.hostname, port: t.port, path: req.url, method: req.method,
      headers: { ...req.headers, authorization: `Bearer ${token}` } }, (ur) => {
      res.writeHead(ur.statusCode, ur.headers);
      ur.pipe(res);
    });
    up.on('error', (err) => { if (!res.headersSent) res.writeHead(502); res.end(String(err)); });
    res.on('close', () => up.destroy());
    req.pipe(up);
  });
  await new Promise((r) => proxy.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${proxy.address().port}${t.pathname}`, close: () => new Promise((r) => { proxy.closeAllConnections(); proxy.close(r); }) };
}

const expected = readExpected();
const work = mkdtempSync(join(tmpdir(), 'ghgate-conformance-'));
const clientKey = randomBytes(32).toString('hex');
const authFile = join(work, 'auth.toml');
writeFileSync(authFile, `[[client]]\nname = "conformance"\nkey_sha256 = "${createHash('sha256').update(clientKey).digest('hex')}"\nread = ["*"]\nwrite = ["*"]\n`);

// fixturesBin is the test-only build: GHGATE_FIXTURES_BIN, or built now.
function fixturesBin() {
  if (process.env.GHGATE_FIXTURES_BIN) return process.env.GHGATE_FIXTURES_BIN;
  const out = join(work, 'ghgate-conformance');
  const r = spawnSync('go', ['build', '-tags', 'conformance', '-o', out, './cmd/ghgate'], { cwd: join(here, '..'), stdio: 'inherit' });
  if (r.status !== 0) fail(`building the fixture server (go build -tags conformance ./cmd/ghgate) failed (${r.status ?? r.error})`);
  return out;
}

const problems = [];

// runServer starts one server with --auth behind the bearer proxy and runs
// both suites against it. It returns each suite's checks by
// "<suite> <scenario> <check>", with whether the scenario is gated.
async function runServer(name, bin, extraArgs) {
  const out = new Map();
  const server = await startHTTP(['--demo', '--auth', authFile, ...extraArgs], { bin });
  const proxy = await startBearerProxy(server.url, clientKey);
  try {
    const bare = await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }) });
    if (bare.status !== 401 || !/resource_metadata=/.test(bare.headers.get('www-authenticate') ?? '')) {
      problems.push(`${name}: ghgate --auth answered a request without a token ${bare.status} (${bare.headers.get('www-authenticate')}), not 401 with resource_metadata`);
      return out;
    }
    console.log(`conformance [${name}]: ${bin} --auth (pid ${server.pid}) at ${server.url}, reached with a client key through ${proxy.url}`);
    for (const suite of SUITES) {
      const { dir, cli, version } = packageCLI(suite.pkg);
      const outDir = join(work, name, suite.label);
      const logFile = join(work, `${name}-${suite.label}.log`);
      const { code, signal } = await runSuite(cli, ['--url', proxy.url, ...suite.args, '-o', outDir], logFile);
      const results = existsSync(outDir) ? readResults(outDir) : new Map();
      const gated = suite.requirements ? gatedScenarios(dir, suite.requirements) : new Set(results.keys());
      if (results.size === 0) problems.push(`${name} ${suite.label}: the suite produced no results (exit ${code ?? signal}); see ${logFile}`);
      for (const scenario of gated) {
        if (!results.has(scenario)) problems.push(`${name} ${suite.label} ${scenario}: gated scenario did not run; see ${logFile}`);
      }
      let passed = 0;
      let failed = 0;
      for (const [scenario, checks] of results) {
        for (const check of checks) {
          out.set(`${suite.label} ${scenario} ${check.id}`, { ...check, gated: gated.has(scenario) });
          if (check.status === 'SUCCESS') passed++;
          if (check.status === 'FAILURE') failed++;
        }
      }
      console.log(`conformance [${name}] ${suite.label} (${suite.pkg}@${version}, exit ${code ?? signal}): ${results.size} scenarios, ${passed} checks passed, ${failed} failed`);
    }
  } finally {
    await proxy.close();
    const { code, signal } = await server.stop();
    if (code !== 0 && signal !== 'SIGTERM') {
      problems.push(`${name}: ghgate did not exit cleanly on SIGTERM (code ${code}, signal ${signal}); its last log lines:\n${server.stderr().split('\n').slice(-20).join('\n')}`);
    }
  }
  return out;
}

console.log(`conformance: results in ${work}`);
const withFixtures = await runServer('fixtures', fixturesBin(), ['--conformance-fixtures']);
const plain = await runServer('ghgate', ghgateBin(), []);

// The fixture server: every failure listed, every listed check failing.
for (const [key, check] of withFixtures) {
  if (check.status === 'FAILURE' && !expected.has(key)) problems.push(`fixtures ${key}: unexpected failure: ${check.errorMessage ?? check.description}`);
}
for (const [key] of expected) {
  if (withFixtures.get(key)?.status !== 'FAILURE') problems.push(`fixtures ${key}: listed as an expected failure but ${withFixtures.has(key) ? 'did not fail' : 'did not run'}: remove it from ${LIST}`);
}
// Plain ghgate: a failure is the missing fixture's when the fixture server
// passes the check or fails it as listed.
const lacking = new Map();
for (const [key, check] of plain) {
  if (check.status !== 'FAILURE') continue;
  const there = withFixtures.get(key);
  const [suite, scenario] = key.split(' ');
  // A check the fixture server does not even report is a scenario's own
  // "the fixture is missing" check: accounted for when that scenario ran
  // there and every check of it passed or failed as listed.
  const scenarioClean = () => {
    const checks = [...withFixtures].filter(([k]) => k.startsWith(`${suite} ${scenario} `));
    return checks.length > 0 && checks.every(([k, c]) => c.status !== 'FAILURE' || expected.has(k));
  };
  if (there?.status === 'SUCCESS' || (there?.status === 'FAILURE' && expected.has(key)) || (!there && scenarioClean())) {
    lacking.set(`${suite} ${scenario}`, (lacking.get(`${suite} ${scenario}`) ?? 0) + 1);
    continue;
  }
  problems.push(`ghgate ${key}: fails without the fixtures and ${there ? `is ${there.status} with them` : 'did not run with them'}: ${check.errorMessage ?? check.description}`);
}
const lackingTotal = [...lacking.values()].reduce((a, b) => a + b, 0);
console.log(`conformance [ghgate]: ${lackingTotal} failing check(s) in ${lacking.size} scenario(s) need only the suites' fixtures (the fixture server passes them, or fails them as listed)`);
for (const [scenario, n] of [...lacking].sort()) console.log(`  fixtures only  ${scenario}: ${n}`);

if (problems.length > 0) {
  console.error(`\nconformance: ${problems.length} problem(s):`);
  for (const p of problems) console.error(`  - ${p}`);
  console.error(`(scenario results and suite logs kept in ${work})`);
  process.exit(1);
}
if (!process.env.CONFORMANCE_KEEP) rmSync(work, { recursive: true, force: true });
console.log('conformance: every check passed or failed as listed (gated or not)');
