package io.posekit.asset.iqm;

import io.posekit.asset.ImportWarnings;
import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.ImportScene;
import io.posekit.math.Matrices;
import java.util.ArrayList;
import java.util.List;

/**
 * The import nodes and the skin of an IQM file.
 *
 * <p>Node 0 is a synthetic root (named after the file, {@code sourceIndex} −1, identity transform) that carries
 * the meshes and parents the file's root joints; import node {@code j + 1} is joint {@code j} of the joint table
 * (its name, {@code sourceIndex j}, its {@code translate}/{@code rotate}/{@code scale} relative to its parent as
 * the rest transform, the quaternion normalised). A joint's parent must be an earlier joint (the IQM tools write
 * parents first). Model space is the file's own space, untouched (IQM files are Z-up by convention).
 *
 * <p>When there are joints there is one skin over all of them, in table order, whose inverse bind matrices are
 * the inverses of the joints' model-space rest matrices (the "base frame": {@code World_j = World_parent · T·R·S}),
 * computed in double.
 */
final class IqmSkeleton {

    private final List<ImportScene.Node> nodes;
    private final List<ImportScene.Skin> skins;
    private final int[] parents;

    private IqmSkeleton(List<ImportScene.Node> nodes, List<ImportScene.Skin> skins, int[] parents) {
        this.nodes = nodes;
        this.skins = skins;
        this.parents = parents;
    }

    /**
     * Reads the joint table.
     *
     * @param rootName the synthetic root's name
     * @throws ImportException invalid (422) for a parent that is not an earlier joint or a non-finite or zero
     *     transform; too large (413) past the node limit
     */
    static IqmSkeleton read(IqmFile file, String rootName, ImportLimits limits, DecodeBudget budget, ImportWarnings warnings) {
        if (file.numJoints >= limits.maxNodes()) {
            throw ImportException.tooLarge("header: num_joints " + file.numJoints + " (plus the root node) exceeds the limit of "
                    + limits.maxNodes() + " nodes (" + ImportLimits.NODES + ")");
        }
        if (file.numJoints > limits.maxJointsPerSkin()) {
            // every joint is in the one skin
            throw ImportLimits.exceeded("header: the skin", file.numJoints, "joints (num_joints)",
                    limits.maxJointsPerSkin(), ImportLimits.JOINTS_PER_SKIN);
        }
        int n = (int) file.numJoints;
        budget.charge(n, 16 * 4 + 64, "joints");
        List<ImportScene.Node> nodes = new ArrayList<>(n + 1);
        nodes.add(new ImportScene.Node(rootName, -1, -1, new float[] {0, 0, 0}, new float[] {0, 0, 0, 1},
                new float[] {1, 1, 1}));
        int[] parents = new int[n];
        double[] world = new double[16 * n];
        float[] ibm = new float[16 * n];
        double[] local = new double[16];
        for (int j = 0; j < n; j++) {
            budget.checkTime();
            long at = file.ofsJoints + (long) j * IqmFile.JOINT_SIZE;
            String name = file.text(file.u32(at), "joint " + j + " name");
            String where = "joint " + j + (name == null ? "" : " ('" + name + "')");
            int parent = file.i32(at + 4);
            if (parent >= j) {
                throw ImportException.invalid(where + ": parent " + parent
                        + " is not an earlier joint (a joint must follow its parent)");
            }
            parents[j] = Math.max(parent, -1);
            float[] t = floats(file, at + 8, 3, where + " translate");
            float[] r = unitQuaternion(floats(file, at + 20, 4, where + " rotate"), where + " rotate");
            float[] s = floats(file, at + 36, 3, where + " scale");
            nodes.add(new ImportScene.Node(name, parent < 0 ? 0 : parent + 1, j, t, r, s));
            Matrices.composeTrs(t, 0, r, 0, s, 0, local, 0);
            if (parent < 0) {
                System.arraycopy(local, 0, world, 16 * j, 16);
            } else {
                Matrices.multiplyAffine(world, 16 * parent, local, 0, world, 16 * j);
            }
            if (!invertAffine(world, 16 * j, ibm, 16 * j)) {
                warnings.add(where + ": the rest (base frame) matrix is singular (a zero scale); identity used as its"
                        + " inverse bind matrix");
                Matrices.identity(ibm, 16 * j);
            }
        }
        List<ImportScene.Skin> skins = n == 0 ? List.of() : List.of(new ImportScene.Skin(null, jointNodes(n), ibm));
        return new IqmSkeleton(nodes, skins, parents);
    }

