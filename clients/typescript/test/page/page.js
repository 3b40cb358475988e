// Runs in headless Chromium, served on the service's own origin (test/three.browser.test.ts): the binding's drawn
// vertices against posekit's skinned vertices, and the frame cost of driving ten characters.
import { Vector3 } from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { DRACOLoader } from 'three/addons/loaders/DRACOLoader.js';
import { Posekit } from '/__posekit_client/dist/src/index.js';
import { PosekitCharacter, loadPosed } from '/__posekit_client/dist/src/three.js';

const client = new Posekit({ baseUrl: location.origin });

// three.js's Draco decoder (Google's, as WebAssembly) from the three package, for posekit's compress=draco exports
const draco = new DRACOLoader().setDecoderPath('/__posekit_client/three/examples/jsm/libs/draco/gltf/');

/** A conformance asset by its path, or any URL (posekit's animated.glb, also Draco-compressed). */
async function load(file) {
  return new GLTFLoader().setDRACOLoader(draco)
    .loadAsync(file.startsWith('/') ? file : `/__posekit_client/assets/${file}`);
}

/**
 * For each sampling: drive the loaded glTF by posekit's matrices, then skin every vertex as three.js does
 * (SkinnedMesh.getVertexPosition, then the mesh's matrixWorld: what the GPU draws) and compare with posekit's
 * skinned positions of the same primitive.
 */
async function compare(file, id, samplings, unordered = false) {
  const gltf = await load(file);
  const asset = client.asset(id);
  const character = await PosekitCharacter.bind(asset, gltf.scene, { parser: gltf.parser });
  const meshes = [];
  gltf.scene.traverse((o) => { if (o.isSkinnedMesh) meshes.push(o); });
  const out = [];
  for (const sampling of samplings) {
    await character.update(sampling);
    gltf.scene.updateMatrixWorld(true); // what the renderer does each frame: the driven bones must keep their pose
    const skinned = await asset.skinned(0, { ...sampling, attributes: 'position', format: 'float32' });
    let maxError = 0;
    let extent = 0;
    let vertices = 0;
    let meshesChecked = 0;
    const v = new Vector3();
    for (const mesh of meshes) {
      const primitive = gltf.parser.associations.get(mesh)?.primitives ?? 0;
      const block = skinned.groups[primitive][0];
      const count = mesh.geometry.attributes.position.count;
      if (unordered) {
        // a Draco stream merges equal vertices and orders them its own way: each vertex three draws against the
        // nearest of posekit's, and each of posekit's against the nearest drawn (max over the components)
        const drawn = [];
        for (let i = 0; i < count; i++) drawn.push(mesh.getVertexPosition(i, new Vector3()).applyMatrix4(mesh.matrixWorld));
        const ours = [];
        for (let i = 0; i < block.count; i++) {
          ours.push(new Vector3().fromArray(skinned.data, block.offset + 3 * i));
          for (let c = 0; c < 3; c++) extent = Math.max(extent, Math.abs(skinned.data[block.offset + 3 * i + c]));
        }
        const nearest = (p, set) => set.reduce((best, q) => Math.min(best, Math.max(Math.abs(p.x - q.x),
          Math.abs(p.y - q.y), Math.abs(p.z - q.z))), Infinity);
        for (const p of drawn) maxError = Math.max(maxError, nearest(p, ours));
        for (const p of ours) maxError = Math.max(maxError, nearest(p, drawn));
        vertices += block.count;
        meshesChecked++;
        continue;
      }
      if (block.count !== count) throw new Error(`primitive ${primitive}: posekit ${block.count} vertices, three ${count}`);
      for (let i = 0; i < count; i++) {
        mesh.getVertexPosition(i, v).applyMatrix4(mesh.matrixWorld);
        for (let c = 0; c < 3; c++) {
          const expected = skinned.data[block.offset + 3 * i + c];
          maxError = Math.max(maxError, Math.abs(v.getComponent(c) - expected));
          extent = Math.max(extent, Math.abs(expected));
        }
      }
      vertices += count;
      meshesChecked++;
    }
    out.push({ sampling, maxError, extent, vertices, meshes: meshesChecked, skins: character.drivers.length,
      joints: character.drivers.map((d) => d.bones.length) });
  }
  return out;
}

function stats(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)], p95: s[Math.floor(s.length * 0.95)], mean: s.reduce((a, b) => a + b, 0) / s.length };
}

/**
 * Ten characters, one matrices request each per frame (HTTP/1.1 keep-alive, the browser's 6 connections per host),
 * frames back to back: the frame's wall time with the client and binding, with bare fetch (the same requests, the
 * bytes read, nothing applied), and the binding's apply alone.
 */
let prepared;

/** Loads and binds the characters (before the test stops intercepting the page's requests). */
async function prepare(file, id, clip, characters) {
  const asset = new Posekit({ baseUrl: location.origin, cacheBytes: 0 }).asset(id);
  const summary = await asset.summary();
  const chars = [];
  for (let c = 0; c < characters; c++) {
    const gltf = await load(file);
    chars.push(await PosekitCharacter.bind(asset, gltf.scene, { summary, parser: gltf.parser }));
  }
  prepared = { id, clip, chars };
  return chars.length;
}

async function frameCost(frames) {
  const { id, clip, chars } = prepared;
  const characters = chars.length;
  const time = (f, c) => (f / 60 + c * 0.05) % 10;
  const withClient = [];
  const bare = [];
  const apply = [];
  const url = (f, c) => `${location.origin}/api/v1/assets/${id}/skins/0/matrices?clip=${encodeURIComponent(clip)}&time=${time(f, c)}&loop=repeat`;
  for (let round = 0; round < 2; round++) { // the first round warms up both paths; the second is measured
    for (let f = 0; f < frames; f++) {
      let t0 = performance.now();
      await Promise.all(chars.map((ch, c) => ch.update({ clip, time: time(f, c), loop: 'repeat' })));
      if (round) withClient.push(performance.now() - t0);
      t0 = performance.now();
      await Promise.all(chars.map((_, c) => fetch(url(f + 0.5, c), { headers: { Accept: 'application/octet-stream' } }).then((r) => r.arrayBuffer())));
      if (round) bare.push(performance.now() - t0);
    }
  }
  const matrices = new Float32Array(chars[0].drivers[0].bones.length * 16);
  for (let i = 0; i < 16 * chars[0].drivers[0].bones.length; i += 16) matrices[i] = matrices[i + 5] = matrices[i + 10] = matrices[i + 15] = 1;
  for (let f = 0; f < frames; f++) {
    const t0 = performance.now();
    for (const ch of chars) ch.drivers[0].apply(matrices);
    apply.push(performance.now() - t0);
  }
  return { characters, frames, withClient: stats(withClient), bare: stats(bare), apply: stats(apply) };
}

/** posed.glb as a static mesh: its vertex count and bounding box. */
async function posed(id, sampling) {
  const scene = await loadPosed(client.asset(id), sampling);
  let vertices = 0;
  let skinnedMeshes = 0;
  scene.traverse((o) => {
    if (o.isMesh) vertices += o.geometry.attributes.position.count;
    if (o.isSkinnedMesh) skinnedMeshes++;
  });
  return { vertices, skinnedMeshes };
}

window.posekitTest = { compare, prepare, frameCost, posed };
