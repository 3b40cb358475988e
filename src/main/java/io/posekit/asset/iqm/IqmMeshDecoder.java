package io.posekit.asset.iqm;

import io.posekit.asset.ImportWarnings;
import io.posekit.asset.NamedMaterials;
import io.posekit.skinning.Material;
import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.ImportScene;
import io.posekit.asset.VertexColors;
import io.posekit.skinning.Primitive;
import io.posekit.skinning.PrimitiveMode;
import java.util.ArrayList;
import java.util.List;

/**
 * Decodes IQM meshes into mesh instances: one instance per entry of the mesh table (named after the mesh, on the
 * synthetic root node, {@code sourceMesh} = its table index), each with one triangle primitive holding exactly
 * the mesh's vertices {@code first_vertex … first_vertex + num_vertexes − 1} in file order (vertex {@code i} of
 * the primitive is file vertex {@code first_vertex + i}) and its triangles rebased to them. A file with
 * triangles but an empty mesh table gets one unnamed mesh over all vertices and triangles.
 *
 * <p>Vertex arrays: POSITION (≥ 3 components), NORMAL (≥ 3), TANGENT (xyz and w, w = 1 when only 3 are stored),
 * BLENDINDEXES and BLENDWEIGHTS (the same number s of components; k = 4·⌈s/4⌉ influence slots per vertex), in
 * any of the nine IQM component formats. Positions, normals and tangents are read as stored (integers
 * unconverted, no normalisation); blend weights of integer formats are normalised (UBYTE / 255, the usual case)
 * and never renormalised to sum 1. TEXCOORD (its first two components) is carried as TEXCOORD_0; COLOR (3 or 4
 * components, RGB or RGBA; integer formats normalised, UBYTE / 255 the usual case, floats as stored) as COLOR_0
 * under {@link VertexColors}' rule; custom arrays are bounds-checked but not decoded. A second
 * array of a type is ignored with a warning.
 *
 * <p>Triangle winding: IQM's front faces are clockwise (Quake convention); each triangle {@code (a, b, c)} is
 * stored as {@code (a, c, b)} so front faces are counter-clockwise as in glTF (assimp does the same).
 */
final class IqmMeshDecoder {

    private final IqmFile file;
    private final IqmSkeleton skeleton;
    private final NamedMaterials materials;
    private final DecodeBudget budget;
    private final ImportWarnings warnings;
    private final VertexArray[] byType = new VertexArray[7];
    private final List<String> attributes = new ArrayList<>();

    IqmMeshDecoder(IqmFile file, IqmSkeleton skeleton, NamedMaterials materials, DecodeBudget budget,
            ImportWarnings warnings) {
        this.file = file;
        this.materials = materials;
        this.skeleton = skeleton;
        this.budget = budget;
        this.warnings = warnings;
    }

    /**
     * Every mesh.
     *
     * @throws ImportException invalid (422) naming the mesh, triangle, vertex array or vertex at fault
     */
    List<ImportScene.MeshInstance> decode() {
        readVertexArrays();
        long meshCount = file.numMeshes;
        if (meshCount == 0) {
            if (file.numTriangles > 0) {
                return List.of(instance(-1, null, null, 0, file.numVertexes, 0, file.numTriangles));
            }
            if (file.numVertexes > 0) {
                warnings.add("the file has " + file.numVertexes + " vertexes but no meshes or triangles; no geometry imported");
            }
            return List.of();
        }
        budget.charge(meshCount, 64, "meshes");
        List<ImportScene.MeshInstance> out = new ArrayList<>();
        for (int m = 0; m < meshCount; m++) {
            budget.checkTimeNow();
            long at = file.ofsMeshes + (long) m * IqmFile.MESH_SIZE;
            String name = file.text(file.u32(at), "mesh " + m + " name");
            String material = file.text(file.u32(at + 4), "mesh " + m + " material");
            out.add(instance(m, name, materials.forName(material, "mesh " + m + " material"), file.u32(at + 8),
                    file.u32(at + 12), file.u32(at + 16), file.u32(at + 20)));
        }
        return out;
    }

