// Credentials, scopes and 429 retries against a real posekit secured by API keys with a rate limit
// (POSEKIT_SECURED_URL: clients/test.sh starts it, tenant acme, the keys below, 1 request/s with a burst of 3).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Posekit, PosekitError } from '../src/index.js';
import { asset, haveAssets, sha256 } from './support.js';

const url = process.env.POSEKIT_SECURED_URL;
const RW = `pk_${'a'.repeat(43)}`;
const RO = `pk_${'b'.repeat(43)}`;

function recording(statuses: number[]): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    statuses.push(response.status);
    return response;
  };
}

describe('against a secured posekit', { skip: !url && 'POSEKIT_SECURED_URL not set (clients/test.sh sets it)' }, () => {
  it('no key: a 401 PosekitError with the problem', async () => {
    await assert.rejects(new Posekit({ baseUrl: url! }).list(), (e: unknown) => {
      assert.ok(e instanceof PosekitError);
      assert.equal(e.status, 401);
      assert.equal(e.problem.status, 401);
      assert.ok(e.detail.length > 0 && e.requestId);
      return true;
    });
  });

  it('a read-only key cannot upload (403 naming the scope); the read+write key can', { skip: !haveAssets && 'conformance assets absent' }, async () => {
    const fox = asset('gltf/Fox/Fox.glb');
    await assert.rejects(new Posekit({ baseUrl: url!, apiKey: RO }).upload({ name: 'Fox.glb', data: fox }),
      (e: unknown) => e instanceof PosekitError && e.status === 403 && e.detail.includes('posekit:write'));
    const writer = new Posekit({ baseUrl: url!, apiKey: RW });
    assert.equal((await writer.upload({ name: 'Fox.glb', data: fox })).asset.id, sha256(fox));
  });

  it('the token provider is asked again after a 401', async () => {
    const asked: boolean[] = [];
    await new Posekit({ baseUrl: url!, token: ({ refresh }) => { asked.push(refresh); return refresh ? RW : `pk_${'c'.repeat(43)}`; } }).list();
    assert.deepEqual(asked, [false, true]);
  });

  it("429s are retried after the service's Retry-After, and bounded", async () => {
    await assert.rejects(async () => {
      const c = new Posekit({ baseUrl: url!, apiKey: RW, retries: 0 });
      for (let i = 0; i < 10; i++) await c.list(); // the bucket holds 3 and refills 1 a second
    }, (e: unknown) => e instanceof PosekitError && e.status === 429 && (e.retryAfter ?? 0) >= 1);
    const statuses: number[] = [];
    const c = new Posekit({ baseUrl: url!, apiKey: RW, fetch: recording(statuses) });
    const started = performance.now();
    for (let i = 0; i < 3; i++) await c.list();
    assert.equal(statuses.filter((s) => s === 200).length, 3);
    assert.ok(statuses.includes(429), JSON.stringify(statuses));
    assert.ok(performance.now() - started >= 1000);
    await assert.rejects(async () => {
      const capped = new Posekit({ baseUrl: url!, apiKey: RW, maxRetryDelayMs: 500 });
      for (let i = 0; i < 10; i++) await capped.list();
    }, (e: unknown) => e instanceof PosekitError && e.status === 429);
  });
});
