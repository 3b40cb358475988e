// Run by CompressedGlbBrowserTest in the viewer page (executeAsyncScript): loads GLBs posekit wrote with three.js's own
// GLTFLoader and MeshoptDecoder (from the three.js WebJar the viewer serves, as a web frontend would load them), and
// answers what three.js made of each: for `urls` (key → URL), with `clip` posed at `time` seconds by an
// AnimationMixer when the file has animations (a posed.glb has none: it is posed already),
//   { extensionsUsed, extensionsRequired, meshes, vertexCount, indexCount, positionType, positionNormalized,
//     skinned, bones, animations: [{name, duration, tracks}], raw: the first mesh's position attribute as stored,
//     positions: its vertices as three.js draws them (SkinnedMesh.getVertexPosition: morphs and skinning, then the
//     mesh's world matrix: the quantization's node scale and offset, or its skin's inverse binds, applied) }
// plus `decoder`: the decoder module's HTTP status and content type, and `withoutDecoder`: the error GLTFLoader gives
// for `plain` (a meshopt file) when no MeshoptDecoder is set.
const done = arguments[arguments.length - 1];
const [urls, clip, time, plain] = arguments;
(async () => {
  try {
    const THREE = await import('three');
    const { GLTFLoader } = await import('three/addons/loaders/GLTFLoader.js');
    const decoderUrl = new URL('webjars/three/examples/jsm/libs/meshopt_decoder.module.js', document.baseURI);
    const decoderResponse = await fetch(decoderUrl);
    const { MeshoptDecoder } = await import('three/addons/libs/meshopt_decoder.module.js');
    const answer = {
      decoder: { status: decoderResponse.status, type: decoderResponse.headers.get('content-type') },
      files: {},
    };
    for (const [key, url] of Object.entries(urls)) {
      const gltf = await new GLTFLoader().setMeshoptDecoder(MeshoptDecoder).loadAsync(url);
      const scene = gltf.scene;
      scene.updateMatrixWorld(true);
      if (gltf.animations.length > 0) {
        const mixer = new THREE.AnimationMixer(scene);
        mixer.clipAction(THREE.AnimationClip.findByName(gltf.animations, clip)).play();
        mixer.setTime(time);
        scene.updateMatrixWorld(true);
      }
      const meshes = [];
      scene.traverse((o) => {
        if (o.isMesh) meshes.push(o);
      });
      const mesh = meshes[0];
      const position = mesh.geometry.attributes.position;
      // quantized positions are interleaved (int16 × 3 in a stride of 8): read the stored values where they are
      const interleaved = !!position.isInterleavedBufferAttribute;
      const array = interleaved ? position.data.array : position.array;
      const stride = interleaved ? position.data.stride : position.itemSize;
      const offset = interleaved ? position.offset : 0;
      const raw = [];
      for (let i = 0; i < position.count; i++) {
        for (let c = 0; c < 3; c++) raw.push(array[i * stride + offset + c]);
      }
      const positions = [];
      const v = new THREE.Vector3();
      for (let i = 0; i < position.count; i++) {
        mesh.getVertexPosition(i, v);
        v.applyMatrix4(mesh.matrixWorld);
        positions.push(v.x, v.y, v.z);
      }
      answer.files[key] = {
        extensionsUsed: gltf.parser.json.extensionsUsed || [],
        extensionsRequired: gltf.parser.json.extensionsRequired || [],
        meshes: meshes.length,
        vertexCount: position.count,
        indexCount: mesh.geometry.index ? mesh.geometry.index.count : -1,
        positionType: array.constructor.name,
        positionNormalized: position.normalized,
        skinned: !!mesh.isSkinnedMesh,
        bones: mesh.isSkinnedMesh ? mesh.skeleton.bones.length : 0,
        animations: gltf.animations.map((a) => ({ name: a.name, duration: a.duration, tracks: a.tracks.length })),
        raw,
        positions,
      };
    }
    try {
      await new GLTFLoader().loadAsync(plain);
      answer.withoutDecoder = null;
    } catch (e) {
      answer.withoutDecoder = String(e && e.message ? e.message : e);
    }
    done(answer);
  } catch (e) {
    done({ error: String(e && e.stack ? e.stack : e) });
  }
})();
