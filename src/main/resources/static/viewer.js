// The viewer page: upload → AssetSummary → clip, time and loop controls → frames drawn by Stage from posekit's own
// output. The browser test (ViewerBrowserTest) relies on three facts this file keeps: body[data-ready] once three.js
// and WebGL are up, canvas[data-frame] = "<clip>@<time>" of the frame on screen, and window.posekit.requests.
import * as api from './api.js';
import { Player } from './player.js';
import { Stage } from './stage.js';

const $ = (id) => document.getElementById(id);
const ui = {
  drop: $('drop'), file: $('file'), status: $('status'), error: $('error'), summary: $('summary'),
  clip: $('clip'), play: $('play'), time: $('time'), timeLabel: $('time-label'), loop: $('loop'), canvas: $('view'),
  sideBySide: $('side-by-side'), render: $('render'), rootPath: $('root-path'), ikJoint: $('ik-joint'),
};
let ik = null; // the two-bone chain the IK handle drives: {start, mid, end} node names and its target, or null
let lastFrame = null; // the frame on screen, for posekit's render beside it

let stage;
let asset = null; // the AssetSummary shown
let player = null;

function showError(e) {
  const title = document.createElement('strong');
  title.textContent = e.status ? `${e.title} (${e.status})` : (e.title ?? 'Error');
  const detail = document.createElement('span');
  detail.className = 'detail';
  detail.textContent = e.detail ?? e.message;
  ui.error.replaceChildren(title, ' ', detail);
  ui.error.hidden = false;
}

function clearError() {
  ui.error.hidden = true;
  ui.error.replaceChildren();
}

