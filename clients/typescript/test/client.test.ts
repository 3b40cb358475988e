// The client against the real service (POSEKIT_URL; test/run.mjs starts one from the jar).
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it, before } from 'node:test';
import { Posekit, PosekitError, parseLayout, type JsonBakeFrame } from '../src/index.js';
import { asset, baseUrl, haveAssets, sha256 } from './support.js';

const FOX_CLIPS = "clip 'Jump' does not exist; clips: 'Survey', 'Walk', 'Run'";

/** Every request the client made: method, url, request headers, status. */
function recordingFetch(log: { method: string; url: string; headers: Headers; status: number }[]): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    log.push({ method: init?.method ?? 'GET', url: String(input), headers: new Headers(init?.headers), status: response.status });
    return response;
  };
}

/** The glTF JSON and BIN chunks of a GLB, as a .gltf naming `binName` and that .bin. */
function splitGlb(glb: Uint8Array, binName: string): { gltf: Uint8Array; bin: Uint8Array } {
  const view = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  const jsonLength = view.getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + jsonLength)));
  const binStart = 20 + jsonLength;
  const binLength = view.getUint32(binStart, true);
  const bin = glb.slice(binStart + 8, binStart + 8 + binLength);
  json.buffers[0].uri = binName;
  return { gltf: new TextEncoder().encode(JSON.stringify(json)), bin };
}

/** The several-file id: SHA-256 over each file in name order: UTF-8 name, 0, length as 8 bytes big-endian, bytes. */
function compositeId(files: { name: string; data: Uint8Array }[]): string {
  const parts: Uint8Array[] = [];
  for (const f of [...files].sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const length = new Uint8Array(8);
    new DataView(length.buffer).setBigUint64(0, BigInt(f.data.byteLength));
    parts.push(new TextEncoder().encode(f.name), new Uint8Array([0]), length, f.data);
  }
  return sha256(Buffer.concat(parts));
}

function crc32(bytes: Uint8Array): number {
  let crc = ~0;
  for (const b of bytes) {
    crc ^= b;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

/** A stored (uncompressed) zip of the files. */
function zip(files: { name: string; data: Uint8Array }[]): Uint8Array {
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const f of files) {
    const name = new TextEncoder().encode(f.name);
    const crc = crc32(f.data);
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true); local.setUint16(4, 20, true); local.setUint32(14, crc, true);
    local.setUint32(18, f.data.byteLength, true); local.setUint32(22, f.data.byteLength, true); local.setUint16(26, name.byteLength, true);
    const central = new DataView(new ArrayBuffer(46));
    central.setUint32(0, 0x02014b50, true); central.setUint16(4, 20, true); central.setUint16(6, 20, true); central.setUint32(16, crc, true);
    central.setUint32(20, f.data.byteLength, true); central.setUint32(24, f.data.byteLength, true); central.setUint16(28, name.byteLength, true);
    central.setUint32(42, offset, true);
    locals.push(new Uint8Array(local.buffer), name, f.data);
    centrals.push(new Uint8Array(central.buffer), name);
    offset += 30 + name.byteLength + f.data.byteLength;
  }
  const centralSize = centrals.reduce((n, c) => n + c.byteLength, 0);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true); end.setUint16(8, files.length, true); end.setUint16(10, files.length, true);
  end.setUint32(12, centralSize, true); end.setUint32(16, offset, true);
  return Buffer.concat([...locals, ...centrals, new Uint8Array(end.buffer)]);
}

/** A local HTTP server answering from a script, for what the real service cannot be made to do on demand. */
async function scripted(handler: (req: IncomingMessage, res: ServerResponse, n: number) => void): Promise<{ url: string; close: () => Promise<void>; requests: IncomingMessage[] }> {
  const requests: IncomingMessage[] = [];
  const server = createServer((req, res) => { requests.push(req); handler(req, res, requests.length); });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, requests, close: () => new Promise((ok) => { server.closeAllConnections(); server.close(() => ok()); }) };
}

