package io.posekit.asset.x;

import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportWarnings;
import io.posekit.asset.SourceFile;
import io.posekit.asset.SourceFiles;
import io.posekit.asset.SrgbColors;
import io.posekit.asset.TextureImages;
import io.posekit.skinning.Material;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * The materials of {@code .x} meshes: each face's entry of the {@code MeshMaterialList} (a list shorter than the
 * faces repeats its last entry, as assimp reads it), each {@code Material} — in the list, or a top-level one a
 * {@code { name }} reference names — as a {@link Material}: base colour the face colour (sRGB, turned linear; its
 * alpha below 1 blends), emissive the emissive colour, metallic 0 and roughness 1 (DirectX's model is not physically
 * based), and the image its {@code TextureFilename} names among the upload's files ({@link TextureImages}). A
 * reference naming no Material, or an image that cannot be used, is a warning; the face keeps no material, or its
 * colour.
 */
final class XMaterials {

    private final XDocument doc;
    private final SourceFile main;
    private final SourceFiles upload;
    private final DecodeBudget budget;
    private final ImportWarnings warnings;
    private final Map<XDocument.Material, Material> converted = new IdentityHashMap<>();
    private Map<String, XDocument.Material> byName;

    XMaterials(XDocument doc, SourceFile main, SourceFiles upload, DecodeBudget budget, ImportWarnings warnings) {
        this.doc = doc;
        this.main = main;
        this.upload = upload;
        this.budget = budget;
        this.warnings = warnings;
    }

    /** The materials of the mesh's list (an entry {@code null} where it cannot be used); empty without a list. */
    Material[] materials(XDocument.Mesh m) {
        XDocument.MaterialList list = m.materialList;
        if (list == null) {
            return new Material[0];
        }
        Material[] out = new Material[list.materials().size()];
        for (int i = 0; i < out.length; i++) {
            XDocument.Material source = list.materials().get(i);
            if (source == null) {
                source = named().get(list.references().get(i));
                if (source == null) {
                    warnings.add(list.where() + ": material " + i + " refers to "
                            + (list.references().get(i) == null ? "nothing" : XTokens.quote(list.references().get(i)))
                            + ", which is no Material of the file; its faces get none");
                    continue;
                }
            }
            out[i] = converted.computeIfAbsent(source, this::convert);
        }
        return out;
    }

    /**
     * Per triangle of {@link MeshAssembler#geometry} (faces of 3 or more corners, fan order), the index of its face's
     * material, or −1 where the list names one it does not hold; {@code null} when the mesh has no material list.
     */
    static int[] triangleMaterials(XDocument.Mesh m, int materialCount, int triangles) {
        XDocument.MaterialList list = m.materialList;
        if (list == null) {
            return null;
        }
        int[] out = new int[triangles];
        int[] faces = list.faceMaterials();
        int t = 0;
        for (int f = 0; f < m.faceCount(); f++) {
            int size = m.faceStart[f + 1] - m.faceStart[f];
            int material = faces.length == 0 ? 0 : faces[Math.min(f, faces.length - 1)];
            if (material >= materialCount) {
                material = -1;
            }
            for (int i = 0; i + 2 < size; i++) {
                out[t++] = material;
            }
        }
        return out;
    }

    private Map<String, XDocument.Material> named() {
        if (byName == null) {
            byName = new HashMap<>();
            for (XDocument.Material material : doc.materials) {
                if (material.name() != null) {
                    byName.putIfAbsent(material.name(), material);
                }
            }
        }
        return byName;
    }

    private Material convert(XDocument.Material x) {
        float[] face = x.faceColor();
        float[] base = {SrgbColors.toLinear(face[0]), SrgbColors.toLinear(face[1]), SrgbColors.toLinear(face[2]),
            Math.clamp(Float.isFinite(face[3]) ? face[3] : 1, 0f, 1f)};
        float[] e = x.emissive();
        float[] emissive = {SrgbColors.toLinear(e[0]), SrgbColors.toLinear(e[1]), SrgbColors.toLinear(e[2])};
        Material.Texture texture = x.textureFile() == null || x.textureFile().isBlank() ? null
                : TextureImages.fromUpload(main, upload, x.textureFile(), x.where(), budget, warnings);
        return new Material(x.name(), base, 0, 1, emissive,
                base[3] < 1 ? Material.AlphaMode.BLEND : Material.AlphaMode.OPAQUE, 0.5f, false, texture, 0);
    }
}