    private void readVertexArrays() {
        for (int i = 0; i < file.numVertexArrays; i++) {
            VertexArray array = VertexArray.read(file, i);
            if (array.type() >= byType.length) {
                if (array.type() < VertexArray.CUSTOM) {
                    warnings.add(array.describe() + " has a reserved type; ignored");
                }
                continue;
            }
            int type = (int) array.type();
            if (byType[type] != null) {
                warnings.add(array.describe() + " is a second " + array.name() + " array; ignored");
                continue;
            }
            byType[type] = array;
        }
        VertexArray position = byType[VertexArray.POSITION];
        require(position, 3, "3 (x, y, z)");
        require(byType[VertexArray.NORMAL], 3, "3 (x, y, z)");
        require(byType[VertexArray.TANGENT], 3, "3 or 4 (x, y, z[, w])");
        VertexArray indices = byType[VertexArray.BLENDINDEXES];
        VertexArray weights = byType[VertexArray.BLENDWEIGHTS];
        if ((indices == null) != (weights == null)) {
            VertexArray present = indices == null ? weights : indices;
            warnings.add(present.describe() + " has no " + (indices == null ? "BLENDINDEXES" : "BLENDWEIGHTS")
                    + " partner; the meshes are not skinned");
            byType[VertexArray.BLENDINDEXES] = null;
            byType[VertexArray.BLENDWEIGHTS] = null;
        } else if (indices != null) {
            if (indices.size() != weights.size()) {
                throw ImportException.invalid(indices.describe() + " and " + weights.describe()
                        + " have different numbers of components per vertex");
            }
            if (indices.size() == 0) {
                throw ImportException.invalid(indices.describe() + " has no components");
            }
            if (skeleton.jointCount() == 0) {
                warnings.add("the file has blend indexes and weights but no joints; the meshes are not skinned");
                byType[VertexArray.BLENDINDEXES] = null;
                byType[VertexArray.BLENDWEIGHTS] = null;
            }
        }
        attributes.add("POSITION");
        if (byType[VertexArray.NORMAL] != null) {
            attributes.add("NORMAL");
        }
        if (byType[VertexArray.TANGENT] != null) {
            attributes.add("TANGENT");
        }
        if (byType[VertexArray.TEXCOORD] != null) {
            attributes.add("TEXCOORD_0");
        }
        if (byType[VertexArray.COLOR] != null) {
            if (byType[VertexArray.COLOR].size() < 3) {
                warnings.add(byType[VertexArray.COLOR].describe() + " has fewer than 3 components (RGB); the colours"
                        + " are not carried");
                byType[VertexArray.COLOR] = null;
            } else {
                attributes.add("COLOR_0");
            }
        }
        if (byType[VertexArray.BLENDINDEXES] != null) {
            for (int s = 0; s < (byType[VertexArray.BLENDINDEXES].size() + 3) / 4; s++) {
                attributes.add("JOINTS_" + s);
                attributes.add("WEIGHTS_" + s);
            }
        }
    }

    private void require(VertexArray array, int components, String needed) {
        if (array != null && array.size() < components) {
            throw ImportException.invalid(array.describe() + " has " + array.size() + " components per vertex; "
                    + needed + " are needed");
        }
    }

    private ImportScene.MeshInstance instance(int index, String name, Material material, long firstVertex,
            long vertexCount, long firstTriangle, long triangleCount) {
        String where = index < 0 ? "the implicit mesh" : "mesh " + index + (name == null ? "" : " ('" + name + "')");
        if (firstVertex > file.numVertexes || vertexCount > file.numVertexes - firstVertex) {
            throw ImportException.invalid(where + ": vertexes " + firstVertex + " + " + vertexCount
                    + " exceed the file's num_vertexes " + file.numVertexes);
        }
        if (firstTriangle > file.numTriangles || triangleCount > file.numTriangles - firstTriangle) {
            throw ImportException.invalid(where + ": triangles " + firstTriangle + " + " + triangleCount
                    + " exceed the file's num_triangles " + file.numTriangles);
        }
        VertexArray position = byType[VertexArray.POSITION];
        if (position == null && vertexCount > 0) {
            throw ImportException.invalid(where + " has " + vertexCount + " vertexes but the file has no POSITION array");
        }
        VertexArray indexArray = byType[VertexArray.BLENDINDEXES];
        int s = indexArray == null ? 0 : indexArray.size();
        int maxInfluences = budget.limits().maxInfluencesPerVertex();
        if (s > maxInfluences) {
            throw ImportLimits.exceeded(indexArray.describe(), s, "joint influences per vertex", maxInfluences,
                    ImportLimits.INFLUENCES_PER_VERTEX);
        }
        int k = 4 * ((s + 3) / 4);
        if (3 * vertexCount > Integer.MAX_VALUE - 16 || 3 * triangleCount > Integer.MAX_VALUE - 16
                || k * vertexCount > Integer.MAX_VALUE - 16) {
            throw ImportException.tooLarge(where + ": " + vertexCount + " vertexes and " + triangleCount
                    + " triangles do not fit in one primitive");
        }
        int n = (int) vertexCount;
        float[] positions = position == null ? new float[0] : vectors(position, 3, firstVertex, n, where, false);
        float[] normals = vectors(byType[VertexArray.NORMAL], 3, firstVertex, n, where, false);
        float[] tangents = vectors(byType[VertexArray.TANGENT], 4, firstVertex, n, where, true);
        int[] indices = triangles(firstVertex, n, firstTriangle, (int) triangleCount, where);
        int[] joints = new int[0];
        float[] weights = new float[0];
        if (k > 0) {
            budget.charge((long) n * k, 8, where + " influences");
            joints = new int[n * k];
            weights = new float[n * k];
            influences(firstVertex, n, s, k, joints, weights, where);
        }
        Primitive primitive;
        try {
            primitive = new Primitive(PrimitiveMode.TRIANGLES, attributes, positions, normals, tangents, indices, k,
                    joints, weights, texcoords(firstVertex, n, where), material).withColors(colors(firstVertex, n, where));
        } catch (IllegalArgumentException e) {
            throw ImportException.invalid(where + ": " + e.getMessage());
        }
        return new ImportScene.MeshInstance(name, 0, k > 0 ? 0 : -1, index, List.of(primitive));
    }

