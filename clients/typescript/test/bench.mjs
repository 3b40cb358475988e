// What the client adds to a request: the same requests, interleaved, through bare fetch and through the client
// (ETag cache off, so every answer is fetched). Needs POSEKIT_URL and FOX_ID (Fox.glb uploaded). Not a test.
import { Posekit } from '../dist/src/index.js';

const url = process.env.POSEKIT_URL;
const id = process.env.FOX_ID ?? 'd97044e701822bac5a62696459b27d7b375aada5de8574ed4362edbba94771f7';
const n = Number(process.env.N ?? 400);
const asset = new Posekit({ baseUrl: url, cacheBytes: 0 }).asset(id);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const [name, accept, viaClient, viaFetch] of [
  ['float32 matrices', 'application/octet-stream', (t) => asset.matrices(0, { clip: 'Run', time: t, loop: 'repeat', format: 'float32' }), (r) => r.arrayBuffer().then((b) => new Float32Array(b))],
  ['JSON matrices', 'application/json', (t) => asset.matrices(0, { clip: 'Run', time: t, loop: 'repeat' }), (r) => r.json()],
]) {
  const bare = [];
  const client = [];
  for (let i = 0; i < n; i++) {
    const t = 0.001 * i + 0.0001;
    let t0 = performance.now();
    await fetch(`${url}/api/v1/assets/${id}/skins/0/matrices?clip=Run&time=${t + 0.00005}&loop=repeat`, { headers: { Accept: accept } }).then(viaFetch);
    bare.push(performance.now() - t0);
    t0 = performance.now();
    await viaClient(t);
    client.push(performance.now() - t0);
  }
  console.log(`${name}: bare fetch median ${median(bare).toFixed(3)} ms, client median ${median(client).toFixed(3)} ms, difference ${(median(client) - median(bare)).toFixed(3)} ms (n=${n})`);
}
