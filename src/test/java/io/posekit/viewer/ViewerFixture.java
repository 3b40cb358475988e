package io.posekit.viewer;

import io.posekit.asset.gltf.GltfBuilder;
import tools.jackson.databind.node.ObjectNode;

/**
 * The asset the viewer test uploads, built with {@link GltfBuilder}: a tube that reads as a posed shape in a
 * screenshot (the importer tests' two-bone strip is a single quad), on a three-joint chain with two clips that both
 * visibly bend it.
 *
 * <ul>
 *   <li>mesh Tube: {@value #RINGS} rings of {@value #SEGMENTS} vertices (radius 0.3) from y = 0 to y = 3, indexed
 *       triangles, positions and normals, a blue non-metallic material; skinned by skin Armature</li>
 *   <li>joints Root (origin), Mid (y = 1), Tip (y = 2), a chain; each vertex weighted between the two bones nearest to
 *       it</li>
 *   <li>clip Bend (1 s): Mid and Tip rotate 0 → 40° about z; clip Sway (2 s): Mid and Tip rotate 0 → −50° → 0 about
 *       z, at 0, 1 and 2 s</li>
 * </ul>
 */
final class ViewerFixture {

    static final int RINGS = 13;
    static final int SEGMENTS = 16;
    static final int VERTICES = RINGS * SEGMENTS;

    private ViewerFixture() {
    }

    static byte[] tube() {
        float[] positions = new float[3 * VERTICES];
        float[] normals = new float[3 * VERTICES];
        int[] joints = new int[4 * VERTICES];
        float[] weights = new float[4 * VERTICES];
        for (int r = 0; r < RINGS; r++) {
            float y = 3f * r / (RINGS - 1);
            // bone b spans y in [b, b + 1]; a vertex blends the two bones whose middles it lies between
            float along = Math.clamp(y - 0.5f, 0f, 1.999f);
            int lower = (int) along;
            float upper = along - lower;
            for (int s = 0; s < SEGMENTS; s++) {
                int v = r * SEGMENTS + s;
                double a = 2 * Math.PI * s / SEGMENTS;
                float cos = (float) Math.cos(a);
                float sin = (float) Math.sin(a);
                positions[3 * v] = 0.3f * cos;
                positions[3 * v + 1] = y;
                positions[3 * v + 2] = 0.3f * sin;
                normals[3 * v] = cos;
                normals[3 * v + 2] = sin;
                joints[4 * v] = lower;
                joints[4 * v + 1] = lower + 1;
                weights[4 * v] = 1 - upper;
                weights[4 * v + 1] = upper;
            }
        }
        int[] indices = io.posekit.warmup.WarmUpAsset.tubeIndices(RINGS, SEGMENTS);

        GltfBuilder g = new GltfBuilder();
        int pos = g.addFloatAccessor(positions, "VEC3");
        int nrm = g.addFloatAccessor(normals, "VEC3");
        int jnt = g.addIntAccessor(joints, GltfBuilder.UNSIGNED_BYTE, "VEC4");
        int wgt = g.addFloatAccessor(weights, "VEC4");
        int idx = g.addIndices(indices);
        int ibm = g.addFloatAccessor(new float[] {
            1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1,
            1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1,
            1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -2, 0, 1}, "MAT4");
        int mesh = g.mesh("Tube").primitive(GltfBuilder.attributes("POSITION", pos, "NORMAL", nrm, "JOINTS_0", jnt,
                "WEIGHTS_0", wgt), idx, GltfBuilder.TRIANGLES).index();
        ObjectNode material = g.json().putArray("materials").addObject().put("name", "Blue");
        material.putObject("pbrMetallicRoughness").put("metallicFactor", 0).put("roughnessFactor", 0.6)
                .putArray("baseColorFactor").add(0.25).add(0.55).add(0.95).add(1);
        ((ObjectNode) g.json().get("meshes").get(mesh).get("primitives").get(0)).put("material", 0);

        int tube = g.node("Tube").mesh(mesh).skin(0).index();
        int root = g.node("Root").children(2).index();
        int mid = g.node("Mid").translation(0, 1, 0).children(3).index();
        int tip = g.node("Tip").translation(0, 1, 0).index();
        g.addSkin("Armature", ibm, root, mid, tip);
        g.addScene("Scene", tube, root);
        g.defaultScene(0);

        float[] bend = concat(aboutZ(0), aboutZ(40));
        g.animation("Bend")
                .track(mid, "rotation", "LINEAR", new float[] {0, 1}, bend)
                .track(tip, "rotation", "LINEAR", new float[] {0, 1}, bend);
        float[] sway = concat(aboutZ(0), aboutZ(-50), aboutZ(0));
        g.animation("Sway")
                .track(mid, "rotation", "LINEAR", new float[] {0, 1, 2}, sway)
                .track(tip, "rotation", "LINEAR", new float[] {0, 1, 2}, sway);
        return g.toGlb();
    }

    private static float[] aboutZ(double degrees) {
        double half = Math.toRadians(degrees) / 2;
        return new float[] {0, 0, (float) Math.sin(half), (float) Math.cos(half)};
    }

    private static float[] concat(float[]... parts) {
        float[] out = new float[4 * parts.length];
        for (int k = 0; k < parts.length; k++) {
            System.arraycopy(parts[k], 0, out, 4 * k, 4);
        }
        return out;
    }
}
