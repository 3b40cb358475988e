#!/usr/bin/env node
// Reference vectors for posekit's meshopt decoder: data made here (a seeded generator), encoded with npm meshoptimizer's
// MeshoptEncoder in every mode, bitstream version, encoder level and filter, and decoded with its MeshoptDecoder (the
// decoder three.js uses). Writes one JSON file: [{name, mode, filter, count, stride, encoded, decoded}] (base64).
//   node vectors.mjs OUT.json
import fs from 'node:fs';
import { MeshoptEncoder, MeshoptDecoder } from 'meshoptimizer';

await MeshoptEncoder.ready;
await MeshoptDecoder.ready;
const out = process.argv[2];
if (!out) { console.error('usage: node vectors.mjs OUT.json'); process.exit(2); }

let seed = 12345;
const rand = () => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return seed / 4294967296; };
const b64 = (u8) => Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength).toString('base64');
const cases = [];

function add(name, mode, filter, count, stride, encoded) {
  const decoded = new Uint8Array(count * stride);
  MeshoptDecoder.decodeGltfBuffer(decoded, count, stride, encoded, mode, filter);
  cases.push({ name, mode, filter, count, stride, encoded: b64(encoded), decoded: b64(decoded) });
}

// attribute bytes: smooth walks (small deltas), noise (large deltas), floats (XOR-friendly), constants
function attributeData(kind, count, stride) {
  const u8 = new Uint8Array(count * stride);
  if (kind === 'float') {
    const f = new Float32Array(u8.buffer);
    for (let i = 0; i < f.length; i++) f[i] = Math.sin(i * 0.01) * 10 + (i % (stride / 4)) + rand() * 1e-3;
  } else {
    for (let k = 0; k < stride; k++) {
      let v = Math.floor(rand() * 256);
      for (let i = 0; i < count; i++) {
        if (kind === 'walk') v = (v + Math.floor(rand() * 7) - 3) & 255;
        else if (kind === 'noise') v = Math.floor(rand() * 256);
        else if (kind === 'mixed') v = (i % 37 === 0) ? Math.floor(rand() * 256) : (v + (rand() < 0.2 ? 1 : 0)) & 255;
        u8[i * stride + k] = kind === 'constant' ? 42 : v;
      }
    }
  }
  return u8;
}

for (const version of [0, 1]) {
  for (const level of version === 0 ? [2] : [0, 1, 2, 3]) {
    for (const stride of [4, 8, 12, 16, 20, 32, 64, 256]) {
      for (const count of [1, 15, 16, 17, 100, 257, 1000]) {
        for (const kind of ['walk', 'noise', 'float', 'mixed', 'constant']) {
          if (stride === 256 && count > 100) continue;
          const data = attributeData(kind, count, stride);
          const enc = MeshoptEncoder.encodeVertexBufferLevel(data, count, stride, level, version);
          add(`attr v${version} L${level} ${kind} ${count}x${stride}`, 'ATTRIBUTES', 'NONE', count, stride, enc);
        }
      }
    }
  }
}