const problem = (res: ServerResponse, status: number, headers: Record<string, string>, title: string) => {
  res.writeHead(status, { 'Content-Type': 'application/problem+json', ...headers });
  res.end(JSON.stringify({ type: 'about:blank', title, status, detail: `${title} (scripted)` }));
};

describe('posekit client against the service', { skip: !haveAssets && 'conformance assets absent' }, () => {
  const client = new Posekit({ baseUrl });
  const fox = asset('gltf/Fox/Fox.glb');
  const foxId = sha256(fox);

  before(async () => {
    await client.upload({ name: 'Fox.glb', data: fox });
  });

  it('uploads: the id is the SHA-256 of the file; 201 when new, 200 after', async () => {
    const cesium = asset('gltf/CesiumMan/CesiumMan.glb');
    const fresh = new Posekit({ baseUrl });
    const first = await fresh.upload(new File([cesium], 'CesiumMan.glb'));
    assert.equal(first.asset.id, sha256(cesium));
    assert.equal(first.asset.name, 'CesiumMan.glb');
    const again = await fresh.upload({ name: 'CesiumMan.glb', data: new Blob([cesium]) });
    assert.equal(again.asset.id, first.asset.id);
    assert.equal(again.created, false);
    const fox2 = await fresh.upload({ name: 'Fox.glb', data: fox });
    assert.equal(fox2.asset.id, foxId);
    assert.deepEqual(fox2.asset.clips.map((c) => c.name), ['Survey', 'Walk', 'Run']);
  });

  it('uploads a .gltf with its .bin companion, and both as one .zip: the same rig', async () => {
    const { gltf, bin } = splitGlb(fox, 'FoxSplit.bin');
    const files = [{ name: 'FoxSplit.gltf', data: gltf }, { name: 'FoxSplit.bin', data: bin }];
    const split = await client.upload(...files);
    assert.equal(split.asset.id, compositeId(files));
    const zipped = zip(files);
    const fromZip = await client.upload({ name: 'FoxSplit.zip', data: zipped });
    assert.equal(fromZip.asset.id, sha256(zipped));
    const sampling = { clip: 'Walk', time: 0.5 } as const;
    const expected = (await client.asset(foxId).matrices(0, sampling)).matrices;
    assert.deepEqual((await client.asset(split.asset.id).matrices(0, sampling)).matrices, expected);
    assert.deepEqual((await client.asset(fromZip.asset.id).matrices(0, sampling)).matrices, expected);
  });

  it('float32 matrices equal the JSON route numbers, laid out as the Posekit-Layout header says', async () => {
    const a = client.asset(foxId);
    const json = await a.matrices(0, { clip: 'Run', time: 2.7, loop: 'repeat' });
    const bin = await a.matrices(0, { clip: 'Run', time: 2.7, loop: 'repeat', format: 'float32' });
    assert.equal(bin.layout, 'matrix:24x16');
    assert.deepEqual(bin.groups, [[{ name: 'matrix', count: 24, components: 16, offset: 0 }]]);
    assert.equal(json.joints.length, 24);
    assert.deepEqual(Array.from(bin.data), json.matrices.flat().map(Math.fround));
    const run = 1.1583333015441895; // Run's duration: repeat samples t − d·floor(t/d)
    assert.equal(json.localTime, 2.7 - run * Math.floor(2.7 / run));
  });

  it('time units, layers (as GET query and POST body) and root motion reach the service', async () => {
    const a = client.asset(foxId);
    assert.equal((await a.pose({ clip: 'Walk', frame: 15, fps: 30 })).localTime, 0.5);
    const byFrame = await a.matrices(0, { clip: 'Walk', frame: 15, fps: 30 });
    const byTime = await a.matrices(0, { clip: 'Walk', time: 0.5 });
    assert.deepEqual(byFrame.matrices, byTime.matrices);
    const layers = [{ clip: 'Walk', weight: 0.7, mode: 'normal' as const }, { clip: 'Survey', weight: 1, mode: 'normal' as const, mask: ['b_Neck_04'] }];
    const viaGet = await a.pose({ layers, normalized: 0.4, loop: 'repeat', space: 'model' });
    const viaPost = await a.pose({ layers, normalized: 0.4, loop: 'repeat', space: 'model', ik: [] });
    assert.deepEqual(viaGet.layers?.map((l) => [l.clip, l.weight]), [['Walk', 0.7], ['Survey', 1]]);
    assert.deepEqual(viaGet.nodes, viaPost.nodes);
    const walkOnly = await a.pose({ clip: 'Walk', normalized: 0.4, loop: 'repeat', space: 'model' });
    assert.notDeepEqual(viaGet.nodes, walkOnly.nodes);
    const moved = await a.pose({ clip: 'Walk', time: 2.5, loop: 'repeat', rootMotion: 'extract', rootComponents: ['horizontal', 'yaw'], previousTime: 2.4 });
    assert.deepEqual(moved.rootMotion?.components, ['horizontal', 'yaw']);
    assert.equal(moved.rootMotion?.loops, 3);
  });

  it('skinned vertices: float32 equals JSON; a GLB comes back as glTF binary', async () => {
    const cesium = await client.upload({ name: 'CesiumMan.glb', data: asset('gltf/CesiumMan/CesiumMan.glb') });
    const a = client.asset(cesium.asset.id);
    const json = await a.skinned(0, { clip: 'animation_0', time: 1, attributes: 'position,normal' });
    const bin = await a.skinned(0, { clip: '0', time: 1, attributes: 'position,normal', format: 'float32' });
    assert.equal(json.primitives.length, 1);
    const p = json.primitives[0];
    assert.equal(bin.layout, `position:${p.vertexCount}x3,normal:${p.vertexCount}x3`);
    const [pos, nrm] = bin.groups[0];
    assert.deepEqual(Array.from(bin.data.subarray(pos.offset, pos.offset + pos.count * 3)), p.positions!.map(Math.fround));
    assert.deepEqual(Array.from(bin.data.subarray(nrm.offset, nrm.offset + nrm.count * 3)), p.normals!.map(Math.fround));
    const glb = new Uint8Array(await a.skinned(0, { clip: '0', time: 1, format: 'glb' }));
    assert.equal(new TextDecoder().decode(glb.subarray(0, 4)), 'glTF');
  });

  it('posed and animated GLBs and the render are what their headers say', async () => {
    const a = client.asset(foxId);
    const posed = new DataView(await a.posedGlb({ clip: 'Survey', time: 1.5 }));
    assert.equal(posed.getUint32(0, true), 0x46546c67); // 'glTF'
    assert.equal(posed.getUint32(4, true), 2);
    assert.equal(posed.getUint32(8, true), posed.byteLength);
    const animated = new DataView(await a.animatedGlb({ clips: 'Walk' }));
    assert.equal(animated.getUint32(0, true), 0x46546c67);
    assert.equal(animated.getUint32(8, true), animated.byteLength);
    const png = await a.render({ clip: 'Walk', time: 0.3, width: 64, height: 48, view: 'side' });
    assert.deepEqual(Array.from(png.subarray(0, 8)), [137, 80, 78, 71, 13, 10, 26, 10]);
    const ihdr = new DataView(png.buffer, png.byteOffset + 16, 8);
    assert.deepEqual([ihdr.getUint32(0), ihdr.getUint32(4)], [64, 48]);
  });

  it('bakes stream frames: NDJSON and binary equal the single-frame route', async () => {
    const a = client.asset(foxId);
    const spec = { clip: 'Walk', times: { start: 0, end: 0.7083, fps: 30 }, outputs: ['skinningMatrices', 'bounds'] } as const;
    const frames: JsonBakeFrame[] = [];
    for await (const f of a.bake({ ...spec, outputs: [...spec.outputs] })) frames.push(f);
    assert.equal(frames.length, 23); // 0, 1/30 … 21/30, then 0.7083 itself
    assert.equal(frames[22].time, 0.7083);
    let n = 0;
    for await (const f of a.bake({ ...spec, outputs: [...spec.outputs] }, { format: 'binary' })) {
      assert.equal(f.frame, n);
      assert.equal(f.time, Math.fround(frames[n].time));
      const ndjson = (frames[n].skinningMatrices as { skin: number; values: number[] }[])[0].values;
      assert.deepEqual(Array.from(f.block('skinningMatrices', { skin: 0 })), ndjson.map(Math.fround));
      n++;
    }
    assert.equal(n, 23);
    const single = await a.matrices(0, { clip: 'Walk', time: frames[7].time, format: 'float32' });
    const bake7 = (frames[7].skinningMatrices as { values: number[] }[])[0].values;
    assert.deepEqual(Array.from(single.data), bake7.map(Math.fround));
  });

  it('retargets, adds clips and makes a clip in place: new assets with their reports', async () => {
    const figure = await client.upload({ name: 'RiggedFigure.glb', data: asset('gltf/RiggedFigure/RiggedFigure.glb') });
    const cesium = await client.upload({ name: 'CesiumMan.glb', data: asset('gltf/CesiumMan/CesiumMan.glb') });
    const r = await client.asset(figure.asset.id).retarget({ source: cesium.asset.id });
    assert.notEqual(r.asset?.id, figure.asset.id);
    assert.deepEqual(r.report?.clips?.map((c) => c.sourceName), ['animation_0']);
    const added = await client.asset(foxId).clips({ name: 'Fox.glb', data: fox });
    assert.deepEqual(added.clips?.map((c) => c.name), ['Survey (2)', 'Walk (2)', 'Run (2)']);
    const inPlace = await client.asset(foxId).inPlace('Walk');
    assert.equal(inPlace.clip, 'Walk (in place)');
    assert.equal(inPlace.topNode, 'root');
    assert.deepEqual(inPlace.asset?.clips.map((c) => c.name), ['Survey', 'Walk', 'Run', 'Walk (in place)']);
  });

  it('errors are PosekitError with the problem fields', async () => {
    const a = client.asset(foxId);
    await assert.rejects(a.pose({ clip: 'Jump' }), (e: unknown) => {
      assert.ok(e instanceof PosekitError);
      assert.equal(e.status, 404);
      assert.equal(e.title, 'Unknown clip');
      assert.equal(e.detail, FOX_CLIPS);
      assert.equal(e.instance, `/api/v1/assets/${foxId}/pose`);
      assert.match(e.requestId ?? '', /^[0-9a-f]{16}$/);
      return true;
    });
    await assert.rejects(a.pose({ clip: 'Walk', time: 1, frame: 3, fps: 30 }), (e: unknown) => {
      assert.ok(e instanceof PosekitError);
      assert.equal(e.status, 400);
      assert.equal(e.problem.status, 400);
      assert.match(e.detail, /time/);
      return true;
    });
    await assert.rejects(client.asset('0'.repeat(64)).summary(), (e: unknown) => e instanceof PosekitError && e.status === 404);
    await assert.rejects(client.upload({ name: 'broken.glb', data: new Uint8Array([1, 2, 3]) }), (e: unknown) => e instanceof PosekitError && e.status >= 400 && e.status < 500 && e.detail.length > 0);
  });

  it('revalidates immutable answers with their ETag: 304 served from the cache, the same bytes', async () => {
    const log: { method: string; url: string; headers: Headers; status: number }[] = [];
    const c = new Posekit({ baseUrl, fetch: recordingFetch(log) });
    const first = await c.asset(foxId).matrices(0, { clip: 'Walk', time: 0.25, format: 'float32' });
    const second = await c.asset(foxId).matrices(0, { clip: 'Walk', time: 0.25, format: 'float32' });
    assert.deepEqual(log.map((r) => r.status), [200, 304]);
    assert.equal(log[0].headers.get('If-None-Match'), null);
    assert.match(log[1].headers.get('If-None-Match') ?? '', /^"[0-9a-f]+"$/);
    assert.deepEqual(second.data, first.data);
    assert.equal(second.layout, 'matrix:24x16');
    const none = new Posekit({ baseUrl, fetch: recordingFetch(log), cacheBytes: 0 });
    await none.asset(foxId).matrices(0, { clip: 'Walk', time: 0.25 });
    assert.equal(log[2].headers.get('If-None-Match'), null);
  });

  it('streams a bake: the first frame arrives before the rest, and aborting stops it', async () => {
    const controller = new AbortController();
    const frames = client.asset(foxId).bake({ clip: 'Run', loop: 'repeat', times: { start: 0, end: 200, fps: 60 }, outputs: ['modelPose'] }, { signal: controller.signal });
    const first = await frames.next();
    assert.equal(first.done, false);
    assert.equal((first.value as { frame: number }).frame, 0);
    controller.abort();
    await assert.rejects(async () => { for await (const _ of frames) { /* drain */ } }, { name: 'AbortError' });
  });

  it('cancels with an AbortSignal', async () => {
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(client.asset(foxId).summary({ signal: controller.signal }), { name: 'AbortError' });
  });
});

