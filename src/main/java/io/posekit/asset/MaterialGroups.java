package io.posekit.asset;

import io.posekit.skinning.Material;
import io.posekit.skinning.MorphTargets;
import io.posekit.skinning.Primitive;
import io.posekit.skinning.PrimitiveMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Splits an indexed triangle primitive whose triangles use several materials (an FBX {@code LayerElementMaterial},
 * a {@code .x} {@code MeshMaterialList}) into one primitive per material — glTF's and the renderer's unit of surface.
 * Each part keeps only the vertices its triangles use (in order of first use), with every attribute, influence, texture
 * coordinate set, colour and morph target delta of those vertices, so posing costs no more than the whole did.
 */
public final class MaterialGroups {

    private MaterialGroups() {
    }

    /**
     * The parts of {@code whole}, in ascending material index; triangles without a usable material (index −1) form a
     * last part without material. A primitive whose triangles all use one material comes back whole (sharing its
     * arrays) with that material.
     *
     * @param whole an indexed {@link PrimitiveMode#TRIANGLES} primitive
     * @param triangleMaterial per triangle, an index into {@code materials}, or −1
     * @param materials the materials (an entry may be {@code null}: no material)
     * @throws IllegalArgumentException when the counts disagree or an index is out of range
     */
    public static List<Primitive> split(Primitive whole, int[] triangleMaterial, Material[] materials,
            DecodeBudget budget) {
        int[] indices = whole.indices();
        if (whole.mode() != PrimitiveMode.TRIANGLES || indices == null || indices.length != 3 * triangleMaterial.length) {
            throw new IllegalArgumentException("material groups need an indexed triangle list with one material index"
                    + " per triangle");
        }
        int groups = materials.length + 1;
        int[] triangles = new int[groups];
        for (int m : triangleMaterial) {
            if (m < -1 || m >= materials.length) {
                throw new IllegalArgumentException("material index " + m + " is out of range for " + materials.length);
            }
            triangles[m < 0 ? materials.length : m]++;
        }
        List<Primitive> parts = new ArrayList<>();
        for (int g = 0; g < groups; g++) {
            if (triangles[g] == 0) {
                continue;
            }
            Material material = g < materials.length ? materials[g] : null;
            int group = g < materials.length ? g : -1;
            if (triangles[g] == triangleMaterial.length) {
                return List.of(rebuild(whole, identity(whole.vertexCount()), indices, material));
            }
            budget.charge(3L * triangles[g] + whole.vertexCount(), 8, "material group " + g + " indices");
            int[] newIndex = new int[whole.vertexCount()];
            Arrays.fill(newIndex, -1);
            int[] partIndices = new int[3 * triangles[g]];
            int[] used = new int[whole.vertexCount()];
            int vertices = 0;
            int at = 0;
            for (int t = 0; t < triangleMaterial.length; t++) {
                if (triangleMaterial[t] != group) {
                    continue;
                }
                for (int c = 0; c < 3; c++) {
                    int v = indices[3 * t + c];
                    if (newIndex[v] < 0) {
                        newIndex[v] = vertices;
                        used[vertices++] = v;
                    }
                    partIndices[at++] = newIndex[v];
                }
            }
            budget.charge(vertices, bytesPerVertex(whole), "material group " + g + " vertices");
            parts.add(rebuild(whole, Arrays.copyOf(used, vertices), partIndices, material));
        }
        return parts;
    }

    private static int[] identity(int n) {
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            out[i] = i;
        }
        return out;
    }

    private static int bytesPerVertex(Primitive p) {
        int floats = 3 + (p.normals() == null ? 0 : 3) + (p.tangents() == null ? 0 : 4) + 2 * p.influencesPerVertex()
                + 2 * p.texcoordSets().size() + (p.colors() == null ? 0 : 4)
                + (p.dualQuaternionWeights() == null ? 0 : 1);
        MorphTargets m = p.morphTargets();
        return 4 * (floats + (m == null ? 0 : 6 * m.targetCount()));
    }

    /** {@code whole} restricted to the vertices {@code used} (new vertex i = old vertex used[i]). */
    private static Primitive rebuild(Primitive whole, int[] used, int[] indices, Material material) {
        boolean same = used.length == whole.vertexCount();
        int k = whole.influencesPerVertex();
        List<float[]> sets = whole.texcoordSets();
        List<float[]> further = new ArrayList<>();
        for (int s = 1; s < sets.size(); s++) {
            further.add(same ? sets.get(s) : pick(sets.get(s), 2, used));
        }
        Primitive part = new Primitive(PrimitiveMode.TRIANGLES, whole.attributes(),
                same ? whole.positions() : pick(whole.positions(), 3, used),
                same ? whole.normals() : pick(whole.normals(), 3, used),
                same ? whole.tangents() : pick(whole.tangents(), 4, used), indices, k,
                same ? whole.joints() : pick(whole.joints(), k, used),
                same ? whole.weights() : pick(whole.weights(), k, used),
                sets.isEmpty() ? null : same ? sets.getFirst() : pick(sets.getFirst(), 2, used), material)
                .withFurtherTexcoords(further)
                .withColors(same ? whole.colors() : pick(whole.colors(), 4, used))
                .withDualQuaternionWeights(same ? whole.dualQuaternionWeights()
                        : pick(whole.dualQuaternionWeights(), 1, used));
        MorphTargets targets = whole.morphTargets();
        if (targets == null) {
            return part;
        }
        if (same) {
            return part.withMorphTargets(targets);
        }
        int n = targets.targetCount();
        float[][] positions = new float[n][];
        float[][] normals = targets.hasNormalDeltas() ? new float[n][] : null;
        for (int t = 0; t < n; t++) {
            positions[t] = pick(targets.positionDeltas(t), 3, used);
            if (normals != null) {
                normals[t] = pick(targets.normalDeltas(t), 3, used);
            }
        }
        return part.withMorphTargets(new MorphTargets(used.length, positions, normals));
    }

    private static float[] pick(float[] data, int width, int[] used) {
        if (data == null) {
            return null;
        }
        float[] out = new float[width * used.length];
        for (int i = 0; i < used.length; i++) {
            System.arraycopy(data, width * used[i], out, width * i, width);
        }
        return out;
    }

    private static int[] pick(int[] data, int width, int[] used) {
        int[] out = new int[width * used.length];
        for (int i = 0; i < used.length; i++) {
            System.arraycopy(data, width * used[i], out, width * i, width);
        }
        return out;
    }
}
