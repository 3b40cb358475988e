// Decodes every EXT_meshopt_compression buffer view of a meshopt GLB with the reference decoder (npm meshoptimizer)
// and compares it with the same view of the matching quantized GLB (triangle lists up to each triangle's rotation).
// Prints one JSON line per pair: {"file": ..., "views": n, "mismatches": [view indices]}.
// Usage: node meshopt-compare.mjs MESHOPTIMIZER_DIR MESHOPT_GLB QUANTIZED_GLB [MESHOPT_GLB QUANTIZED_GLB]...
import fs from 'fs';
import path from 'path';
import { pathToFileURL } from 'url';

const [dir, ...files] = process.argv.slice(2);
const { MeshoptDecoder } = await import(pathToFileURL(path.join(dir, 'index.js')).href);
await MeshoptDecoder.ready;

function parse(file) {
  const b = fs.readFileSync(file);
  const jsonLength = b.readUInt32LE(12);
  const json = JSON.parse(b.subarray(20, 20 + jsonLength).toString('utf8'));
  const binLength = b.readUInt32LE(20 + jsonLength);
  return { json, bin: b.subarray(28 + jsonLength, 28 + jsonLength + binLength) };
}

function triangles(bytes, stride) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = bytes.byteLength / stride;
  const v = [];
  for (let i = 0; i < n; i++) v.push(stride === 2 ? view.getUint16(2 * i, true) : view.getUint32(4 * i, true));
  const out = [];
  for (let t = 0; t < n; t += 3) {
    const r = [[v[t], v[t + 1], v[t + 2]], [v[t + 1], v[t + 2], v[t]], [v[t + 2], v[t], v[t + 1]]];
    r.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
    out.push(r[0].join(','));
  }
  return out.join(';');
}

for (let i = 0; i < files.length; i += 2) {
  const m = parse(files[i]);
  const q = parse(files[i + 1]);
  const mismatches = [];
  let views = 0;
  m.json.bufferViews.forEach((v, k) => {
    const e = v.extensions && v.extensions.EXT_meshopt_compression;
    if (!e) return;
    views++;
    const qv = q.json.bufferViews[k];
    const expected = q.bin.subarray(qv.byteOffset || 0, (qv.byteOffset || 0) + qv.byteLength);
    const target = new Uint8Array(e.count * e.byteStride);
    const source = m.bin.subarray(e.byteOffset || 0, (e.byteOffset || 0) + e.byteLength);
    MeshoptDecoder.decodeGltfBuffer(target, e.count, e.byteStride, source, e.mode, e.filter || 'NONE');
    const same = e.mode === 'TRIANGLES'
      ? triangles(target, e.byteStride) === triangles(new Uint8Array(expected), e.byteStride)
      : Buffer.compare(Buffer.from(target), Buffer.from(expected)) === 0;
    if (!same) mismatches.push(k);
  });
  console.log(JSON.stringify({ file: path.basename(files[i]), views, mismatches }));
}
