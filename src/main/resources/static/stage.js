// The three.js side of the viewer: it only draws what posekit computed (a posed GLB, skeleton lines, a box), and
// never skins or animates anything itself. It renders on demand (after a frame or a camera move), not in a loop,
// so an idle page costs nothing.
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { RoomEnvironment } from 'three/addons/environments/RoomEnvironment.js';
import { TransformControls } from 'three/addons/controls/TransformControls.js';

const SKELETON_COLOR = 0xff8c1a;
const BOX_COLOR = 0x2ecc71;
const PATH_COLOR = 0x3fd0ff;
const HANDLE_COLOR = 0xff3fa4;

export class Stage {
  constructor(canvas) {
    this.canvas = canvas;
    // preserveDrawingBuffer: the last frame stays readable, for screenshots of the canvas
    this.renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(window.devicePixelRatio);
    this.scene = new THREE.Scene();
    this.scene.background = new THREE.Color(0x1d2129);
    // an environment so that glTF's default material (metallic 1) and metallic sources do not render black; 128
    // texels: the default 256 takes seconds to build on a machine without a GPU (SwiftShader), and 64 comes out black
    const pmrem = new THREE.PMREMGenerator(this.renderer);
    this.scene.environment = pmrem.fromScene(new RoomEnvironment(), 0.04, 0.1, 100, { size: 128 }).texture;
    pmrem.dispose();
    this.camera = new THREE.PerspectiveCamera(40, 1, 0.01, 1000);
    this.controls = new OrbitControls(this.camera, canvas);
    this.controls.addEventListener('change', () => this.render());
    this.loader = new GLTFLoader();
    this.mesh = null;
    this.lines = null;
    this.box = null;
    this.path = null;
    // the IK target handle: a sphere the user drags (three's TransformControls, translate mode)
    this.handle = new THREE.Mesh(new THREE.SphereGeometry(1, 16, 12),
      new THREE.MeshBasicMaterial({ color: HANDLE_COLOR, depthTest: false, transparent: true }));
    this.handle.renderOrder = 2;
    this.handle.visible = false;
    this.scene.add(this.handle);
    this.gizmo = new TransformControls(this.camera, canvas);
    this.gizmo.addEventListener('change', () => this.render());
    this.gizmo.addEventListener('dragging-changed', (e) => {
      this.controls.enabled = !e.value; // no orbiting while a handle is dragged
      if (!e.value && this.onHandleMoved) {
        this.onHandleMoved(this.handle.position.toArray());
      }
    });
    this.scene.add(this.gizmo.getHelper());
    new ResizeObserver(() => this.resize()).observe(canvas);
    this.resize();
  }

  resize() {
    const { clientWidth: w, clientHeight: h } = this.canvas;
    if (w === 0 || h === 0) {
      return;
    }
    this.renderer.setSize(w, h, false);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
    this.render();
  }

  render() {
    this.renderer.render(this.scene, this.camera);
  }

  /**
   * Shows one frame: the posed GLB (ArrayBuffer, or several, one per mesh instance, or null for an asset without
   * meshes), the skeleton response and
   * the bounds response, replacing the previous frame's objects at once.
   */
  async show(glb, skeleton, bounds) {
    const glbs = glb == null ? [] : [glb].flat();
    const scenes = await Promise.all(glbs.map(async (b) => prepare((await this.loader.parseAsync(b, '')).scene)));
    const group = scenes.length === 1 ? scenes[0] : scenes.length ? new THREE.Group().add(...scenes) : null;
    this.replace('mesh', group);
    this.replace('lines', skeletonObject(skeleton));
    const b = bounds.asset ?? bounds.skeleton;
    this.replace('box', b ? new THREE.Box3Helper(box3(b), BOX_COLOR) : null);
    this.render();
  }

  /**
   * Shows the draggable IK handle at `position` ([x, y, z], model space) sized for a skeleton of `radius`, calling
   * `onMoved([x, y, z])` when a drag ends; `position` null hides it.
   */
  showHandle(position, radius, onMoved) {
    this.onHandleMoved = onMoved;
    if (!position) {
      this.gizmo.detach();
      this.handle.visible = false;
    } else {
      this.handle.position.set(...position);
      this.handle.scale.setScalar(Math.max(radius, 1e-3) * 0.03);
      this.handle.visible = true;
      this.gizmo.attach(this.handle);
      this.gizmo.size = 0.6;
    }
    this.render();
  }

  /** Moves the IK handle (as a drag would) and reports it; for the browser test and the keyboard-less. */
  moveHandle(position) {
    this.handle.position.set(...position);
    this.render();
    this.onHandleMoved?.(position);
  }

  /** The root-motion path: a polyline through `points` (flat [x, y, z, …], model space); null removes it. */
  showPath(points) {
    if (!points) {
      this.replace('path', null);
    } else {
      const geometry = new THREE.BufferGeometry();
      geometry.setAttribute('position', new THREE.Float32BufferAttribute(points, 3));
      const line = new THREE.Line(geometry, new THREE.LineBasicMaterial({ color: PATH_COLOR, depthTest: false,
        transparent: true }));
      line.renderOrder = 1;
      this.replace('path', line);
    }
    this.render();
  }

