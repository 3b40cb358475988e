#!/usr/bin/env node
// Draco variants of the conformance glTF assets, made with glTF Transform's draco() (Google's encoder, npm draco3dgltf)
// under several settings, and every Draco primitive of each decoded by Google's decoder (the same package) as three's
// DRACOLoader asks it to: the triangles as uint32, each attribute the extension names, by its unique id, in its
// accessor's component type. DracoGoldenTest compares posekit's decoder with these.
//   node golden.mjs CONFORMANCE_DIR OUT
// writes OUT/<variant>/<asset>.glb, OUT/<variant>/<asset>.draco.json and OUT/golden.tsv (variant, asset, glb path).
import fs from 'node:fs';
import path from 'node:path';
import { Logger, NodeIO } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import { draco, unpartition } from '@gltf-transform/functions';
import draco3d from 'draco3dgltf';

// edgebreaker speed 0 is Google's valence coding, 5 its standard one (with prediction), 10 standard without
// prediction; sequential; quantization at the encoders' low and high ends (glTF Transform allows 1 to 16 bits)
export const VARIANTS = {
  'edgebreaker-speed0': { method: 'edgebreaker', encodeSpeed: 0, decodeSpeed: 0 },
  'edgebreaker-speed5': { method: 'edgebreaker', encodeSpeed: 5, decodeSpeed: 5 },
  'edgebreaker-speed10': { method: 'edgebreaker', encodeSpeed: 10, decodeSpeed: 10 },
  'sequential': { method: 'sequential' },
  'bits-low': { method: 'edgebreaker', quantizePosition: 8, quantizeNormal: 6, quantizeTexcoord: 8,
    quantizeColor: 6, quantizeGeneric: 8 },
  'bits-high': { method: 'edgebreaker', quantizePosition: 16, quantizeNormal: 16, quantizeTexcoord: 16,
    quantizeColor: 16, quantizeGeneric: 16 },
};

const TYPES = { 5120: ['DT_INT8', 1], 5121: ['DT_UINT8', 1], 5122: ['DT_INT16', 2], 5123: ['DT_UINT16', 2],
  5125: ['DT_UINT32', 4], 5126: ['DT_FLOAT32', 4] };
const COMPONENTS = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4 };

const [conformance, out] = process.argv.slice(2);
const decoderModule = await draco3d.createDecoderModule({});
const io = new NodeIO().setLogger(new Logger(Logger.Verbosity.ERROR)).registerExtensions(ALL_EXTENSIONS).registerDependencies({
  'draco3d.decoder': decoderModule,
  'draco3d.encoder': await draco3d.createEncoderModule({}),
});
const assetsDir = path.join(conformance, 'assets', 'gltf');
const list = [];
for (const asset of fs.readdirSync(assetsDir).sort()) {
  const file = fs.readdirSync(path.join(assetsDir, asset)).find(f => f.endsWith('.gltf') || f.endsWith('.glb'));
  if (!file) continue;
  const src = path.join(assetsDir, asset, file);
  for (const [variant, options] of Object.entries(VARIANTS)) {
    const dir = path.join(out, variant);
    fs.mkdirSync(dir, { recursive: true });
    const glbPath = path.join(dir, `${asset}.glb`);
    try {
      const doc = await io.read(src);
      await doc.transform(unpartition(), draco(options)); // a GLB holds one buffer, as the CLI makes it
      const glb = await io.writeBinary(doc);
      fs.writeFileSync(glbPath, glb);
      fs.writeFileSync(path.join(dir, `${asset}.draco.json`), JSON.stringify(decodeAll(glb)) + '\n');
      list.push(`${variant}\t${asset}\t${path.relative(out, glbPath)}`);
    } catch (e) {
      process.stderr.write(`  ${variant} ${asset}: ${e.message}\n`);
    }
  }
}
fs.writeFileSync(path.join(out, 'golden.tsv'), list.join('\n') + '\n');
process.stderr.write(`${list.length} Draco golden variants\n`);

/** Every Draco primitive of a GLB, decoded by Google's decoder. */
function decodeAll(glb) {
  const buf = Buffer.from(glb.buffer, glb.byteOffset, glb.byteLength);
  const jsonLength = buf.readUInt32LE(12);
  const json = JSON.parse(buf.subarray(20, 20 + jsonLength).toString('utf8'));
  const binStart = 20 + jsonLength + 8;
  const primitives = [];
  json.meshes.forEach((mesh, m) => mesh.primitives.forEach((prim, p) => {
    const ext = prim.extensions && prim.extensions.KHR_draco_mesh_compression;
    if (!ext) return;
    const view = json.bufferViews[ext.bufferView];
    const data = new Int8Array(buf.buffer, buf.byteOffset + binStart + (view.byteOffset || 0), view.byteLength);
    primitives.push({ mesh: m, primitive: p, ...decode(data, ext.attributes, prim.attributes, json.accessors) });
  }));
  return { primitives };
}

function decode(data, ids, attributes, accessors) {
  const d = decoderModule;
  const decoder = new d.Decoder();
  const mesh = new d.Mesh();
  try {
    const status = decoder.DecodeArrayToMesh(data, data.byteLength, mesh);
    if (!status.ok() || mesh.ptr === 0) throw new Error('Draco decoding failed: ' + status.error_msg());
    const numIndices = mesh.num_faces() * 3;
    let ptr = d._malloc(numIndices * 4);
    decoder.GetTrianglesUInt32Array(mesh, numIndices * 4, ptr);
    const indices = Buffer.from(new Uint8Array(d.HEAPU8.buffer, ptr, numIndices * 4)).toString('base64');
    d._free(ptr);
    const out = {};
    for (const [name, id] of Object.entries(ids)) {
      const accessor = accessors[attributes[name]];
      const [type, size] = TYPES[accessor.componentType];
      const attribute = decoder.GetAttributeByUniqueId(mesh, id);
      const components = attribute.num_components();
      if (components !== COMPONENTS[accessor.type]) throw new Error(`${name}: ${components} components`);
      const bytes = mesh.num_points() * components * size;
      ptr = d._malloc(bytes);
      decoder.GetAttributeDataArrayForAllPoints(mesh, attribute, d[type], bytes, ptr);
      out[name] = { uniqueId: id, componentType: accessor.componentType, components,
        data: Buffer.from(new Uint8Array(d.HEAPU8.buffer, ptr, bytes)).toString('base64') };
      d._free(ptr);
    }
    return { points: mesh.num_points(), indices, attributes: out };
  } finally {
    d.destroy(mesh);
    d.destroy(decoder);
  }
}