// filters: float input -> filter encoding -> attribute codec -> decoder with filter
function unitVectors(count, w) {
  const f = new Float32Array(count * 4);
  for (let i = 0; i < count; i++) {
    let x = rand() * 2 - 1, y = rand() * 2 - 1, z = rand() * 2 - 1;
    if (i % 50 === 0) { x = i % 100 === 0 ? 1 : 0; y = 0; z = i % 100 === 0 ? 0 : -1; }
    const l = Math.hypot(x, y, z) || 1;
    f.set([x / l, y / l, z / l, w ? (rand() < 0.5 ? -1 : 1) : 0], i * 4);
  }
  return f;
}
function quaternions(count) {
  const f = new Float32Array(count * 4);
  for (let i = 0; i < count; i++) {
    let q = [rand() * 2 - 1, rand() * 2 - 1, rand() * 2 - 1, rand() * 2 - 1];
    if (i % 40 === 0) q = [0, 0, 0, 1];
    const l = Math.hypot(...q);
    f.set(q.map(v => v / l), i * 4);
  }
  return f;
}
for (const version of [0, 1]) {
  for (const count of [1, 17, 500]) {
    for (const stride of [4, 8]) {
      for (const bits of stride === 4 ? [4, 6, 8] : [8, 10, 12, 16]) {
        const filtered = MeshoptEncoder.encodeFilterOct(unitVectors(count, true), count, stride, bits);
        add(`oct v${version} ${count}x${stride} ${bits}b`, 'ATTRIBUTES', 'OCTAHEDRAL', count, stride,
          MeshoptEncoder.encodeVertexBufferLevel(filtered, count, stride, 2, version));
        const col = new Float32Array(count * 4).map(() => rand());
        const colors = MeshoptEncoder.encodeFilterColor(col, count, stride, Math.min(bits, stride * 2));
        add(`color v${version} ${count}x${stride} ${bits}b`, 'ATTRIBUTES', 'COLOR', count, stride,
          MeshoptEncoder.encodeVertexBufferLevel(colors, count, stride, 2, version));
      }
    }
    for (const bits of [4, 8, 11, 12, 16]) {
      const filtered = MeshoptEncoder.encodeFilterQuat(quaternions(count), count, 8, bits);
      add(`quat v${version} ${count} ${bits}b`, 'ATTRIBUTES', 'QUATERNION', count, 8,
        MeshoptEncoder.encodeVertexBufferLevel(filtered, count, 8, 2, version));
    }
    for (const stride of [4, 12, 16]) {
      for (const mode of ['Separate', 'SharedVector', 'SharedComponent', 'Clamped']) {
        for (const bits of [8, 15, 23]) {
          const f = new Float32Array(count * stride / 4).map((_, i) => (rand() - 0.5) * Math.pow(10, (i % 7) - 3));
          const filtered = MeshoptEncoder.encodeFilterExp(f, count, stride, bits, mode);
          add(`exp v${version} ${count}x${stride} ${mode} ${bits}b`, 'ATTRIBUTES', 'EXPONENTIAL', count, stride,
            MeshoptEncoder.encodeVertexBufferLevel(filtered, count, stride, 2, version));
        }
      }
    }
  }
}

// indices: grid triangle lists (optimized and shuffled), strips/lines as sequences, 16 and 32 bit
function grid(n) {
  const idx = [];
  for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) {
    const a = y * (n + 1) + x, b = a + 1, c = a + n + 1, d = c + 1;
    idx.push(a, b, c, b, d, c);
  }
  return new Uint32Array(idx);
}
for (const n of [1, 3, 20, 100]) {
  for (const shuffle of [false, true]) {
    let idx = grid(n);
    if (shuffle) {
      const tris = idx.length / 3;
      for (let t = tris - 1; t > 0; t--) {
        const s = Math.floor(rand() * (t + 1));
        for (let k = 0; k < 3; k++) { const tmp = idx[t * 3 + k]; idx[t * 3 + k] = idx[s * 3 + k]; idx[s * 3 + k] = tmp; }
      }
    } else {
      MeshoptEncoder.reorderMesh(idx, true, false);
    }
    for (const stride of [2, 4]) {
      const src = stride === 2 ? new Uint8Array(new Uint16Array(idx).buffer) : new Uint8Array(idx.buffer.slice(0));
      add(`triangles ${n} ${shuffle ? 'shuffled' : 'optimized'} ${stride}`, 'TRIANGLES', 'NONE', idx.length, stride,
        MeshoptEncoder.encodeGltfBuffer(src, idx.length, stride, 'TRIANGLES'));
      const seq = new Uint32Array(idx.length).map((_, i) => (i % 2 ? 40000 + (i % 1000) : (i * 3) % 30000)
        + (i % 5 === 0 ? (stride === 4 ? 70000 : 20000) : 0));
      const seqSrc = stride === 2 ? new Uint8Array(new Uint16Array(seq).buffer) : new Uint8Array(seq.buffer);
      add(`sequence ${n} ${stride}`, 'INDICES', 'NONE', idx.length, stride,
        MeshoptEncoder.encodeGltfBuffer(seqSrc, idx.length, stride, 'INDICES'));
    }
  }
}

fs.writeFileSync(out, JSON.stringify(cases));
console.error(`${cases.length} meshopt reference vectors -> ${out}`);
