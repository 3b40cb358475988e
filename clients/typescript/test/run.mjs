// Runs the tests against a real posekit: POSEKIT_URL when set, else the service jar (../../target/posekit*.jar, or
// POSEKIT_JAR) started here on a free port with a temporary store, and stopped after.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../../..');
const testFiles = readdirSync(join(here, '../dist/test')).filter((f) => f.endsWith('.test.js')).map((f) => join(here, '../dist/test', f));

let server;
let store;
let url = process.env.POSEKIT_URL;
if (!url) {
  const jar = process.env.POSEKIT_JAR
    ?? join(root, 'target', 'posekit.jar');
  if (!jar || !existsSync(jar)) {
    console.error('no service jar: build it (./mvnw -DskipTests -Dposekit.aot.skip package) or set POSEKIT_URL');
    process.exit(2);
  }
  const port = await new Promise((ok) => { const s = createServer().listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => ok(p)); }); });
  store = mkdtempSync(join(tmpdir(), 'posekit-client-store-'));
  const java = process.env.JAVA_HOME ? join(process.env.JAVA_HOME, 'bin', 'java') : 'java';
  server = spawn(java, ['-jar', jar, `--server.port=${port}`, '--server.address=127.0.0.1', `--posekit.store.dir=${store}`, '--posekit.warm-up.duration=0', '--posekit.warm-up.rounds=0'], { stdio: ['ignore', 'ignore', 'inherit'] });
  url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (server.exitCode !== null) { console.error(`the service exited with ${server.exitCode}`); process.exit(2); }
    try { if ((await fetch(`${url}/api/v1/assets`)).ok) break; } catch { /* not up yet */ }
    if (Date.now() > deadline) { console.error('the service did not start in 120 s'); server.kill(); process.exit(2); }
    await new Promise((r) => setTimeout(r, 250));
  }
}
const child = spawn(process.execPath, ['--test', '--test-concurrency=1', ...testFiles], { stdio: 'inherit', env: { ...process.env, POSEKIT_URL: url } });
const code = await new Promise((ok) => child.on('exit', (c) => ok(c ?? 1)));
if (server) {
  server.kill('SIGTERM');
  await new Promise((ok) => server.once('exit', ok));
  rmSync(store, { recursive: true, force: true });
}
process.exit(code);