  /** Points the camera at a bounds object's sphere from a three-quarter view, far enough to see all of it. */
  frame(bounds) {
    const b = bounds.asset ?? bounds.skeleton;
    const center = b ? new THREE.Vector3(...b.center) : new THREE.Vector3();
    const radius = b && b.radius > 0 ? b.radius : 1;
    const distance = 1.15 * radius / Math.sin(THREE.MathUtils.degToRad(this.camera.fov / 2));
    const direction = new THREE.Vector3(0.55, 0.35, 1).normalize();
    this.camera.position.copy(center).addScaledVector(direction, distance);
    this.camera.near = distance / 100;
    this.camera.far = distance * 100;
    this.camera.updateProjectionMatrix();
    this.controls.target.copy(center);
    this.controls.update();
    this.render();
  }

  /** The orbit camera's direction from its target as posekit's view parameter, `<yaw>,<pitch>` in degrees. */
  viewParameter() {
    const d = this.camera.position.clone().sub(this.controls.target).normalize();
    const yaw = THREE.MathUtils.radToDeg(Math.atan2(d.x, d.z));
    const pitch = THREE.MathUtils.radToDeg(Math.asin(THREE.MathUtils.clamp(d.y, -1, 1)));
    return `${yaw.toFixed(2)},${pitch.toFixed(2)}`;
  }

  /**
   * Draws a posed GLB alone, with exactly the camera posekit reports (the Posekit-Camera header of render.png:
   * eye, target, up, fovY, aspect, near, far), into a width × height PNG data URL on a transparent background, faces
   * culled as the materials say (not both sides as on the stage), points and lines left out as posekit's renderer
   * does. The browser test compares its silhouette with render.png's.
   */
  async snapshot(glb, cam, width, height) {
    const gltf = await this.loader.parseAsync(glb, '');
    gltf.scene.traverse((o) => {
      if (o.isPoints || o.isLine) {
        o.visible = false;
      }
    });
    // one offscreen renderer, reused: a page may only hold a few WebGL contexts; and its own environment map, as
    // textures do not cross WebGL contexts
    if (!this.offscreen) {
      this.offscreen = new THREE.WebGLRenderer({ antialias: true, alpha: true, preserveDrawingBuffer: true });
      const pmrem = new THREE.PMREMGenerator(this.offscreen);
      this.offscreenEnvironment = pmrem.fromScene(new RoomEnvironment(), 0.04, 0.1, 100, { size: 128 }).texture;
      pmrem.dispose();
    }
    const scene = new THREE.Scene();
    scene.environment = this.offscreenEnvironment;
    scene.add(gltf.scene);
    const camera = new THREE.PerspectiveCamera(cam.fovY, cam.aspect, cam.near, cam.far);
    camera.position.set(...cam.eye);
    camera.up.set(...cam.up);
    camera.lookAt(...cam.target);
    camera.updateProjectionMatrix();
    this.offscreen.setPixelRatio(1);
    this.offscreen.setSize(width, height, false);
    this.offscreen.setClearColor(0x000000, 0);
    this.offscreen.render(scene, camera);
    const url = this.offscreen.domElement.toDataURL('image/png');
    dispose(gltf.scene);
    return url;
  }

  replace(slot, object) {
    if (this[slot]) {
      this.scene.remove(this[slot]);
      dispose(this[slot]);
    }
    this[slot] = object;
    if (object) {
      this.scene.add(object);
    }
  }
}

/** Both faces drawn: a debugging view should show a mesh's back faces rather than holes. */
function prepare(root) {
  root.traverse((o) => {
    if (o.isMesh) {
      o.material.side = THREE.DoubleSide;
    }
  });
  return root;
}

/** The skeleton's segments (6 floats each) and joints, drawn over the mesh (no depth test). */
function skeletonObject(skeleton) {
  const group = new THREE.Group();
  const overlay = { color: SKELETON_COLOR, depthTest: false, transparent: true };
  const segments = new THREE.BufferGeometry();
  segments.setAttribute('position', new THREE.Float32BufferAttribute(skeleton.lines, 3));
  group.add(withOrder(new THREE.LineSegments(segments, new THREE.LineBasicMaterial(overlay))));
  const joints = new THREE.BufferGeometry();
  joints.setAttribute('position', new THREE.Float32BufferAttribute(skeleton.joints.flatMap((j) => j.position), 3));
  group.add(withOrder(new THREE.Points(joints, new THREE.PointsMaterial({ ...overlay, size: 6, sizeAttenuation: false }))));
  return group;
}

function withOrder(object) {
  object.renderOrder = 1; // after the mesh, so that it stays visible without a depth test
  return object;
}

function box3(b) {
  return new THREE.Box3(new THREE.Vector3(...b.min), new THREE.Vector3(...b.max));
}

function dispose(root) {
  root.traverse((o) => {
    o.geometry?.dispose();
    for (const m of [o.material].flat()) {
      if (m) {
        for (const value of Object.values(m)) {
          if (value?.isTexture) {
            value.dispose();
          }
        }
        m.dispose();
      }
    }
  });
}
