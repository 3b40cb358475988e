"""Builds two still scenes in Blender and exports each as FBX, COLLADA and glTF, for the test that compares posekit's
pictures of Blender's FBX and COLLADA with its picture of Blender's own glTF of the same scene (BlenderColoursTest):
the colours Blender shows are the glTF's (its baseColorFactor is the Principled BSDF's Base Color, linear, as
glTF says), so the FBX and COLLADA must draw the same.

Run headless (Debian's blender package, see /work/shared/tools/blender/README.md):

    blender -b --factory-startup --python tools/blender-fixtures/make_colour_fixtures.py -- OUT_DIR

Writes, in OUT_DIR:
  - swatches.fbx, swatches.dae, swatches.glb: six cubes, each an untextured material of one Base Color (saturated,
    dark and light, so a colour read in the wrong space shows), and a seventh, dark, with an orange Emission;
  - textured.fbx, textured.dae (+ textured_grid.png), textured.glb: one cube whose Base Color is an image texture,
    the socket's own value left at Blender's default 0.8 grey (what Blender writes as DiffuseColor beside the
    texture, and what it does not draw).
Deterministic: the same script gives the same scenes.
"""
import os
import sys

import bpy

out = sys.argv[sys.argv.index("--") + 1] if "--" in sys.argv else "."
os.makedirs(out, exist_ok=True)

# a cube of side 0.8 centred on (cx, cy, 0.4), faces outward, each face's UVs the whole unit square
CUBE_FACES = [(0, 3, 2, 1), (4, 5, 6, 7), (0, 1, 5, 4), (1, 2, 6, 5), (2, 3, 7, 6), (3, 0, 4, 7)]


def cube(name, cx, cy, material):
    h = 0.4
    verts = [(cx - h, cy - h, 0), (cx + h, cy - h, 0), (cx + h, cy + h, 0), (cx - h, cy + h, 0),
             (cx - h, cy - h, 2 * h), (cx + h, cy - h, 2 * h), (cx + h, cy + h, 2 * h), (cx - h, cy + h, 2 * h)]
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata(verts, [], CUBE_FACES)
    mesh.update()
    uv = mesh.uv_layers.new(name="UVMap")
    corners = [(0, 0), (1, 0), (1, 1), (0, 1)]
    for poly in mesh.polygons:
        for k, li in enumerate(poly.loop_indices):
            uv.data[li].uv = corners[k]
    mesh.materials.append(material)
    obj = bpy.data.objects.new(name, mesh)
    bpy.context.scene.collection.objects.link(obj)
    return obj


def clear():
    for o in list(bpy.data.objects):
        bpy.data.objects.remove(o)
    for m in list(bpy.data.materials):
        bpy.data.materials.remove(m)
    for m in list(bpy.data.meshes):
        bpy.data.meshes.remove(m)


def export(stem):
    bpy.ops.object.select_all(action="SELECT")
    bpy.ops.export_scene.fbx(filepath=os.path.join(out, stem + ".fbx"), path_mode="COPY", embed_textures=True,
                             bake_anim=False, add_leaf_bones=False, mesh_smooth_type="FACE")
    bpy.ops.wm.collada_export(filepath=os.path.join(out, stem + ".dae"), use_texture_copies=True, selected=False)
    bpy.ops.export_scene.gltf(filepath=os.path.join(out, stem + ".glb"), export_format="GLB", export_animations=False)


def principled(name, base):
    m = bpy.data.materials.new(name)
    m.use_nodes = True
    bsdf = m.node_tree.nodes["Principled BSDF"]
    if base is not None:
        bsdf.inputs["Base Color"].default_value = base
        m.diffuse_color = base
    return m, bsdf


# --- swatches: six plain colours (linear RGB, as Blender's colour pickers hold them) --------------------------------
clear()
colours = [(0.8, 0.1, 0.1, 1), (0.1, 0.6, 0.2, 1), (0.05, 0.2, 0.8, 1),
           (0.9, 0.8, 0.1, 1), (0.5, 0.5, 0.5, 1), (0.2, 0.05, 0.4, 1)]
for i, c in enumerate(colours):
    material, _ = principled("Swatch%d" % i, c)
    cube("Swatch%d" % i, (i % 3) * 1.0 - 1.0, (i // 3) * 1.0, material)
# a dark base that glows orange: FBX EmissiveColor (× EmissiveFactor, the strength), COLLADA <emission>
material, bsdf = principled("Glow", (0.05, 0.05, 0.05, 1))
bsdf.inputs["Emission"].default_value = (0.4, 0.15, 0.02, 1)
bsdf.inputs["Emission Strength"].default_value = 1.0
cube("Glow", 0.0, 2.0, material)
export("swatches")

# --- textured: one cube, Base Color from a 16x16 image of four coloured quadrants -----------------------------------
clear()
size = 16
image = bpy.data.images.new("textured_grid", width=size, height=size, alpha=False)
pixels = []
for y in range(size):
    for x in range(size):
        if x < size // 2 and y < size // 2:
            c = (0.9, 0.75, 0.2)
        elif x >= size // 2 and y < size // 2:
            c = (0.2, 0.6, 0.9)
        elif x < size // 2:
            c = (0.3, 0.8, 0.35)
        else:
            c = (0.95, 0.3, 0.6)
        pixels.extend((c[0], c[1], c[2], 1.0))
image.pixels = pixels
image.filepath_raw = os.path.join(out, "textured_grid.png")
image.file_format = "PNG"
image.save()
material, bsdf = principled("Textured", None)  # Base Color's own value stays Blender's default, 0.8 grey
tex = material.node_tree.nodes.new("ShaderNodeTexImage")
tex.image = image
material.node_tree.links.new(tex.outputs["Color"], bsdf.inputs["Base Color"])
cube("Textured", 0, 0, material)
export("textured")
print("wrote", sorted(os.listdir(out)))