describe('retries, auth (scripted server: the service cannot be made to answer 429 on demand)', () => {
  it('retries 429 and 503 honouring Retry-After, then succeeds', async () => {
    const s = await scripted((_req, res, n) => {
      if (n === 1) return problem(res, 429, { 'Retry-After': '1' }, 'Too many requests');
      if (n === 2) return problem(res, 503, { 'Retry-After': '0' }, 'Busy');
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"assets":[]}');
    });
    try {
      const started = performance.now();
      const list = await new Posekit({ baseUrl: s.url }).list();
      assert.deepEqual(list, { assets: [] });
      assert.equal(s.requests.length, 3);
      assert.ok(performance.now() - started >= 1000, 'waited the Retry-After second');
    } finally { await s.close(); }
  });

  it('gives up after the bounded retries, and at once on a Retry-After beyond the cap', async () => {
    const s = await scripted((_req, res) => problem(res, 429, { 'Retry-After': '0' }, 'Too many requests'));
    try {
      await assert.rejects(new Posekit({ baseUrl: s.url, retries: 2 }).list(), (e: unknown) => e instanceof PosekitError && e.status === 429 && e.retryAfter === 0);
      assert.equal(s.requests.length, 3);
    } finally { await s.close(); }
    const t = await scripted((_req, res) => problem(res, 503, { 'Retry-After': '120' }, 'Busy'));
    try {
      await assert.rejects(new Posekit({ baseUrl: t.url, maxRetryDelayMs: 5000 }).list(), (e: unknown) => e instanceof PosekitError && e.status === 503 && e.retryAfter === 120);
      assert.equal(t.requests.length, 1);
    } finally { await t.close(); }
  });

  it('sends the API key, and asks the token provider again after a 401', async () => {
    const s = await scripted((req, res) => {
      if (req.headers.authorization !== 'Bearer fresh') return problem(res, 401, { 'WWW-Authenticate': 'Bearer error="invalid_token"' }, 'Unauthorized');
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"assets":[]}');
    });
    try {
      await assert.rejects(new Posekit({ baseUrl: s.url, apiKey: 'pk_test' }).list(), (e: unknown) => e instanceof PosekitError && e.status === 401);
      assert.equal(s.requests[0].headers.authorization, 'Bearer pk_test');
      const asked: boolean[] = [];
      const c = new Posekit({ baseUrl: s.url, token: ({ refresh }) => { asked.push(refresh); return refresh ? 'fresh' : 'stale'; } });
      assert.deepEqual(await c.list(), { assets: [] });
      assert.deepEqual(asked, [false, true]);
    } finally { await s.close(); }
  });

  it('parses Posekit-Layout headers with several primitives', () => {
    assert.deepEqual(parseLayout('position:2x3,normal:2x3;position:1x3'), [
      [{ name: 'position', count: 2, components: 3, offset: 0 }, { name: 'normal', count: 2, components: 3, offset: 6 }],
      [{ name: 'position', count: 1, components: 3, offset: 12 }],
    ]);
    assert.throws(() => parseLayout('matrix:24by16'), /unreadable/);
  });
});
