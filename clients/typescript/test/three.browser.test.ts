// The three.js binding in headless Chromium against the running service: the page is served on the service's own
// origin (Playwright answers /__posekit_client/… from this package while the page loads, then stops intercepting,
// so the API requests measured go straight to posekit).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, extname, join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { Posekit } from '../src/index.js';
import { asset, assets, baseUrl, haveAssets } from './support.js';

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const pkg = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const PREFIX = '/__posekit_client/';
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.glb': 'model/gltf-binary' };

function local(path: string): string | undefined {
  const rest = path.slice(PREFIX.length);
  const [head, ...tail] = rest.split('/');
  const file = head === 'three' ? join(pkg, 'node_modules/three', ...tail)
    : head === 'assets' ? join(assets, ...tail)
      : join(pkg, head, ...tail);
  return existsSync(file) ? file : undefined;
}

const characters = [
  { name: 'Fox', file: 'gltf/Fox/Fox.glb', samplings: [{ clip: 'Survey', time: 1.5 }, { clip: 'Walk', time: 0.5 }, { clip: 'Run', time: 2.7, loop: 'repeat' }] },
  { name: 'CesiumMan', file: 'gltf/CesiumMan/CesiumMan.glb', samplings: [{ clip: 'animation_0', time: 0.7 }, { clip: 'animation_0', normalized: 0.9 }] },
  { name: 'BrainStem', file: 'gltf/BrainStem/BrainStem.glb', samplings: [{ clip: 'animation_0', time: 3.1 }, { clip: 'animation_0', time: 11.5, loop: 'pingpong' }] },
];

describe('three.js binding in headless Chromium', { skip: (!haveAssets && 'conformance assets absent') || (!existsSync(CHROMIUM) && `${CHROMIUM} absent`) }, () => {
  let browser: Browser;
  let page: Page;
  const ids: Record<string, string> = {};

  before(async () => {
    const client = new Posekit({ baseUrl });
    for (const c of characters) ids[c.name] = (await client.upload({ name: c.file.split('/').pop()!, data: asset(c.file) })).asset.id;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
    page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    const pattern = `${baseUrl}${PREFIX}**`;
    await page.route(pattern, async (route) => {
      const file = local(new URL(route.request().url()).pathname);
      if (!file) return route.fulfill({ status: 404, body: 'not found' });
      return route.fulfill({ status: 200, contentType: TYPES[extname(file)] ?? 'application/octet-stream', body: readFileSync(file) });
    });
    await page.goto(`${baseUrl}${PREFIX}test/page/index.html`);
    await page.waitForFunction(() => (window as unknown as { posekitTest?: unknown }).posekitTest !== undefined, undefined, { timeout: 30_000 }).catch((e) => {
      throw new Error(`the test page did not load: ${errors.join('; ') || e}`);
    });
  });

  after(async () => {
    await browser?.close();
  });

  for (const c of characters) {
    it(`${c.name}: three.js skins the driven mesh to posekit's skinned vertices (float32 tolerance)`, async () => {
      const results = await page.evaluate(([file, id, samplings]) => (window as never as { posekitTest: { compare: (f: string, i: string, s: unknown) => Promise<{ maxError: number; extent: number; vertices: number; meshes: number; skins: number; joints: number[] }[]> } })
        .posekitTest.compare(file as string, id as string, samplings), [c.file, ids[c.name], c.samplings] as const);
      assert.equal(results.length, c.samplings.length);
      for (const r of results) {
        // float32: posekit rounds its matrices and vertices to float32 (2⁻²⁴ relative each); three composes them in
        // doubles. A few ulps of the model's extent.
        const tolerance = r.extent * 2 ** -20;
        assert.ok(r.vertices > 0 && r.meshes > 0);
        assert.ok(r.maxError <= tolerance, `${c.name} ${JSON.stringify(r)}: max error ${r.maxError} > ${tolerance}`);
        console.log(`# ${c.name} ${JSON.stringify(r)}`);
      }
    });
  }

  it("Fox's animated.glb (posekit's export) is driven as the original is", async () => {
    const results = await page.evaluate(([id]) => (window as never as { posekitTest: { compare: (f: string, i: string, s: unknown) => Promise<{ maxError: number; extent: number; vertices: number }[]> } })
      .posekitTest.compare(`/api/v1/assets/${id}/animated.glb`, id, [{ clip: 'Walk', time: 0.25 }, { clip: 'Survey', normalized: 0.5 }]), [ids.Fox]);
    for (const r of results) {
      assert.equal(r.vertices, 1728);
      assert.ok(r.maxError <= r.extent * 2 ** -20, JSON.stringify(r));
    }
  });

  it("Fox's animated.glb with compress=draco decodes in three.js's DRACOLoader and is driven as the original is", async () => {
    const results = await page.evaluate(([id]) => (window as never as { posekitTest: { compare: (f: string, i: string, s: unknown, u: boolean) => Promise<{ maxError: number; extent: number; vertices: number }[]> } })
      .posekitTest.compare(`/api/v1/assets/${id}/animated.glb?compress=draco`, id, [{ clip: 'Walk', time: 0.25 }, { clip: 'Survey', normalized: 0.5 }], true), [ids.Fox]);
    for (const r of results) {
      assert.equal(r.vertices, 1728);
      // order-free (Draco merges equal vertices: 434 of Fox's 1,728), within Draco's quantization (positions 14 bits
      // over the mesh's box, weights 12 bits: docs/export.md), not float32: a few units of 2⁻¹⁴ of the extent; a
      // broken decode or attribute is off by the extent itself
      assert.ok(r.maxError > 0 && r.maxError <= r.extent * 2 ** -10, JSON.stringify(r));
      console.log(`# Fox draco ${JSON.stringify(r)}`);
    }
  });

  it('loads posed.glb as a static mesh', async () => {
    const r = await page.evaluate((id) => (window as never as { posekitTest: { posed: (i: string, s: unknown) => Promise<{ vertices: number; skinnedMeshes: number }> } })
      .posekitTest.posed(id, { clip: 'Walk', time: 0.3 }), ids.Fox);
    assert.deepEqual(r, { vertices: 1728, skinnedMeshes: 0 });
  });

  it('frame cost: 10 characters, one matrices request each per frame', async () => {
    type Page = { posekitTest: { prepare: (f: string, i: string, c: string, n: number) => Promise<number>; frameCost: (frames: number) => Promise<Record<string, unknown>> } };
    assert.equal(await page.evaluate(([id]) => (window as never as Page).posekitTest.prepare('gltf/Fox/Fox.glb', id, 'Run', 10), [ids.Fox]), 10);
    await page.unrouteAll(); // the measured requests go to posekit uninterrupted
    const r = await page.evaluate((frames) => (window as never as Page).posekitTest.frameCost(frames), Number(process.env.POSEKIT_FRAMES ?? 60));
    console.log(`# frame cost ${JSON.stringify(r)}`);
    const w = r.withClient as { median: number };
    assert.ok(w.median > 0 && w.median < 1000);
  });
});
