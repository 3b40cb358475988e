// three.js binding: posekit's skinning matrices drive a SkinnedMesh loaded with GLTFLoader (one request per frame),
// and a posed GLB loads as a static mesh. `three` is a peer dependency.
import { Matrix4, type Object3D, type SkinnedMesh, type Bone, PropertyBinding } from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import type { Asset, AssetSummary, CallOptions, MatricesOptions, PosedGlbOptions } from './index.js';

/**
 * One posekit skin driving the SkinnedMeshes that use it (a glTF mesh with several primitives is several
 * SkinnedMeshes on the same bones). posekit's skinning matrix S_k maps a bind-shape vertex to model space; three.js
 * draws `matrixWorld · bindMatrixInverse · Σ w_k · bone_k.matrixWorld · boneInverse_k · bindMatrix · v`. So each
 * bone's world matrix is set to `(matrixWorld · bindMatrixInverse)⁻¹ · R · S_k · bindMatrix⁻¹ · boneInverse_k⁻¹`
 * (R: the world matrix of the object standing for posekit's model space, the loaded glTF scene), which makes
 * three.js draw exactly `R · S_k · v`, whatever the mesh's bind matrix, bind mode and bone inverses. Bones driven
 * so keep `matrixWorld` as set (`matrixAutoUpdate` and `matrixWorldAutoUpdate` off); objects attached to a bone
 * follow it.
 */
export class SkinDriver {
  /** posekit's skin index. */
  readonly skin: number;
  readonly meshes: SkinnedMesh[];
  /** bone of the first mesh's skeleton for posekit joint k. */
  readonly bones: Bone[];
  private readonly root: Object3D;
  /** bindMatrix⁻¹ · boneInverse_k⁻¹ per posekit joint. */
  private readonly right: Matrix4[];
  private readonly a = new Matrix4();
  private readonly s = new Matrix4();

  constructor(summary: AssetSummary, skin: number, meshes: SkinnedMesh[], root: Object3D) {
    if (meshes.length === 0) throw new Error(`skin ${skin}: no SkinnedMesh to drive`);
    const joints = summary.skins[skin]?.joints;
    if (!joints) throw new Error(`the asset has no skin ${skin} (it has ${summary.skins.length})`);
    this.skin = skin;
    this.meshes = meshes;
    this.root = root;
    const first = meshes[0];
    const map = mapJoints(joints.map((n) => summary.nodes[n].name ?? ''), first.skeleton.bones.map((b) => b.name));
    this.bones = map.map((i) => first.skeleton.bones[i]);
    for (const mesh of meshes.slice(1)) {
      const other = mapJoints(joints.map((n) => summary.nodes[n].name ?? ''), mesh.skeleton.bones.map((b) => b.name));
      other.forEach((i, k) => {
        if (mesh.skeleton.bones[i] !== this.bones[k]) throw new Error(`mesh '${mesh.name}' binds joint ${k} to another bone than '${first.name}'`);
        if (!mesh.skeleton.boneInverses[i].equals(first.skeleton.boneInverses[map[k]]) || !mesh.bindMatrix.equals(first.bindMatrix)) {
          throw new Error(`mesh '${mesh.name}' shares bones with '${first.name}' under another bind: drive it with its own SkinDriver`);
        }
      });
    }
    const bindInverse = first.bindMatrix.clone().invert();
    this.right = map.map((i) => bindInverse.clone().multiply(first.skeleton.boneInverses[i].clone().invert()));
    for (const bone of this.bones) {
      bone.matrixAutoUpdate = false;
      bone.matrixWorldAutoUpdate = false;
    }
  }

  /** Poses the bones from 16 floats per joint (column-major, the skin's joint order), as posekit answers them. */
  apply(matrices: ArrayLike<number>): void {
    if (matrices.length !== 16 * this.bones.length) {
      throw new Error(`skin ${this.skin}: ${matrices.length} floats for ${this.bones.length} joints (16 each)`);
    }
    const mesh = this.meshes[0];
    this.root.updateWorldMatrix(true, false);
    mesh.updateWorldMatrix(true, false);
    // attached meshes recompute bindMatrixInverse from matrixWorld; detached ones keep theirs
    const bindMatrixInverse = mesh.bindMode === 'attached' ? this.a.copy(mesh.matrixWorld).invert() : mesh.bindMatrixInverse;
    this.a.multiplyMatrices(mesh.matrixWorld, bindMatrixInverse).invert().multiply(this.root.matrixWorld);
    for (let k = 0; k < this.bones.length; k++) {
      const bone = this.bones[k];
      this.s.fromArray(matrices as number[], 16 * k);
      bone.matrixWorld.multiplyMatrices(this.a, this.s).multiply(this.right[k]);
    }
    for (const bone of this.bones) {
      for (const child of bone.children) {
        if (!(child as Bone).isBone) child.updateMatrixWorld(true);
      }
    }
  }
}

/**
 * posekit joint names onto three.js bone names: GLTFLoader sanitises names (PropertyBinding.sanitizeNodeName) and
 * makes repeated ones unique (`name_1`, …). Every joint must map to exactly one bone; the error names what did not.
 */
