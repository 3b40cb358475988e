// three.js (GLTFLoader with its DRACOLoader, the decoding done by Google's decoder from npm draco3dgltf through
// tools/gltf-pipeline/draco.mjs, since Node has no web workers) loads every compress=draco export in OUT_DIR that
// ExportDracoFiles wrote, and compares each Draco primitive's indices and attributes, as three decodes them (normalized
// integers read as three reads them, float weights normalized as three does), with what posekit's own importer decoded
// (<file>.posekit.json). Prints a Markdown table; exits 1 when a file does not load, a primitive is missing, the
// indices differ or a value differs by more than 1e-6.
//
//   node check.mjs OUT_DIR
import fs from 'node:fs';
import path from 'node:path';
import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { DRACOLoader } from 'three/examples/jsm/loaders/DRACOLoader.js';
import draco3d from 'draco3dgltf';
import { NodeDracoLoader } from '../gltf-pipeline/draco.mjs';

if (typeof globalThis.self === 'undefined') globalThis.self = globalThis;
// three's FileLoader (the .gltf's data: URI buffer, through fetch) reports progress with the DOM's ProgressEvent
if (typeof globalThis.ProgressEvent === 'undefined') {
  globalThis.ProgressEvent = class ProgressEvent extends Event {
    constructor(type, init = {}) { super(type); Object.assign(this, init); }
  };
}
const out = process.argv[2];
const dracoLoader = new NodeDracoLoader(DRACOLoader, await draco3d.createDecoderModule({}));
const THREE_NAMES = { position: 'POSITION', normal: 'NORMAL', tangent: 'TANGENT', uv: 'TEXCOORD_0', uv1: 'TEXCOORD_1',
  uv2: 'TEXCOORD_2', color: 'COLOR_0', skinIndex: 'JOINTS_0', skinWeight: 'WEIGHTS_0' };
const TOLERANCE = 1e-6;

function parse(data) {
  const loader = new GLTFLoader();
  loader.setDRACOLoader(dracoLoader);
  // textures are not decoded (no DOM): every texture is null
  loader.register(() => ({ name: 'POSEKIT_no_textures', loadTexture: () => Promise.resolve(null) }));
  return new Promise((resolve, reject) => loader.parse(data, '', resolve, reject));
}

let failed = 0;
console.log('| file | Draco primitives | triangles | vertices | attributes compared | largest difference |');
console.log('|---|---:|---:|---:|---:|---:|');
const files = fs.readdirSync(out).filter((f) => /\.(glb|gltf)$/.test(f)).sort();
for (const file of files) {
  const expected = JSON.parse(fs.readFileSync(path.join(out, file + '.posekit.json'), 'utf8'));
  const buf = fs.readFileSync(path.join(out, file));
  const data = file.endsWith('.glb') ? buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) : buf.toString('utf8');
  const problems = [];
  let gltf;
  try {
    gltf = await parse(data);
  } catch (e) {
    console.log(`| ${file} | three could not load it: ${e.message} | | | | |`);
    failed++;
    continue;
  }
  const json = gltf.parser.json;
  if (!(json.extensionsRequired || []).includes('KHR_draco_mesh_compression')) problems.push('KHR_draco_mesh_compression is not required');
  const wanted = new Set();
  json.meshes.forEach((m, i) => m.primitives.forEach((p, j) => {
    if (p.extensions && p.extensions.KHR_draco_mesh_compression) wanted.add(`${i}/${j}`);
  }));
  const seen = new Set();
  let triangles = 0;
  let vertices = 0;
  let compared = 0;
  let worst = 0;
  gltf.scene.traverse((o) => {
    if (!o.isMesh) return;
    const a = gltf.parser.associations.get(o);
    if (!a || a.meshes === undefined) return;
    const key = `${a.meshes}/${a.primitives}`;
    if (!wanted.has(key) || seen.has(key)) return;
    seen.add(key);
    const mine = expected.meshes.find((m) => m.mesh === a.meshes)?.primitives[a.primitives];
    if (!mine) { problems.push(`mesh ${key}: posekit has no such primitive`); return; }
    const g = o.geometry;
    const index = g.index ? Array.from(g.index.array) : null;
    if (!index || !mine.indices || index.length !== mine.indices.length || index.some((v, i) => v !== mine.indices[i])) {
      problems.push(`mesh ${key}: the indices differ (three ${index && index.length}, posekit ${mine.indices && mine.indices.length})`);
      return;
    }
    triangles += index.length / 3;
    vertices += g.attributes.position.count;
    for (const [threeName, name] of Object.entries(THREE_NAMES)) {
      const values = mine[name];
      const attr = g.attributes[threeName];
      if (!values && !attr) continue;
      if (!values || !attr) { problems.push(`mesh ${key}: ${name} only in ${values ? 'posekit' : 'three'}`); continue; }
      const width = attr.itemSize;
      if (attr.count * width !== values.length) { problems.push(`mesh ${key}: ${name} has ${attr.count}×${width} values in three, ${values.length} in posekit`); continue; }
      compared++;
      // float weights: three's GLTFLoader normalizes a skinned mesh's (SkinnedMesh.normalizeSkinWeights: each vertex's
      // divided by their sum), posekit keeps them as stored (Draco's 12 bits can leave the sum off 1 by a few steps)
      const scale = (v) => {
        if (name !== 'WEIGHTS_0' || attr.normalized || !o.isSkinnedMesh) return 1;
        const sum = values[4 * v] + values[4 * v + 1] + values[4 * v + 2] + values[4 * v + 3];
        return sum === 0 ? 1 : 1 / sum;
      };
      for (let v = 0; v < attr.count; v++) {
        const k = scale(v);
        for (let c = 0; c < width; c++) {
          const d = Math.abs(attr.getComponent(v, c) - Math.fround(values[v * width + c]) * k);
          worst = Math.max(worst, d);
          if (!(d <= TOLERANCE)) { problems.push(`mesh ${key}: ${name} vertex ${v} component ${c}: three ${attr.getComponent(v, c)}, posekit ${values[v * width + c]}`); return; }
        }
      }
    }
  });
  for (const k of wanted) if (!seen.has(k)) problems.push(`mesh ${k}: no three.js mesh`);
  if (wanted.size === 0) problems.push('no Draco primitive');
  failed += problems.length ? 1 : 0;
  console.log(`| ${file} | ${seen.size} of ${wanted.size} | ${triangles} | ${vertices} | ${compared} | ${worst.toExponential(2)} |`);
  for (const p of problems.slice(0, 5)) console.log(`  ${file}: ${p}`);
}
console.log(`\nthree.js ${THREE.REVISION} with DRACOLoader (npm draco3dgltf): ${files.length} files, ${failed} failed`);
process.exit(failed || files.length === 0 ? 1 : 0);
