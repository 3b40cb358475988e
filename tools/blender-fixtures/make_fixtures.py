"""Builds posekit's own test character in Blender and exports it as FBX (textures embedded) and COLLADA (with its
image), for the conformance tests that compare posekit with three.js's FBXLoader and ColladaLoader.

Run headless (Debian's blender package, see /work/shared/tools/blender/README.md):

    blender -b --factory-startup --python tools/blender-fixtures/make_fixtures.py -- OUT_DIR

Writes OUT_DIR/dressed.fbx, OUT_DIR/dressed.dae and OUT_DIR/dressed_skin.png. Everything is made here: a
capsule-like body of rings (two materials: a textured 'Skin' below the neck, a plain red 'Cap' above), a three-bone
armature with smooth vertex weights, two shape keys ('Smile' widens the head, 'Tall' lifts the top) and a 1 s action
that bends the spine and animates both shape keys. Deterministic: the same script gives the same geometry.
"""
import math
import os
import sys

import bpy

out = sys.argv[sys.argv.index("--") + 1] if "--" in sys.argv else "."
os.makedirs(out, exist_ok=True)

for o in list(bpy.data.objects):
    bpy.data.objects.remove(o)
scene = bpy.context.scene
scene.render.fps = 30
scene.frame_start = 0
scene.frame_end = 30

# --- the texture: 32x32, four coloured quadrants with a dark grid, so UV mistakes show -------------------------
size = 32
image = bpy.data.images.new("dressed_skin", width=size, height=size, alpha=False)
pixels = []
for y in range(size):
    for x in range(size):
        if x % 8 == 0 or y % 8 == 0:
            c = (0.1, 0.1, 0.1)
        elif x < size // 2 and y < size // 2:
            c = (0.9, 0.75, 0.2)
        elif x >= size // 2 and y < size // 2:
            c = (0.2, 0.6, 0.9)
        elif x < size // 2:
            c = (0.3, 0.8, 0.35)
        else:
            c = (0.95, 0.95, 0.9)
        pixels.extend((c[0], c[1], c[2], 1.0))
image.pixels = pixels
image.filepath_raw = os.path.join(out, "dressed_skin.png")
image.file_format = "PNG"
image.save()

# --- the body: rings of 16 around the Y axis (Blender's Z), from z = 0 to 2 ------------------------------------
segments = 16
heights = [0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.6, 1.75, 1.9, 2.0]
radii = [0.05, 0.35, 0.42, 0.4, 0.36, 0.32, 0.22, 0.25, 0.3, 0.22, 0.05]
verts = []
for z, r in zip(heights, radii):
    for s in range(segments):
        a = 2 * math.pi * s / segments
        verts.append((r * math.cos(a), r * math.sin(a), z))
faces = []
for ring in range(len(heights) - 1):
    for s in range(segments):
        a = ring * segments + s
        b = ring * segments + (s + 1) % segments
        faces.append((a, b, b + segments, a + segments))
mesh = bpy.data.meshes.new("DressedBody")
mesh.from_pydata(verts, [], faces)
mesh.update()
uv = mesh.uv_layers.new(name="UVMap")
for poly in mesh.polygons:
    for li in poly.loop_indices:
        v = mesh.loops[li].vertex_index
        ring, s = divmod(v, segments)
        # unwrap: u around, v up; the seam's second side gets u = 1
        u = s / segments
        if s == 0 and any(mesh.loops[k].vertex_index % segments == segments - 1 for k in poly.loop_indices):
            u = 1.0
        uv.data[li].uv = (u, heights[ring] / 2.0)

skin = bpy.data.materials.new("Skin")
skin.use_nodes = True
bsdf = skin.node_tree.nodes["Principled BSDF"]
bsdf.inputs["Base Color"].default_value = (1, 1, 1, 1)
tex = skin.node_tree.nodes.new("ShaderNodeTexImage")
tex.image = image
skin.node_tree.links.new(tex.outputs["Color"], bsdf.inputs["Base Color"])
cap = bpy.data.materials.new("Cap")
cap.use_nodes = True
cap.node_tree.nodes["Principled BSDF"].inputs["Base Color"].default_value = (0.8, 0.1, 0.1, 1)
cap.diffuse_color = (0.8, 0.1, 0.1, 1)
mesh.materials.append(skin)
mesh.materials.append(cap)
for poly in mesh.polygons:
    poly.material_index = 1 if min(mesh.vertices[v].co.z for v in poly.vertices) >= 1.5 else 0