export function mapJoints(joints: string[], bones: string[]): number[] {
  const byName = new Map<string, number>();
  bones.forEach((name, i) => byName.set(name, byName.has(name) ? -1 : i));
  const used = new Map<string, number>();
  const missing: string[] = [];
  const map = joints.map((joint, k) => {
    if (!joint) { // unnamed: only by position, and only onto an unnamed bone
      if (bones[k] === '') return k;
      missing.push(`#${k} (unnamed)`);
      return -1;
    }
    const base = PropertyBinding.sanitizeNodeName(joint);
    const seen = used.get(base) ?? 0;
    used.set(base, seen + 1);
    const name = seen === 0 ? base : `${base}_${seen}`;
    const i = byName.get(name);
    if (i === undefined || i < 0) {
      missing.push(`'${joint}'`);
      return -1;
    }
    return i;
  });
  if (missing.length > 0) {
    throw new Error(`posekit joints without a bone of that name in the skeleton: ${missing.join(', ')}; bones: ${bones.join(', ')}`);
  }
  if (new Set(map).size !== map.length) throw new Error('two posekit joints map to one bone');
  return map;
}

export interface CharacterOptions {
  /** The summary, if the caller has it (else one request). */
  summary?: AssetSummary;
  /**
   * The posekit skin of a SkinnedMesh (default: the skin whose joints map onto its skeleton; when several skins
   * would, the one of the mesh instance at the glTF node the mesh came from, through GLTFLoader's associations).
   */
  skinOf?: (mesh: SkinnedMesh) => number;
  /** GLTFLoader's parser (gltf.parser), to tell skins apart by glTF node when names cannot. */
  parser?: { associations: Map<object, { nodes?: number }> };
}

/**
 * A loaded glTF scene (the original upload or posekit's animated.glb) driven by posekit: every SkinnedMesh in it
 * posed by its skin's matrices. One request per skin per frame (one for the usual single-skin character).
 */
export class PosekitCharacter {
  readonly asset: Asset;
  readonly root: Object3D;
  readonly drivers: SkinDriver[];

  private constructor(asset: Asset, root: Object3D, drivers: SkinDriver[]) {
    this.asset = asset;
    this.root = root;
    this.drivers = drivers;
  }

  /**
   * Binds every SkinnedMesh under `root` (a GLTFLoader scene whose origin is posekit's model space: the original
   * upload, or animated.glb with `coordinates: 'file'`; for animated.glb in glTF's space, its default, update with
   * `coordinates: 'gltf'` so that the matrices are in the scene's space).
   */
  static async bind(asset: Asset, root: Object3D, options: CharacterOptions = {}): Promise<PosekitCharacter> {
    const summary = options.summary ?? await asset.summary();
    const meshes: SkinnedMesh[] = [];
    root.traverse((o) => { if ((o as SkinnedMesh).isSkinnedMesh) meshes.push(o as SkinnedMesh); });
    const bySkin = new Map<number, SkinnedMesh[]>();
    for (const mesh of meshes) {
      const skin = options.skinOf ? options.skinOf(mesh) : skinOf(summary, mesh, options.parser);
      bySkin.set(skin, [...(bySkin.get(skin) ?? []), mesh]);
    }
    root.updateWorldMatrix(false, true);
    const drivers = [...bySkin].sort(([a], [b]) => a - b).map(([skin, ms]) => new SkinDriver(summary, skin, ms, root));
    return new PosekitCharacter(asset, root, drivers);
  }

  /** Fetches the skinning matrices at the sampling (float32) and poses the bones: one request per skin. */
  async update(sampling: Omit<MatricesOptions, 'form'>, opts: CallOptions = {}): Promise<void> {
    const answers = await Promise.all(this.drivers.map((d) => this.asset.matrices(d.skin, { ...sampling, format: 'float32' }, opts)));
    answers.forEach((answer, i) => this.drivers[i].apply(answer.data));
  }
}

function skinOf(summary: AssetSummary, mesh: SkinnedMesh, parser?: CharacterOptions['parser']): number {
  const names = new Set(mesh.skeleton.bones.map((b) => b.name));
  const candidates = summary.skins.map((s, i) => i).filter((i) => {
    const joints = summary.skins[i].joints;
    if (joints.length !== mesh.skeleton.bones.length) return false;
    try {
      mapJoints(joints.map((n) => summary.nodes[n].name ?? ''), [...names]);
      return true;
    } catch {
      return false;
    }
  });
  if (candidates.length === 1) return candidates[0];
  const node = parser?.associations.get(mesh)?.nodes ?? (mesh.parent ? parser?.associations.get(mesh.parent)?.nodes : undefined);
  if (node !== undefined) {
    const instance = summary.meshes.find((m) => summary.nodes[m.node].sourceIndex === node);
    if (instance?.skin !== undefined && instance.skin !== null) return instance.skin;
  }
  throw new Error(candidates.length === 0
    ? `no posekit skin has the joints of mesh '${mesh.name}' (${[...names].join(', ')})`
    : `mesh '${mesh.name}' fits skins ${candidates.join(', ')}: pass gltf.parser or skinOf`);
}

/** The whole asset posed at the sampling, loaded as a static three.js scene (posekit's posed.glb). */
export async function loadPosed(asset: Asset, sampling: PosedGlbOptions = {}, opts: CallOptions = {}, loader = new GLTFLoader()): Promise<Object3D> {
  const glb = await asset.posedGlb(sampling, opts);
  const gltf = await loader.parseAsync(glb, '');
  return gltf.scene;
}