    private static int[] jointNodes(int n) {
        int[] joints = new int[n];
        for (int j = 0; j < n; j++) {
            joints[j] = j + 1;
        }
        return joints;
    }

    /** {@code count} finite floats at {@code at}. */
    static float[] floats(IqmFile file, long at, int count, String what) {
        float[] out = new float[count];
        for (int c = 0; c < count; c++) {
            out[c] = file.f32(at + 4L * c);
            if (!Float.isFinite(out[c])) {
                throw ImportException.invalid(what + " component " + c + " is not finite (" + out[c] + ")");
            }
        }
        return out;
    }

    /** {@code q} normalised in double; a zero quaternion is invalid. */
    static float[] unitQuaternion(float[] q, String what) {
        double x = q[0], y = q[1], z = q[2], w = q[3];
        double len = Math.sqrt(x * x + y * y + z * z + w * w);
        if (!(len > 0) || !Double.isFinite(len)) {
            throw ImportException.invalid(what + " is a zero quaternion, not a rotation");
        }
        return new float[] {(float) (x / len), (float) (y / len), (float) (z / len), (float) (w / len)};
    }

    /** Inverts the affine matrix at {@code m[o..]} in double into {@code out[oo..]}; false when singular. */
    static boolean invertAffine(double[] m, int o, float[] out, int oo) {
        double a = m[o], b = m[o + 4], c = m[o + 8];
        double d = m[o + 1], e = m[o + 5], f = m[o + 9];
        double g = m[o + 2], h = m[o + 6], i = m[o + 10];
        double ca = e * i - f * h, cb = f * g - d * i, cc = d * h - e * g;
        double det = a * ca + b * cb + c * cc;
        if (det == 0 || !Double.isFinite(det)) {
            return false;
        }
        double k = 1 / det;
        // inverse of the row-major [[a b c][d e f][g h i]] = adjugate / det
        double i00 = ca * k, i01 = (c * h - b * i) * k, i02 = (b * f - c * e) * k;
        double i10 = cb * k, i11 = (a * i - c * g) * k, i12 = (c * d - a * f) * k;
        double i20 = cc * k, i21 = (b * g - a * h) * k, i22 = (a * e - b * d) * k;
        double tx = m[o + 12], ty = m[o + 13], tz = m[o + 14];
        out[oo] = (float) i00;
        out[oo + 1] = (float) i10;
        out[oo + 2] = (float) i20;
        out[oo + 3] = 0;
        out[oo + 4] = (float) i01;
        out[oo + 5] = (float) i11;
        out[oo + 6] = (float) i21;
        out[oo + 7] = 0;
        out[oo + 8] = (float) i02;
        out[oo + 9] = (float) i12;
        out[oo + 10] = (float) i22;
        out[oo + 11] = 0;
        out[oo + 12] = (float) -(i00 * tx + i01 * ty + i02 * tz);
        out[oo + 13] = (float) -(i10 * tx + i11 * ty + i12 * tz);
        out[oo + 14] = (float) -(i20 * tx + i21 * ty + i22 * tz);
        out[oo + 15] = 1;
        return true;
    }

    /** Import nodes: the synthetic root, then one per joint. */
    List<ImportScene.Node> nodes() {
        return nodes;
    }

    /** No skin without joints, else one over all joints. */
    List<ImportScene.Skin> skins() {
        return skins;
    }

    /** Number of joints. */
    int jointCount() {
        return parents.length;
    }

    /** The parent joint of joint {@code j}, −1 for a root joint. */
    int parent(int j) {
        return parents[j];
    }

    /** The import node of joint {@code j}. */
    static int node(int joint) {
        return joint + 1;
    }
}