body = bpy.data.objects.new("DressedBody", mesh)
scene.collection.objects.link(body)

# --- shape keys --------------------------------------------------------------------------------------------------
body.shape_key_add(name="Basis")
smile = body.shape_key_add(name="Smile")
tall = body.shape_key_add(name="Tall")
for i, v in enumerate(mesh.vertices):
    x, y, z = v.co
    if z >= 1.5:
        smile.data[i].co = (x * 1.4, y * 1.4, z)
    if z >= 1.75:
        tall.data[i].co = (x, y, z + 0.3)

# --- armature: Root (0 → 0.9), Spine (0.9 → 1.5), Head (1.5 → 2.0) ------------------------------------------------
arm_data = bpy.data.armatures.new("Rig")
rig = bpy.data.objects.new("Rig", arm_data)
scene.collection.objects.link(rig)
bpy.context.view_layer.objects.active = rig
bpy.ops.object.mode_set(mode="EDIT")
bones = {}
for name, head, tail, parent in (("Root", 0.0, 0.9, None), ("Spine", 0.9, 1.5, "Root"), ("Head", 1.5, 2.0, "Spine")):
    b = arm_data.edit_bones.new(name)
    b.head = (0, 0, head)
    b.tail = (0, 0, tail)
    if parent:
        b.parent = bones[parent]
        b.use_connect = True
    bones[name] = b
bpy.ops.object.mode_set(mode="OBJECT")

groups = {n: body.vertex_groups.new(name=n) for n in ("Root", "Spine", "Head")}
for i, v in enumerate(mesh.vertices):
    z = v.co.z
    # smooth blends across the joints at 0.9 and 1.5
    w_spine = min(1.0, max(0.0, (z - 0.7) / 0.4))
    w_head = min(1.0, max(0.0, (z - 1.4) / 0.2))
    w_root = 1.0 - w_spine
    w_spine = w_spine - w_head
    for name, w in (("Root", w_root), ("Spine", w_spine), ("Head", w_head)):
        if w > 1e-6:
            groups[name].add([i], w, "REPLACE")
body.parent = rig
mod = body.modifiers.new("Armature", "ARMATURE")
mod.object = rig

# --- the action: the spine bends forward and back, the head turns; Smile 0 → 1 → 0, Tall 0 → 1 --------------------
bpy.context.view_layer.objects.active = rig
bpy.ops.object.mode_set(mode="POSE")
spine = rig.pose.bones["Spine"]
head = rig.pose.bones["Head"]
spine.rotation_mode = "XYZ"
head.rotation_mode = "XYZ"
for frame, bend, turn in ((0, 0.0, 0.0), (15, 0.5, 0.6), (30, 0.0, 0.0)):
    spine.rotation_euler = (bend, 0, 0)
    head.rotation_euler = (0, 0, turn)
    spine.keyframe_insert("rotation_euler", frame=frame)
    head.keyframe_insert("rotation_euler", frame=frame)
bpy.ops.object.mode_set(mode="OBJECT")
rig.animation_data.action.name = "Sway"
keys = body.data.shape_keys
for frame, s, t in ((0, 0.0, 0.0), (15, 1.0, 0.5), (30, 0.0, 1.0)):
    keys.key_blocks["Smile"].value = s
    keys.key_blocks["Tall"].value = t
    keys.key_blocks["Smile"].keyframe_insert("value", frame=frame)
    keys.key_blocks["Tall"].keyframe_insert("value", frame=frame)
for fc in keys.animation_data.action.fcurves:
    for k in fc.keyframe_points:
        k.interpolation = "LINEAR"
for fc in rig.animation_data.action.fcurves:
    for k in fc.keyframe_points:
        k.interpolation = "LINEAR"
scene.frame_set(0)

bpy.ops.object.select_all(action="SELECT")
# every curve keyed at every frame (no simplification): three.js's FBXLoader builds a rotation track from its X
# curve's keys, so curves of different lengths would mislead it
bpy.ops.export_scene.fbx(filepath=os.path.join(out, "dressed.fbx"), path_mode="COPY", embed_textures=True,
                         bake_anim=True, bake_anim_use_all_actions=False, bake_anim_use_nla_strips=False,
                         bake_anim_simplify_factor=0.0,
                         add_leaf_bones=False, use_mesh_modifiers=False, mesh_smooth_type="FACE")
bpy.ops.wm.collada_export(filepath=os.path.join(out, "dressed.dae"), use_texture_copies=True,
                          include_animations=True, selected=False)
print("wrote", os.listdir(out))
