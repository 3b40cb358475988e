// Run by DressedFixturesBrowserTest in the viewer page (executeAsyncScript): loads an FBX or COLLADA file with
// three.js's own FBXLoader or ColladaLoader (not posekit), poses clip 0 at `time`, and draws it with the camera of
// posekit's Posekit-Camera header and posekit's documented light — ambient 0.30, key 0.85 from camera-space
// (-0.4, 0.6, 0.7), fill 0.35 from (0.6, -0.1, 0.5), Lambert, opaque — so the pictures differ only in what the two
// loaders made of the file: geometry, skinning, animation, materials, textures and texture coordinates.
// `colours` (material name → linear RGB) replaces three.js's base colour of those materials: posekit's colours of a
// file Blender wrote, which follow Blender's linear values rather than three.js's sRGB reading (see the test).
// Answers { png, influences, names, positions } (positions: the morphed, unskinned geometry of the first mesh with
// morph targets, 3 floats per vertex of three.js's non-indexed geometry).
const done = arguments[arguments.length - 1];
const [fileUrl, kind, cameraJson, size, time, images, colours] = arguments;
(async () => {
  const THREE = await import('three');
  let root;
  let clips;
  if (kind === 'fbx') {
    const { FBXLoader } = await import('three/addons/loaders/FBXLoader.js');
    const { TGALoader } = await import('three/addons/loaders/TGALoader.js');
    const manager = new THREE.LoadingManager();
    manager.addHandler(/\.tga$/i, new TGALoader(manager));
    root = new FBXLoader(manager).parse(await (await fetch(fileUrl)).arrayBuffer(), '');
    clips = root.animations;
  } else {
    const { ColladaLoader } = await import('three/addons/loaders/ColladaLoader.js');
    let text = await (await fetch(fileUrl)).text();
    for (const [name, dataUrl] of Object.entries(images)) {
      text = text.split(name).join(dataUrl);
    }
    const collada = new ColladaLoader().parse(text, '');
    root = collada.scene;
    clips = collada.scene.animations || [];
  }
  // textures load asynchronously: wait until every map has its pixels (at most 10 s)
  const maps = [];
  root.traverse((o) => {
    if (o.isMesh) {
      for (const m of Array.isArray(o.material) ? o.material : [o.material]) {
        if (m.map) maps.push(m.map);
      }
    }
  });
  for (let i = 0; i < 200 && maps.some((t) => !t.image || !(t.image.width > 0)); i++) {
    await new Promise((r) => setTimeout(r, 50));
  }
  // posekit's light model on three.js's materials (three.js's Lambert BRDF is albedo / pi)
  root.traverse((o) => {
    if (o.isMesh) {
      const lambert = (m) => {
        const given = colours && colours[m.name];
        // setRGB takes the working space's values: linear sRGB, as posekit's
        const color = given ? new THREE.Color().setRGB(given[0], given[1], given[2]) : m.color;
        return new THREE.MeshLambertMaterial({ color, map: m.map || null, side: m.side });
      };
      o.material = Array.isArray(o.material) ? o.material.map(lambert) : lambert(o.material);
    }
  });
  const scene = new THREE.Scene();
  scene.add(root);
  if (clips.length > 0 && time >= 0) {
    const mixer = new THREE.AnimationMixer(root);
    mixer.clipAction(clips[0]).play();
    mixer.setTime(time);
  }
  root.updateMatrixWorld(true);
  const cam = JSON.parse(cameraJson);
  const camera = new THREE.PerspectiveCamera(cam.fovY, cam.aspect, cam.near, cam.far);
  camera.position.set(...cam.eye);
  camera.up.set(...cam.up);
  camera.lookAt(...cam.target);
  camera.updateProjectionMatrix();
  scene.add(camera);
  scene.add(new THREE.AmbientLight(0xffffff, 0.30 * Math.PI));
  for (const [intensity, dir] of [[0.85, [-0.4, 0.6, 0.7]], [0.35, [0.6, -0.1, 0.5]]]) {
    const light = new THREE.DirectionalLight(0xffffff, intensity * Math.PI);
    light.position.set(...dir);
    camera.add(light);
    camera.add(light.target);
  }
  scene.updateMatrixWorld(true);
  const renderer = new THREE.WebGLRenderer({ antialias: true, alpha: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(1);
  renderer.setSize(size, size, false);
  renderer.setClearColor(0x000000, 0);
  renderer.render(scene, camera);
  const png = renderer.domElement.toDataURL('image/png');
  renderer.dispose();
  let influences = [];
  let names = [];
  let positions = [];
  root.traverse((o) => {
    if (o.isMesh && o.morphTargetInfluences && influences.length === 0) {
      influences = Array.from(o.morphTargetInfluences);
      names = Object.keys(o.morphTargetDictionary).sort((a, b) => o.morphTargetDictionary[a] - o.morphTargetDictionary[b]);
      const base = o.geometry.attributes.position;
      const targets = o.geometry.morphAttributes.position || [];
      for (let v = 0; v < base.count; v++) {
        for (let c = 0; c < 3; c++) {
          let p = base.array[3 * v + c];
          for (let t = 0; t < targets.length; t++) {
            const d = targets[t].array[3 * v + c];
            p += influences[t] * (o.geometry.morphTargetsRelative ? d : d - base.array[3 * v + c]);
          }
          positions.push(p);
        }
      }
    }
  });
  const objects = [];
  root.traverse((o) => objects.push(o.type + ' ' + o.name));
  const tracks = clips.map((c) => c.name + ' ' + c.duration + ': ' + c.tracks.map((t) => t.name + ' ['
    + t.times[0] + '..' + t.times[t.times.length - 1] + ']').join(', '));
  return { png, influences, names, positions, tracks, objects };
})().then(done).catch((e) => done({ error: String(e && e.stack || e) }));
