// The posekit API as the viewer uses it: only public endpoints, relative URLs (so a context path works), and
// failures turned into ApiProblem from the RFC 9457 problem+json body the service answers with.

/** Every request the page made, in order: {method, url, status}. The browser test reads it, so does a curious developer. */
export const requests = [];
window.posekit = Object.assign(window.posekit ?? {}, { requests });

/** A failed request: the problem's title, detail and status (or a network failure's message). */
export class ApiProblem extends Error {
  constructor(status, title, detail) {
    super(detail);
    this.status = status;
    this.title = title;
    this.detail = detail;
  }
}

/**
 * The bearer token the page sends (an API key or an access token), kept for this tab only; empty when posekit runs
 * open. A secured posekit answers 401 without it.
 */
export const credentials = {
  get token() {
    return sessionStorage.getItem('posekit.token') ?? '';
  },
  set token(value) {
    if (value) {
      sessionStorage.setItem('posekit.token', value);
    } else {
      sessionStorage.removeItem('posekit.token');
    }
  },
};

async function call(method, url, init = {}) {
  const entry = { method, url, status: null };
  requests.push(entry);
  const headers = new Headers(init.headers ?? {});
  if (credentials.token) {
    headers.set('Authorization', `Bearer ${credentials.token}`);
  }
  let response;
  try {
    response = await fetch(url, { method, ...init, headers });
  } catch (e) {
    throw new ApiProblem(0, 'Network error', `${method} ${url} failed: ${e.message}`);
  }
  entry.status = response.status;
  if (!response.ok) {
    throw await problemOf(response);
  }
  return response;
}

async function problemOf(response) {
  const text = await response.text();
  try {
    const p = JSON.parse(text);
    return new ApiProblem(response.status, p.title ?? response.statusText, p.detail ?? text);
  } catch {
    // not problem+json (a proxy's page, say): show what came back
    return new ApiProblem(response.status, response.statusText, text.slice(0, 500));
  }
}

/** The sampling query of one frame: clip ('' = rest pose, no query), playback time in seconds and loop mode. */
function sampling({ clip, time, loop }) {
  return clip ? `?${new URLSearchParams({ clip, time: String(time), loop })}` : '';
}

const asset = (id) => `api/v1/assets/${encodeURIComponent(id)}`;

/** Uploads the chosen files as multipart parts named 'file'; resolves to the AssetSummary. */
export async function upload(files) {
  const form = new FormData();
  for (const f of files) {
    form.append('file', f, f.name);
  }
  return (await call('POST', 'api/v1/assets', { body: form })).json();
}

/**
 * The whole asset posed at the frame, as a glTF binary (ArrayBuffer), in the file's own space (coordinates=file): the
 * skeleton lines and bounds drawn over it are.
 */
export async function posedGlb(id, frame) {
  const query = sampling(frame);
  return (await call('GET', `${asset(id)}/posed.glb${query ? `${query}&` : '?'}coordinates=file`)).arrayBuffer();
}

/** Where the whole asset is served as animated glTF: binary (.glb) or JSON (.gltf); every clip. */
export function animatedGltfUrl(id, binary = true) {
  return `${asset(id)}/animated.${binary ? 'glb' : 'gltf'}`;
}

/** The animated glTF fetched with the page's credentials, as an object URL (a link cannot carry a bearer token). */
export async function animatedGltfBlobUrl(id, binary = true) {
  return URL.createObjectURL(await (await call('GET', animatedGltfUrl(id, binary))).blob());
}

/** Skeleton lines at the frame. */
export async function skeleton(id, frame) {
  return (await call('GET', `${asset(id)}/skeleton${sampling(frame)}`)).json();
}

/** Bounds of the posed asset at the frame. */
export async function bounds(id, frame) {
  return (await call('GET', `${asset(id)}/bounds${sampling(frame)}`)).json();
}

/** Bounds over the whole clip (every key and a 60 Hz grid): what the camera is framed from. */
export async function clipBounds(id, clip) {
  return (await call('GET', `${asset(id)}/bounds?${new URLSearchParams({ clip, over: 'clip' })}`)).json();
}

/**
 * posekit's own CPU render of the frame (render.png) at the given size and view, on the stage's background colour;
 * resolves to an object URL of the PNG.
 */
export async function renderPng(id, frame, width, height, view) {
  const query = new URLSearchParams(frame.clip ? { clip: frame.clip, time: String(frame.time), loop: frame.loop } : {});
  Object.entries({ width: String(width), height: String(height), view, background: '1d2129' })
    .forEach(([name, value]) => query.set(name, value));
  return URL.createObjectURL(await (await call('GET', `${asset(id)}/render.png?${query}`)).blob());
}

async function postJson(url, body, accept) {
  return call('POST', url, { body: JSON.stringify(body), headers: { 'Content-Type': 'application/json', Accept: accept } });
}

/** The sampling body of one frame (the POST form of the query above) with extra fields (ik, rootMotion…). */
function samplingBody({ clip, time, loop }, extra) {
  return { ...(clip ? { clip, time, loop } : {}), ...extra };
}

/** One mesh instance posed at the frame with IK chains applied, as a glTF binary (ArrayBuffer), in the file's space. */
export async function posedMeshGlb(id, mesh, frame, ik) {
  return (await postJson(`${asset(id)}/meshes/${mesh}/skinned?coordinates=file`, samplingBody(frame, { ik }),
    'model/gltf-binary')).arrayBuffer();
}

/** Every node's model matrix at the frame with IK chains applied, and per chain whether it was reached. */
export async function modelPose(id, frame, ik) {
  return (await postJson(`${asset(id)}/pose?space=model`, samplingBody(frame, { ik }), 'application/json')).json();
}

/**
 * The root motion of a clip over `loops` loops at 30 frames per second (a bake of the rootMotion output, loop
 * repeat), and the root joint's model position at the clip's start: {joint, start: [x,y,z], frames: [{translation,
 * rotation}]}.
 */
export async function rootMotionPath(id, clip, duration, loops = 3) {
  const start = await (await call('GET', `${asset(id)}/pose?${new URLSearchParams({ clip, time: '0', space: 'model',
    rootMotion: 'extract' })}`)).json();
  const joint = start.rootMotion.joint;
  const matrix = start.nodes.find((n) => n.name === joint).matrix;
  const end = Math.max(duration, 1e-3) * loops;
  const bake = await (await postJson(`${asset(id)}/bake`, { clip, loop: 'repeat', rootMotion: 'extract',
    times: { start: 0, end, fps: 30 }, outputs: ['rootMotion'] }, 'application/x-ndjson')).text();
  const frames = bake.split('\n').filter((line) => line).map((line) => JSON.parse(line).rootMotion);
  return { joint, start: matrix.slice(12, 15), frames };
}
