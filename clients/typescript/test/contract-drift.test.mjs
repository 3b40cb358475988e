// The types the client is built from (src/openapi.d.ts, committed so a contract change shows in review) must be
// what openapi-typescript makes of api-spec/openapi.yaml today: regenerate and compare. Runs before the build,
// which regenerates them in place.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '..');

test('src/openapi.d.ts is api-spec/openapi.yaml regenerated (no drift)', () => {
  const out = mkdtempSync(join(tmpdir(), 'posekit-drift-'));
  try {
    const script = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')).scripts.generate;
    const args = script.split(' ').slice(1).map((a) => (a === 'src/openapi.d.ts' ? join(out, 'openapi.d.ts') : a));
    execFileSync(join(pkg, 'node_modules/.bin/openapi-typescript'), args, { cwd: pkg, stdio: 'pipe' });
    const fresh = readFileSync(join(out, 'openapi.d.ts'), 'utf8');
    const committed = readFileSync(join(pkg, 'src/openapi.d.ts'), 'utf8');
    assert.ok(fresh.includes('"/api/v1/assets/{id}/skins/{skin}/matrices"'), 'the generator read the contract');
    assert.equal(committed, fresh, 'api-spec/openapi.yaml changed: run `npm run generate` in clients/typescript and commit src/openapi.d.ts');
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
