// The binding's joint mapping, in Node (three imports without a browser).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { mapJoints } from '../src/three.js';

it('maps posekit joint names onto GLTFLoader bone names: sanitised, repeated names suffixed, any order', () => {
  // GLTFLoader: 'mixamorig:Hips' → 'mixamorigHips', 'Left Arm' → 'Left_Arm', a second 'bone' → 'bone_1'
  assert.deepEqual(mapJoints(['mixamorig:Hips', 'Left Arm', 'bone', 'bone'], ['bone_1', 'Left_Arm', 'bone', 'mixamorigHips']), [3, 1, 2, 0]);
});

it('refuses a skeleton that lacks a joint, naming it, and one bone for two joints', () => {
  assert.throws(() => mapJoints(['Hips', 'Spine'], ['Hips', 'Chest']), /posekit joints without a bone of that name in the skeleton: 'Spine'; bones: Hips, Chest/);
  assert.throws(() => mapJoints(['', 'Spine'], ['Hips', 'Spine']), /#0 \(unnamed\)/);
});