    /** {@code width} finite floats per vertex from {@code array} ({@code null} when the array is absent). */
    private float[] vectors(VertexArray array, int width, long first, int n, String where, boolean tangent) {
        if (array == null) {
            return null;
        }
        budget.charge((long) n * width, 4, where + " " + array.name().toLowerCase(java.util.Locale.ROOT) + "s");
        float[] out = new float[n * width];
        int stored = Math.min(width, array.size());
        for (int v = 0; v < n; v++) {
            budget.checkTime();
            for (int c = 0; c < stored; c++) {
                double x = array.value(file, first + v, c);
                float f = (float) x;
                if (!Float.isFinite(f)) {
                    throw ImportException.invalid(where + ": " + array.describe() + " vertex " + (first + v)
                            + " component " + c + " is not finite (" + x + ")");
                }
                out[v * width + c] = f;
            }
            if (tangent && stored == 3) {
                out[v * width + 3] = 1;
            }
        }
        return out;
    }

    /**
     * The TEXCOORD array's first two components (IQM's top-left origin, as glTF), or {@code null} when there is none or
     * a value is not finite (with a warning: texture coordinates never failed an import).
     */
    private float[] texcoords(long firstVertex, int n, String where) {
        VertexArray array = byType[VertexArray.TEXCOORD];
        if (array == null || array.size() < 2) {
            return null;
        }
        try {
            return vectors(array, 2, firstVertex, n, where, false);
        } catch (ImportException e) {
            budget.checkTimeNow();
            if (e.kind() != ImportException.Kind.INVALID) {
                throw e;
            }
            warnings.add(e.getMessage() + "; the texture coordinates are not carried");
            return null;
        }
    }

    /**
     * The COLOR array as linear RGBA (alpha 1 when only RGB is stored; integer formats normalised, e.g. UBYTE / 255),
     * or {@code null} when there is none or a value is not finite (with a warning).
     */
    private float[] colors(long firstVertex, int n, String where) {
        VertexArray array = byType[VertexArray.COLOR];
        if (array == null) {
            return null;
        }
        budget.charge(4L * n, 4, where + " colours");
        float[] out = new float[4 * n];
        int stored = Math.min(4, array.size());
        for (int v = 0; v < n; v++) {
            budget.checkTime();
            for (int c = 0; c < stored; c++) {
                out[4 * v + c] = (float) array.normalized(file, firstVertex + v, c);
            }
            if (stored == 3) {
                out[4 * v + 3] = 1;
            }
        }
        return VertexColors.finiteOrWarn(out, where, warnings);
    }

    private int[] triangles(long firstVertex, int n, long firstTriangle, int count, String where) {
        budget.charge(3L * count, 4, where + " indices");
        int[] out = new int[3 * count];
        for (int t = 0; t < count; t++) {
            budget.checkTime();
            long at = file.ofsTriangles + (firstTriangle + t) * IqmFile.TRIANGLE_SIZE;
            for (int c = 0; c < 3; c++) {
                long vertex = file.u32(at + 4L * c);
                if (vertex < firstVertex || vertex - firstVertex >= n) {
                    throw ImportException.invalid(where + ": triangle " + (firstTriangle + t) + " vertex " + c + " is "
                            + vertex + ", outside the mesh's vertexes " + (n == 0 ? "(it has none)"
                                    : firstVertex + " … " + (firstVertex + n - 1)));
                }
                // (a, b, c) → (a, c, b): clockwise IQM front faces become counter-clockwise
                out[3 * t + (c == 0 ? 0 : 3 - c)] = (int) (vertex - firstVertex);
            }
        }
        return out;
    }

    private static String number(double x) {
        return x == Math.rint(x) && Math.abs(x) < 1e15 ? Long.toString((long) x) : Double.toString(x);
    }

    private void influences(long first, int n, int s, int k, int[] joints, float[] weights, String where) {
        VertexArray indexArray = byType[VertexArray.BLENDINDEXES];
        VertexArray weightArray = byType[VertexArray.BLENDWEIGHTS];
        int jointCount = skeleton.jointCount();
        for (int v = 0; v < n; v++) {
            budget.checkTime();
            long fileVertex = first + v;
            for (int c = 0; c < s; c++) {
                double w = weightArray.normalized(file, fileVertex, c);
                double j = indexArray.value(file, fileVertex, c);
                if (!Double.isFinite(w)) {
                    throw ImportException.invalid(where + ": " + weightArray.describe() + " vertex " + fileVertex
                            + " weight " + c + " is not finite");
                }
                boolean valid = j >= 0 && j < jointCount && j == Math.rint(j);
                if (!valid) {
                    if (w != 0) {
                        throw ImportException.invalid(where + ": " + indexArray.describe() + " vertex " + fileVertex
                                + " influence " + c + " names joint " + number(j) + ", but there are " + jointCount
                                + " joints");
                    }
                    j = 0; // an unused slot: its index does not matter
                }
                joints[v * k + c] = (int) j;
                weights[v * k + c] = (float) w;
            }
        }
    }
}
