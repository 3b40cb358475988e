#!/usr/bin/env node
// Run from a copy of shared/tools/oracle (run.sh copies it there as pipeline-expected.mjs): the oracle's expected
// outputs for every pipeline variant listed in VARIANTS.tsv (variant, asset, path under CONFORMANCE_OUT), with
// three.js's GLTFLoader given the MeshoptDecoder three ships (as a web page sets it up); and, for every file with
// meshopt-compressed buffer views, those views as npm meshoptimizer's decoder decodes them (base64 per view).
// Draco variants are decoded by Google's decoder (npm draco3dgltf) inside three's own DRACOLoader (DracoDecoding):
// three's loader runs its decoding in web workers, which Node does not have.
//   node pipeline-expected.mjs VARIANTS.tsv CONFORMANCE_OUT VIEWS_OUT
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { MeshoptDecoder } from 'three/examples/jsm/libs/meshopt_decoder.module.js';
import { DRACOLoader } from 'three/examples/jsm/loaders/DRACOLoader.js';
import { GEN_OPTS } from './manifest.mjs';
import { runOracle, loadOracle } from './lib/run.mjs';
import { sanitize } from './lib/util.mjs';

const [list, confOut, viewsOut] = process.argv.slice(2);
const here = path.dirname(fileURLToPath(import.meta.url));
const pipelineModules = path.resolve(process.env.PIPELINE_MODULES || path.join(here, '../../../tools/gltf-pipeline/node_modules'));
const { MeshoptDecoder: Reference } = await import(pathToFileURL(path.join(pipelineModules, 'meshoptimizer/index.js')).href);
const { default: draco3d } = await import(pathToFileURL(path.join(pipelineModules, 'draco3dgltf/draco3dgltf.js')).href);
const { NodeDracoLoader } = await import('./pipeline-draco.mjs');
const dracoLoader = new NodeDracoLoader(DRACOLoader, await draco3d.createDecoderModule({}));
await MeshoptDecoder.ready;
await Reference.ready;
const parse = GLTFLoader.prototype.parse;
GLTFLoader.prototype.parse = function (...args) {
  this.setMeshoptDecoder(MeshoptDecoder);
  this.setDRACOLoader(dracoLoader);
  return parse.apply(this, args);
};
console.log = console.info = console.debug = () => {};

const index = { generatedBy: 'tools/gltf-pipeline/expected.mjs', options: GEN_OPTS, files: [] };
for (const line of fs.readFileSync(list, 'utf8').split('\n').filter(Boolean)) {
  const [variant, asset, rel] = line.split('\t');
  const file = path.join(confOut, rel);
  dumpMeshoptViews(file, rel, path.join(viewsOut, `${variant}-${asset}.json`));
  const id = `${variant}-${asset}`;
  let clips;
  try { clips = (await loadOracle(file, 'three', GEN_OPTS)).model.clips; }
  catch (e) { process.stderr.write(`${id}: LOAD FAILED ${e.message}\n`); index.files.push({ asset: id, path: rel, error: e.message }); continue; }
  for (const ci of clips.length ? clips.map(c => c.index) : [null]) {
    const o = { ...GEN_OPTS, oracle: 'three', clip: ci === null ? undefined : ci, times: 'auto', assetLabel: rel, crosscheck: false };
    const doc = await runOracle(file, o);
    const name = `${id}__${ci === null ? 'static' : sanitize(clips[ci].name || `clip${ci}`)}.json`;
    fs.writeFileSync(path.join(confOut, 'expected', name), JSON.stringify(doc) + '\n');
    index.files.push({ file: name, asset: id, path: rel, clip: doc.clip, samples: doc.samples.length });
  }
}
fs.writeFileSync(path.join(confOut, 'expected', 'INDEX.json'), JSON.stringify(index, null, 1) + '\n');
process.stderr.write(`${index.files.length} expected files for the pipeline variants\n`);

function dumpMeshoptViews(file, rel, outFile) {
  const buf = fs.readFileSync(file);
  if (buf.readUInt32LE(0) !== 0x46546c67) return;
  const jsonLength = buf.readUInt32LE(12);
  const json = JSON.parse(buf.subarray(20, 20 + jsonLength).toString('utf8'));
  const binStart = 20 + jsonLength + 8;
  const bin = buf.subarray(binStart, binStart + buf.readUInt32LE(20 + jsonLength));
  const views = [];
  (json.bufferViews || []).forEach((view, i) => {
    const ext = view.extensions && (view.extensions.KHR_meshopt_compression || view.extensions.EXT_meshopt_compression);
    if (!ext) return;
    if ((ext.buffer || 0) !== 0) throw new Error(`${file}: bufferView ${i} compressed data outside the GLB chunk`);
    const source = new Uint8Array(bin.buffer, bin.byteOffset + (ext.byteOffset || 0), ext.byteLength);
    const target = new Uint8Array(ext.count * ext.byteStride);
    Reference.decodeGltfBuffer(target, ext.count, ext.byteStride, source, ext.mode, ext.filter);
    views.push({ view: i, mode: ext.mode, filter: ext.filter || 'NONE', count: ext.count, stride: ext.byteStride,
      decoded: Buffer.from(target.buffer, target.byteOffset, target.byteLength).toString('base64') });
  });
  if (views.length) fs.writeFileSync(outFile, JSON.stringify({ path: rel, views }) + '\n');
}
