package io.posekit.store;

import io.posekit.asset.gltf.GltfBuilder;
import java.util.SplittableRandom;

/**
 * Distinct, valid, skinned glTF assets of a chosen size, for tests that need many different uploads: a
 * two-bone skinned triangle soup of {@code vertices} vertices (positions, normals, JOINTS_0, WEIGHTS_0; no
 * indices) with a two-key clip, jittered by {@code seed} so that every seed gives different content. The parsed
 * model weighs about 56 bytes per vertex (positions, normals, four joints and four weights), the GLB about 44.
 */
public final class GeneratedAssets {

    private GeneratedAssets() {
    }

    /** Vertices for a parsed model of about {@code bytes} bytes. */
    public static int verticesForModelBytes(long bytes) {
        return (int) (bytes / 56 / 3 * 3);
    }

    /** A GLB of a skinned mesh with {@code vertices} vertices (rounded down to whole triangles, at least one). */
    public static byte[] skinnedMesh(int vertices, long seed) {
        return skinnedMeshBuilder(vertices, seed).toGlb();
    }

    /**
     * The builder of {@link #skinnedMesh}, for other containers than GLB (e.g.
     * {@link GltfBuilder#toGltfWithExternalBin}): nodes Soup, Root and Tip, skin Armature over Root and Tip, clip
     * Bend of one second.
     */
    public static GltfBuilder skinnedMeshBuilder(int vertices, long seed) {
        int n = Math.max(3, vertices / 3 * 3);
        SplittableRandom random = new SplittableRandom(seed);
        float[] positions = new float[3 * n];
        float[] normals = new float[3 * n];
        int[] joints = new int[4 * n];
        float[] weights = new float[4 * n];
        for (int v = 0; v < n; v++) {
            float y = 2f * v / n;
            positions[3 * v] = (float) random.nextDouble(-0.5, 0.5);
            positions[3 * v + 1] = y;
            positions[3 * v + 2] = (float) random.nextDouble(-0.5, 0.5);
            normals[3 * v + 2] = 1;
            joints[4 * v + 1] = 1;
            float w = Math.min(1f, y / 2f);
            weights[4 * v] = 1 - w;
            weights[4 * v + 1] = w;
        }
        GltfBuilder b = new GltfBuilder();
        int pos = b.addFloatAccessor(positions, "VEC3");
        int nrm = b.addFloatAccessor(normals, "VEC3");
        int jnt = b.addIntAccessor(joints, GltfBuilder.UNSIGNED_BYTE, "VEC4");
        int wgt = b.addFloatAccessor(weights, "VEC4");
        int ibm = b.addFloatAccessor(new float[] {
            1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1,
            1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1}, "MAT4");
        int mesh = b.mesh("Soup").primitive(GltfBuilder.attributes("POSITION", pos, "NORMAL", nrm, "JOINTS_0", jnt,
                "WEIGHTS_0", wgt)).index();
        int soup = b.node("Soup").mesh(mesh).skin(0).index();
        int root = b.node("Root").children(2).index();
        int tip = b.node("Tip").translation(0, 1, 0).index();
        b.addSkin("Armature", ibm, root, tip);
        b.addScene("Scene", soup, root);
        b.defaultScene(0);
        float s = (float) Math.sqrt(0.5);
        b.animation("Bend").track(tip, "rotation", "LINEAR", new float[] {0, 1}, new float[] {0, 0, 0, 1, 0, 0, s, s});
        b.setRoot("extras", "generated-" + seed);
        return b;
    }
}
