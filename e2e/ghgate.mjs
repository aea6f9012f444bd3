// Helpers shared by the end-to-end scripts: start `ghgate serve` over
// streamable HTTP, or the GitHub emulator, on a free loopback port and
// stop it again by its pid; read a tool result as a client decodes it.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';

// The binary under test; the Makefile builds it and passes its path.
export function ghgateBin() {
  const bin = process.env.GHGATE_BIN;
  if (!bin) throw new Error('GHGATE_BIN is not set: build ghgate and point GHGATE_BIN at it (make e2e does both)');
  return bin;
}

// spawnListening runs ghgate with args and resolves once its stderr has
// logged a URL matching pattern (group 1): a process that listens on
// 127.0.0.1:0 says where the kernel put it. Resolves to { url, pid,
// stop(), stderr(), stdout() }; stop sends SIGTERM, then SIGKILL after 10 s.
function spawnListening(bin, args, pattern, { timeoutMs = 20000 } = {}) {
  const child = spawn(bin, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, GITHUB_TOKEN: '', GH_TOKEN: '' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => { stdout += d; });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const url = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`ghgate ${args[0]} did not report its URL within ${timeoutMs} ms; stderr:\n${stderr}`)), timeoutMs);
    child.stderr.on('data', (d) => {
      stderr += d;
      const m = pattern.exec(stderr);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    });
    exited.then(({ code, signal }) => { clearTimeout(timer); reject(new Error(`ghgate ${args[0]} exited early (code ${code}, signal ${signal}); stderr:\n${stderr}`)); });
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) process.kill(child.pid, 'SIGTERM');
    let timer;
    const res = await Promise.race([exited, new Promise((r) => { timer = setTimeout(() => r(null), 10000); })]);
    clearTimeout(timer);
    if (res === null) { process.kill(child.pid, 'SIGKILL'); return exited; }
    return res;
  };
  return url.then(
    (u) => ({ url: u, pid: child.pid, stop, stderr: () => stderr, stdout: () => stdout }),
    async (err) => { await stop(); throw err; },
  );
}

// startHTTP runs `ghgate serve <args> --http 127.0.0.1:0`: the kernel picks
// a free port (no window in which another process could take it) and
// ghgate logs the URL it listens on, which is read from its stderr.
// Resolves to { url, pid, stop(), stderr() }.
export function startHTTP(args = ['--demo'], { timeoutMs = 20000, bin = ghgateBin() } = {}) {
  return spawnListening(bin, ['serve', ...args, '--http', '127.0.0.1:0'], /url=(http:\/\/127\.0\.0\.1:\d+\/mcp)/, { timeoutMs });
}

// startEmulator runs `ghgate emulator` (the demo seed) on a free loopback
// port, for a test that points `serve --config` at it and reads back what
// was written. Resolves like startHTTP, url being the API's base URL.
export function startEmulator(args = [], { timeoutMs = 20000, bin = ghgateBin() } = {}) {
  return spawnListening(bin, ['emulator', ...args, '--listen', '127.0.0.1:0'], /emulator listening"? url=(http:\/\/127\.0\.0\.1:\d+)/, { timeoutMs });
}

// textOf returns a result's single text block; the contract says the
// text carries the same JSON as structuredContent.
export function textOf(res) {
  assert.equal(res.content?.length, 1, `one content block: ${JSON.stringify(res)}`);
  assert.equal(res.content[0].type, 'text');
  return res.content[0].text;
}

export function assertMirrors(res) {
  assert.ok(res.structuredContent && typeof res.structuredContent === 'object', 'structuredContent present');
  assert.deepEqual(res.structuredContent, JSON.parse(textOf(res)), 'structuredContent equals the parsed text block');
}