function formatBytes(n) {
  return n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`;
}

function listItems(list, items, empty) {
  list.replaceChildren(...(items.length ? items : [empty]).map((text) => {
    const li = document.createElement('li');
    li.textContent = text;
    return li;
  }));
}

function showSummary(a) {
  $('asset-name').textContent = a.name;
  $('asset-format').textContent = a.format;
  $('asset-size').textContent = formatBytes(a.sizeBytes);
  $('asset-id').textContent = a.id;
  // the browser downloads it (Content-Disposition: attachment) under the upload's name
  const base = a.name.replace(/\.[^.]*$/, '') || 'asset';
  Object.assign($('download'), { href: api.animatedGltfUrl(a.id), download: `${base}.glb` });
  Object.assign($('download-json'), { href: api.animatedGltfUrl(a.id, false), download: `${base}.gltf` });
  if (api.credentials.token) {
    // a secured posekit: a plain link carries no bearer token, so the file is fetched and linked as a blob
    api.animatedGltfBlobUrl(a.id).then((url) => { $('download').href = url; }).catch(showError);
    api.animatedGltfBlobUrl(a.id, false).then((url) => { $('download-json').href = url; }).catch(showError);
  }
  $('clips').tBodies[0].replaceChildren(...a.clips.map((c) => {
    const tr = document.createElement('tr');
    for (const text of [c.name, `${c.duration.toFixed(3)} s`, String(c.channels)]) {
      tr.insertCell().textContent = text;
    }
    return tr;
  }));
  listItems($('skins'), a.skins.map((s) => `${s.name ?? `skin ${s.index}`}: ${s.joints.length} joints`), 'none');
  listItems($('meshes'), a.meshes.map((m) => {
    const vertices = m.primitives.reduce((sum, p) => sum + p.vertexCount, 0);
    const skinned = m.skin == null ? 'not skinned' : `skin ${m.skin}`;
    return `${m.name ?? `mesh ${m.index}`}: ${m.primitives.length} primitive(s), ${vertices} vertices, ${skinned}`;
  }), 'none');
  listItems($('warnings'), a.warnings, 'none');
  ui.summary.hidden = false;
}

/**
 * Fetches the frame's posed GLB, skeleton and bounds together and shows them; resolves to the clip-local time. With an
 * IK target the meshes come from POST …/skinned with the chain (one GLB per mesh instance) and the skeleton's joints
 * from POST …/pose with it.
 */
async function showFrame(frame) {
  const shown = asset;
  const chains = ik?.target ? [{ type: 'twoBone', start: ik.start, mid: ik.mid, end: ik.end, target: ik.target }] : [];
  const [glb, skeleton, bounds, solved] = await Promise.all([
    !shown.meshes.length ? null : chains.length
      ? Promise.all(shown.meshes.map((m, i) => api.posedMeshGlb(shown.id, i, frame, chains)))
      : api.posedGlb(shown.id, frame),
    api.skeleton(shown.id, frame),
    api.bounds(shown.id, frame),
    ik ? api.modelPose(shown.id, frame, chains) : null,
  ]);
  if (shown !== asset) {
    return null; // another asset was uploaded meanwhile
  }
  if (solved) {
    withPose(skeleton, solved);
  }
  await stage.show(glb, skeleton, bounds);
  if (ik && !ik.target) {
    // the handle starts on the chain's end joint, where the clip puts it
    const end = solved.nodes.find((n) => n.name === ik.end).matrix;
    stage.showHandle(end.slice(12, 15), bounds.skeleton?.radius ?? 1, (target) => {
      ik.target = target;
      player.seek(player.time);
    });
  }
  ui.canvas.dataset.ik = solved && chains.length ? (solved.ik[0].reached ? 'reached' : 'unreached') : '';
  ui.canvas.dataset.frame = `${frame.clip}@${frame.time}`;
  lastFrame = frame;
  showRender();
  return skeleton.localTime;
}

/** The skeleton's joints moved to the nodes' model positions of an IK-solved pose, its lines drawn again. */
function withPose(skeleton, pose) {
  for (const joint of skeleton.joints) {
    joint.position = pose.nodes[joint.node].matrix.slice(12, 15);
  }
  skeleton.lines = skeleton.segments.flatMap(([a, b]) => [...skeleton.joints[a].position, ...skeleton.joints[b].position]);
}

/** The IK joint choices: named nodes with a parent and a grandparent (the end of a two-bone chain). */
function fillIkJoints(a) {
  const options = a.nodes.filter((n) => n.name && n.parent >= 0 && a.nodes[n.parent].parent >= 0)
    .map((n) => new Option(n.name, n.name));
  ui.ikJoint.replaceChildren(new Option('off', ''), ...options);
  ik = null;
  stage.showHandle(null);
}

function selectIkJoint(name) {
  if (!name) {
    ik = null;
    stage.showHandle(null);
  } else {
    const end = asset.nodes.find((n) => n.name === name);
    const mid = asset.nodes[end.parent];
    ik = { end: end.name, mid: mid.name, start: asset.nodes[mid.parent].name, target: null };
  }
  player.seek(player.time);
}

/** The root motion's path over three loops of the clip (when ticked): R·p₀ + t for every baked frame. */
async function showRootPath() {
  const shown = asset;
  const clip = shown?.clips.find((c) => c.name === ui.clip.value);
  if (!ui.rootPath.checked || !clip) {
    stage.showPath(null);
    delete ui.canvas.dataset.path;
    return;
  }
  const path = await api.rootMotionPath(shown.id, clip.name, clip.duration);
  if (shown !== asset) {
    return;
  }
  const [x, y, z] = path.start;
  const points = path.frames.flatMap(({ translation: t, rotation: [qx, qy, qz, qw] }) => {
    // the unit quaternion applied to p₀: v + 2w(q×v) + 2q×(q×v)
    const cx = qy * z - qz * y, cy = qz * x - qx * z, cz = qx * y - qy * x;
    return [x + 2 * (qw * cx + qy * cz - qz * cy) + t[0], y + 2 * (qw * cy + qz * cx - qx * cz) + t[1],
      z + 2 * (qw * cz + qx * cy - qy * cx) + t[2]];
  });
  stage.showPath(points);
  ui.canvas.dataset.path = `${path.joint}:${path.frames.length}`;
}

/** posekit's render.png of the frame on screen, from the orbit camera's direction, beside the canvas (when ticked). */
async function showRender() {
  const shown = asset;
  if (!ui.sideBySide.checked || !shown || !shown.meshes.length || !lastFrame) {
    ui.render.hidden = true;
    return;
  }
  const { clientWidth: w, clientHeight: h } = ui.canvas;
  const url = await api.renderPng(shown.id, lastFrame, Math.min(2048, Math.max(1, w)), Math.min(2048, Math.max(1, h)),
    stage.viewParameter()).catch(showError);
  if (url && shown === asset) {
    const old = ui.render.src;
    ui.render.src = url;
    ui.render.hidden = false;
    if (old.startsWith('blob:')) {
      URL.revokeObjectURL(old);
    }
  }
}

function updateControls(p) {
  if (p !== player) {
    return; // a frame of the previous asset's player, finishing late
  }
  ui.play.textContent = p.playing ? 'Pause' : 'Play';
  if (p.localTime != null) {
    if (p.playing) {
      ui.time.value = String(p.localTime);
    }
    const playback = Math.abs(p.time - p.localTime) > 1e-6 ? ` (playback ${p.time.toFixed(2)} s)` : '';
    ui.timeLabel.textContent = `${p.localTime.toFixed(2)} / ${p.duration.toFixed(2)} s${playback}`;
  } else if (!p.clip) {
    ui.timeLabel.textContent = 'rest pose';
  }
}

async function selectClip(name) {
  const clip = asset.clips.find((c) => c.name === name);
  const duration = clip ? clip.duration : 0;
  ui.time.max = String(duration);
  ui.time.value = '0';
  ui.time.disabled = ui.play.disabled = duration <= 0;
  // the camera is framed once per clip from its bounds over the whole clip, so that it holds still while playing
  stage.frame(clip ? await api.clipBounds(asset.id, name) : await api.bounds(asset.id, { clip: '' }));
  player.load(name, duration);
  await showRootPath();
}

async function uploadFiles(files) {
  if (!files.length) {
    return;
  }
  clearError();
  player?.pause();
  ui.status.textContent = `Uploading ${[...files].map((f) => f.name).join(', ')}…`;
  try {
    asset = await api.upload(files);
  } catch (e) {
    ui.status.textContent = '';
    showError(e);
    return;
  }
  ui.status.textContent = `Stored ${asset.name}.`;
  showSummary(asset);
  fillIkJoints(asset);
  player = new Player(showFrame, updateControls, showError);
  player.loop = ui.loop.value;
  const options = asset.clips.length
    ? asset.clips.map((c) => new Option(`${c.name} (${c.duration.toFixed(2)} s)`, c.name))
    : [new Option('(rest pose: no clips)', '')];
  ui.clip.replaceChildren(...options);
  ui.clip.disabled = !asset.clips.length;
  await selectClip(ui.clip.value).catch(showError);
}

function wire() {
  ui.file.addEventListener('change', () => uploadFiles(ui.file.files).finally(() => { ui.file.value = ''; }));
  // dropping anywhere on the page uploads (and keeps the browser from opening the file instead)
  document.addEventListener('dragover', (e) => {
    e.preventDefault();
    ui.drop.classList.add('over');
  });
  document.addEventListener('dragleave', (e) => {
    if (!e.relatedTarget) {
      ui.drop.classList.remove('over');
    }
  });
  document.addEventListener('drop', (e) => {
    e.preventDefault();
    ui.drop.classList.remove('over');
    uploadFiles(e.dataTransfer.files);
  });
  ui.clip.addEventListener('change', () => {
    clearError();
    selectClip(ui.clip.value).catch(showError);
  });
  ui.play.addEventListener('click', () => (player.playing ? player.pause() : player.play()));
  ui.time.addEventListener('input', () => {
    player.pause(); // scrubbing takes over from playback
    player.seek(Number(ui.time.value));
  });
  ui.loop.addEventListener('change', () => player?.setLoop(ui.loop.value));
  // the bearer token for a secured posekit, kept for this tab
  $('token').value = api.credentials.token;
  $('token').addEventListener('change', () => { api.credentials.token = $('token').value.trim(); });
  ui.sideBySide.addEventListener('change', showRender);
  ui.rootPath.addEventListener('change', () => showRootPath().catch(showError));
  ui.ikJoint.addEventListener('change', () => selectIkJoint(ui.ikJoint.value));
  stage.controls.addEventListener('end', showRender); // after an orbit, from the new direction
}

try {
  stage = new Stage(ui.canvas);
  // for the browser test: three.js's picture of a posed GLB with posekit's camera (see Stage.snapshot)
  window.posekit.moveIkHandle = (position) => stage.moveHandle(position);
  window.posekit.snapshot = async (glbUrl, camera, width, height) =>
    stage.snapshot(await (await fetch(glbUrl)).arrayBuffer(), camera, width, height);
  wire();
  document.body.dataset.ready = 'true';
} catch (e) {
  showError({ title: 'WebGL unavailable', detail: e.message });
}
