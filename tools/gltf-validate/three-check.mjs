// three.js (through the conformance oracle, shared/tools/oracle: GLTFLoader + AnimationMixer with exact slerp) loads
// the animated GLBs posekit exported and poses them at every conformance sample instant; this compares three's
// skinning matrices and skinned positions with posekit's own (PoseDump's <asset>.pose.json, from the original
// upload) and prints a Markdown table. Positions: three skins with JOINTS_0/WEIGHTS_0 only, so assets with more
// than 4 influences per vertex differ by their 5th+ influences (reported, not hidden).
//
//   node three-check.mjs OUT_DIR ORACLE_DIR ASSET_ID...
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const [out, oracleDir, ...ids] = process.argv.slice(2);
const oracle = path.join(oracleDir, 'oracle.mjs');
console.log('| asset | clip | instants | skinning matrices: max \\|Δ\\| / max(1, max\\|e\\|) | positions: max ‖Δ‖ / D | vertices |');
console.log('|---|---|---|---|---|---|');
let worstMatrix = 0;
for (const id of ids) {
  const pose = JSON.parse(fs.readFileSync(path.join(out, id + '.pose.json'), 'utf8'));
  const glb = path.join(out, id + '.glb');
  for (const clip of pose.clips) {
    let matrix = 0;
    let position = 0;
    let instants = 0;
    let vertices = 0;
    for (const mode of ['clamp', 'repeat']) {
      const samples = clip.samples.filter((s) => s.mode === mode);
      if (!samples.length) continue;
      const tmp = path.join(out, `${id}.three.json`);
      execFileSync('node', [oracle, glb, '--clip', clip.name, '--times', samples.map((s) => s.t).join(','), '--loop', mode,
        '--max-verts', '100000000', '--keep-verts', '100000000', '--no-crosscheck', '--out', tmp], { stdio: ['ignore', 'ignore', 'inherit'] });
      const three = JSON.parse(fs.readFileSync(tmp, 'utf8'));
      three.samples.forEach((ts, k) => {
        const ps = samples[k];
        instants++;
        ts.skins.forEach((joints, s) => joints.forEach((j, n) => {
          if (!j) return;
          const e = ps.skins[s].slice(16 * n, 16 * n + 16);
          const scale = Math.max(1, ...e.map(Math.abs));
          for (let i = 0; i < 16; i++) matrix = Math.max(matrix, Math.abs(j.skinning[i] - e[i]) / scale);
        }));
        // D: the posed bounding box diagonal of posekit's vertices
        const min = [Infinity, Infinity, Infinity];
        const max = [-Infinity, -Infinity, -Infinity];
        for (const m of ps.meshes) for (let i = 0; i < m.positions.length; i++) {
          min[i % 3] = Math.min(min[i % 3], m.positions[i]);
          max[i % 3] = Math.max(max[i % 3], m.positions[i]);
        }
        const d = Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]) || 1;
        three.meshes.forEach((mi, i) => {
          const mine = ps.meshes.find((m) => m.node === mi.node && m.primitive === mi.primitive);
          if (!mine) throw new Error(`${id}: three's mesh on node ${mi.node} primitive ${mi.primitive} has no posekit match`);
          const a = ts.meshes[i].positions;
          if (k === 0) vertices += a.length / 3;
          for (let v = 0; v < a.length; v += 3) {
            position = Math.max(position, Math.hypot(a[v] - mine.positions[v], a[v + 1] - mine.positions[v + 1],
              a[v + 2] - mine.positions[v + 2]) / d);
          }
        });
      });
      fs.rmSync(tmp);
    }
    worstMatrix = Math.max(worstMatrix, matrix);
    console.log(`| ${id} | ${clip.name.replaceAll("|", "\\|")} | ${instants} | ${matrix.toExponential(2)} | ${position.toExponential(2)} | ${vertices} |`);
  }
}
