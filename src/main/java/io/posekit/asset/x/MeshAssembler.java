package io.posekit.asset.x;

import io.posekit.asset.ImportWarnings;
import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.VertexColors;
import io.posekit.skinning.Primitive;
import io.posekit.skinning.PrimitiveMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Turns a {@code Mesh} into a triangle {@link Primitive}.
 *
 * <p><b>Vertices.</b> A {@code .x} mesh indexes positions and MeshNormals separately (texture coordinates share the
 * position index), so a posekit vertex is a distinct (position index, normal index) pair, numbered in order of
 * first appearance walking the faces and their corners in file order; without MeshNormals it is a position.
 * Positions that no face uses are left out.
 *
 * <p><b>Triangles.</b> Faces of any size are fanned from their first corner; since the mirror into right-handed
 * space ({@link Handedness}) turns the winding, corner order is reversed: face {@code (v0, v1, …, vn−1)} gives
 * triangles {@code (v0, vi+1, vi)} for i = 1 … n−2. Faces with fewer than 3 corners are dropped with a warning.
 *
 * <p><b>Influences.</b> Every influence of a position (one per SkinWeights entry naming it, in SkinWeights order),
 * carried to every vertex split from it; {@code k = 4·ceil(max/4)} slots per vertex, padded with weight 0; weights
 * as stored. More than {@link io.posekit.asset.ImportLimits#maxInfluencesPerVertex()} influences on one vertex is too
 * large.
 */
final class MeshAssembler {

    private MeshAssembler() {
    }

    /**
     * The de-indexed geometry of a mesh.
     *
     * @param vertexPosition the file position index of each vertex
     * @param positions 3 per vertex, right-handed
     * @param normals 3 per vertex, right-handed, or {@code null}
     * @param indices 3 per triangle
     */
    record Geometry(int[] vertexPosition, float[] positions, float[] normals, int[] indices) {

        int vertexCount() {
            return vertexPosition.length;
        }
    }

    /** Splits and triangulates {@code m}. */
    static Geometry geometry(XDocument.Mesh m, DecodeBudget budget, ImportWarnings warnings) {
        int faces = m.faceCount();
        long corners = 0;
        long triangles = 0;
        int degenerate = 0;
        for (int f = 0; f < faces; f++) {
            int size = m.faceStart[f + 1] - m.faceStart[f];
            if (size < 3) {
                degenerate++;
            } else {
                corners += size;
                triangles += size - 2;
            }
        }
        if (degenerate > 0) {
            warnings.add(m.where + ": " + degenerate + (degenerate == 1 ? " face has" : " faces have")
                    + " fewer than 3 corners and " + (degenerate == 1 ? "is" : "are") + " dropped");
        }
        if (3 * triangles > Integer.MAX_VALUE - 16 || corners > 1 << 29) {
            throw ImportException.tooLarge(m.where + ": " + triangles + " triangles do not fit in one index array");
        }
        budget.charge(corners + 3 * triangles, 4, m.where + " triangles");
        int[] cornerVertex = new int[(int) corners];
        VertexTable table = new VertexTable(m, corners, budget);
        int at = 0;
        for (int f = 0; f < faces; f++) {
            int from = m.faceStart[f];
            int size = m.faceStart[f + 1] - from;
            if (size < 3) {
                continue;
            }
            for (int c = 0; c < size; c++) {
                int normal = m.normalIndices == null ? -1 : m.normalIndices[from + c];
                cornerVertex[at++] = table.vertex(m.faceIndices[from + c], normal);
            }
        }
        int[] indices = new int[(int) (3 * triangles)];
        int corner = 0;
        int out = 0;
        for (int f = 0; f < faces; f++) {
            int size = m.faceStart[f + 1] - m.faceStart[f];
            if (size < 3) {
                continue;
            }
            for (int i = 1; i + 1 < size; i++) {
                indices[out++] = cornerVertex[corner];
                indices[out++] = cornerVertex[corner + i + 1];
                indices[out++] = cornerVertex[corner + i];
            }
            corner += size;
        }
        int n = table.count();
        budget.charge((m.normals == null ? 3L : 6L) * n, 4, m.where + " vertices");
        float[] positions = new float[3 * n];
        float[] normals = m.normals == null ? null : new float[3 * n];
        int[] vertexPosition = Arrays.copyOf(table.positionOf, n);
        for (int v = 0; v < n; v++) {
            Handedness.vector(m.positions, 3 * vertexPosition[v], positions, 3 * v);
            if (normals != null) {
                Handedness.vector(m.normals, 3 * table.normalOf[v], normals, 3 * v);
            }
        }
        return new Geometry(vertexPosition, positions, normals, indices);
    }

    /**
     * Every MeshTextureCoords per vertex, in file order (they share the position index; .x's top-left origin is
     * glTF's), up to the first set with a value that is not finite (with a warning: the sets after it cannot take
     * its number).
     */
    private static List<float[]> texcoordSets(XDocument.Mesh m, Geometry g, DecodeBudget budget,
            ImportWarnings warnings) {
        int n = g.vertexCount();
        List<float[]> out = new ArrayList<>();
        for (int s = 0; s < m.texcoordSets.size(); s++) {
            float[] stored = m.texcoordSets.get(s);
            budget.charge(2L * n, 4, m.where + " texture coordinates");
            float[] uv = new float[2 * n];
            for (int v = 0; v < n; v++) {
                int p = g.vertexPosition()[v];
                uv[2 * v] = stored[2 * p];
                uv[2 * v + 1] = stored[2 * p + 1];
                if (!Float.isFinite(uv[2 * v]) || !Float.isFinite(uv[2 * v + 1])) {
                    warnings.add(m.where + ": texture coordinate " + p + (s == 0 ? "" : " of set " + s) + " is not"
                            + " finite; the texture coordinates" + (s == 0 ? "" : " of it and later sets")
                            + " are not carried");
                    return out;
                }
            }
            out.add(uv);
        }
        return out;
    }

    /**
     * The MeshVertexColors per vertex (they share the position index, so they never split a vertex), or {@code null}
     * when there are none or one is not finite (with a warning, {@link VertexColors}).
     */
    private static float[] colors(XDocument.Mesh m, Geometry g, DecodeBudget budget, ImportWarnings warnings) {
        if (m.colors == null) {
            return null;
        }
        int n = g.vertexCount();
        budget.charge(4L * n, 4, m.where + " vertex colours");
        float[] out = new float[4 * n];
        for (int v = 0; v < n; v++) {
            System.arraycopy(m.colors, 4 * g.vertexPosition()[v], out, 4 * v, 4);
        }
        return VertexColors.finiteOrWarn(out, m.where, warnings);
    }

    /**
     * Builds the primitive of {@code g}.
     *
     * @param boneJoints for each of the mesh's bones, the skin joint index its influences bind to, or −1 to drop
     *     them; {@code null} for a rigid mesh
     */
    static Primitive primitive(XDocument.Mesh m, Geometry g, int[] boneJoints, DecodeBudget budget, ImportWarnings warnings) {
        List<String> attributes = new ArrayList<>();
        attributes.add("POSITION");
        if (g.normals() != null) {
            attributes.add("NORMAL");
        }
        for (int s = 0; s < m.texcoordSets.size(); s++) {
            attributes.add("TEXCOORD_" + s);
        }
        if (m.colors != null) {
            attributes.add("COLOR_0");
        }
        int k = 0;
        int[] joints = new int[0];
        float[] weights = new float[0];
        if (boneJoints != null) {
            Influences inf = influences(m, boneJoints, budget);
            k = (inf.max + 3) / 4 * 4;
            int n = g.vertexCount();
            budget.charge((long) n * k, 8, m.where + " influences");
            if ((long) n * k > Integer.MAX_VALUE - 16) {
                throw ImportException.tooLarge(m.where + ": " + n + " vertices × " + k
                        + " influence slots do not fit in one array");
            }
            joints = new int[n * k];
            weights = new float[n * k];
            int unweighted = 0;
            for (int v = 0; v < n; v++) {
                int p = g.vertexPosition()[v];
                int from = inf.start[p];
                int to = inf.start[p + 1];
                System.arraycopy(inf.joints, from, joints, v * k, to - from);
                System.arraycopy(inf.weights, from, weights, v * k, to - from);
                double sum = 0;
                for (int i = from; i < to; i++) {
                    sum += inf.weights[i];
                }
                if (sum == 0) {
                    unweighted++;
                }
            }
            for (int s = 0; s < k / 4; s++) {
                attributes.add("JOINTS_" + s);
                attributes.add("WEIGHTS_" + s);
            }
            if (unweighted > 0) {
                warnings.add(m.where + ": " + unweighted + " of " + n + " vertices have no skin weight; they follow the"
                        + " joint in their first influence slot");
            }
        }
        try {
            List<float[]> uvs = texcoordSets(m, g, budget, warnings);
            return new Primitive(PrimitiveMode.TRIANGLES, attributes, g.positions(), g.normals(), null, g.indices(), k,
                    joints, weights, uvs.isEmpty() ? null : uvs.getFirst(), null)
                    .withFurtherTexcoords(uvs.size() < 2 ? List.of() : uvs.subList(1, uvs.size()))
                    .withColors(colors(m, g, budget, warnings));
        } catch (IllegalArgumentException e) {
            throw ImportException.invalid(m.where + ": " + e.getMessage());
        }
    }

    /** Influences per file position: joints and weights of position p at {@code [start[p], start[p+1])}. */
    private record Influences(int[] start, int[] joints, float[] weights, int max) {
    }

    private static Influences influences(XDocument.Mesh m, int[] boneJoints, DecodeBudget budget) {
        int positions = m.vertexCount();
        budget.charge(positions + 1L, 4, m.where + " influence counts");
        int[] start = new int[positions + 1];
        long total = 0;
        for (int b = 0; b < m.bones.size(); b++) {
            if (boneJoints[b] < 0) {
                continue;
            }
            for (int v : m.bones.get(b).vertices()) {
                start[v + 1]++;
            }
            total += m.bones.get(b).vertices().length;
        }
        int max = 0;
        int limit = budget.limits().maxInfluencesPerVertex();
        for (int p = 0; p < positions; p++) {
            if (start[p + 1] > limit) {
                throw ImportLimits.exceeded(m.where + ": vertex " + p, start[p + 1], "joint influences", limit,
                        ImportLimits.INFLUENCES_PER_VERTEX);
            }
            max = Math.max(max, start[p + 1]);
            start[p + 1] += start[p];
        }
        budget.charge(total, 8, m.where + " influences");
        int[] joints = new int[(int) total];
        float[] weights = new float[(int) total];
        int[] fill = Arrays.copyOf(start, positions);
        for (int b = 0; b < m.bones.size(); b++) {
            int joint = boneJoints[b];
            if (joint < 0) {
                continue;
            }
            XDocument.Bone bone = m.bones.get(b);
            for (int i = 0; i < bone.vertices().length; i++) {
                int slot = fill[bone.vertices()[i]]++;
                joints[slot] = joint;
                weights[slot] = bone.weights()[i];
            }
        }
        return new Influences(start, joints, weights, max);
    }

    /**
     * Vertex numbers of (position, normal) pairs in first-appearance order: a direct table by position without
     * normals, an open-addressing hash of the pair otherwise (linear in the corners whatever the file holds).
     */
    private static final class VertexTable {

        private final boolean byPair;
        private final int[] byPosition;
        private final long[] keys;
        private final int[] values;
        private final int mask;
        final int[] positionOf;
        final int[] normalOf;
        private int count;

        VertexTable(XDocument.Mesh m, long corners, DecodeBudget budget) {
            byPair = m.normalIndices != null;
            budget.charge(corners, 8, m.where + " vertex table");
            positionOf = new int[(int) corners];
            normalOf = byPair ? new int[(int) corners] : null;
            if (byPair) {
                int capacity = Integer.highestOneBit((int) Math.max(16, Math.min(1 << 30, 2 * corners)) - 1) << 1;
                budget.charge(capacity, 12, m.where + " vertex table");
                keys = new long[capacity];
                Arrays.fill(keys, -1L);
                values = new int[capacity];
                mask = capacity - 1;
                byPosition = null;
            } else {
                budget.charge(m.vertexCount(), 4, m.where + " vertex table");
                byPosition = new int[m.vertexCount()];
                Arrays.fill(byPosition, -1);
                keys = null;
                values = null;
                mask = 0;
            }
        }

        int vertex(int position, int normal) {
            if (!byPair) {
                int v = byPosition[position];
                if (v < 0) {
                    v = count++;
                    byPosition[position] = v;
                    positionOf[v] = position;
                }
                return v;
            }
            long key = ((long) position << 32) | (normal & 0xFFFF_FFFFL);
            int slot = (int) mix(key) & mask;
            while (keys[slot] != -1L) {
                if (keys[slot] == key) {
                    return values[slot];
                }
                slot = (slot + 1) & mask;
            }
            int v = count++;
            keys[slot] = key;
            values[slot] = v;
            positionOf[v] = position;
            normalOf[v] = normal;
            return v;
        }

        int count() {
            return count;
        }

        private static long mix(long z) {
            z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
            z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
            return z ^ (z >>> 33);
        }
    }
}
