package io.posekit.asset.gltf;

import static io.posekit.asset.gltf.GltfBuilder.SHORT;
import static io.posekit.asset.gltf.GltfBuilder.UNSIGNED_BYTE;
import static io.posekit.asset.gltf.GltfBuilder.UNSIGNED_INT;
import static io.posekit.asset.gltf.GltfBuilder.UNSIGNED_SHORT;
import static io.posekit.asset.gltf.GltfBuilder.attributes;
import static io.posekit.asset.gltf.GltfBuilder.le;
import static io.posekit.asset.gltf.GltfTestSupport.assertInvalid;
import static io.posekit.asset.gltf.GltfTestSupport.importGlb;
import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.asset.AssetFormat;
import io.posekit.asset.ImportScene;
import io.posekit.asset.ModelBuilder;
import io.posekit.skinning.Primitive;
import io.posekit.skinning.PrimitiveMode;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Mesh primitives: attributes, indices, influence sets, quantized storage and morph targets. */
class MeshImportTest {

    /** A builder with two vertices' positions as accessor 0. */
    private static GltfBuilder twoVertices() {
        GltfBuilder b = new GltfBuilder();
        b.addFloatAccessor(new float[] {0, 0, 0, 1, 0, 0}, "VEC3");
        return b;
    }

    private static Primitive onlyPrimitive(GltfBuilder b, Map<String, Integer> attributes, int indices, int mode) {
        int mesh = b.mesh("m").primitive(attributes, indices, mode).index();
        b.node("n").mesh(mesh);
        return importGlb(b.toGlb()).meshes().getFirst().primitives().getFirst();
    }

    private static void assertPrimitiveInvalid(GltfBuilder b, Map<String, Integer> attributes, int indices, String message) {
        int mesh = b.mesh("m").primitive(attributes, indices, -1).index();
        b.node("n").mesh(mesh);
        assertInvalid(() -> importGlb(b.toGlb()), message);
    }

    @Test
    void twoInfluenceSetsArePackedEightSlotsPerVertex() {
        GltfBuilder b = twoVertices();
        int j0 = b.addIntAccessor(new int[] {0, 1, 2, 3, 4, 5, 6, 7}, UNSIGNED_BYTE, "VEC4");
        int w0 = b.addFloatAccessor(new float[] {0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.5f, 0, 0}, "VEC4");
        int j1 = b.addIntAccessor(new int[] {10, 11, 12, 13, 300, 301, 302, 303}, UNSIGNED_SHORT, "VEC4");
        int w1 = b.addIntAccessor(new int[] {255, 0, 0, 0, 51, 0, 0, 0}, UNSIGNED_BYTE, "VEC4", true);
        Primitive p = onlyPrimitive(b, attributes("POSITION", 0, "JOINTS_0", j0, "WEIGHTS_0", w0, "WEIGHTS_1", w1,
                "JOINTS_1", j1), -1, -1);
        assertThat(p.influencesPerVertex()).isEqualTo(8);
        assertThat(p.influenceSets()).isEqualTo(2);
        assertThat(p.joints()).containsExactly(0, 1, 2, 3, 10, 11, 12, 13, 4, 5, 6, 7, 300, 301, 302, 303);
        // weights exactly as stored, not renormalised (vertex 0 sums to 2)
        assertThat(p.weights()).containsExactly(0.1f, 0.2f, 0.3f, 0.4f, 1, 0, 0, 0, 0.5f, 0.5f, 0, 0, 0.2f, 0, 0, 0);
        assertThat(p.attributes()).containsExactly("POSITION", "JOINTS_0", "WEIGHTS_0", "WEIGHTS_1", "JOINTS_1");
    }

    @Test
    void influenceSetsMustPairUpAndBeContiguous() {
        GltfBuilder b = twoVertices();
        int j = b.addIntAccessor(new int[8], UNSIGNED_BYTE, "VEC4");
        int w = b.addFloatAccessor(new float[8], "VEC4");
        assertPrimitiveInvalid(b, attributes("POSITION", 0, "JOINTS_0", j, "WEIGHTS_0", w, "JOINTS_1", j), -1,
                "mesh 0 primitive 0: JOINTS_1 has no matching WEIGHTS_1");
        GltfBuilder c = twoVertices();
        int cw = c.addFloatAccessor(new float[8], "VEC4");
        assertPrimitiveInvalid(c, attributes("POSITION", 0, "WEIGHTS_0", cw), -1,
                "mesh 0 primitive 0: WEIGHTS_0 has no matching JOINTS_0");
        GltfBuilder d = twoVertices();
        int dj = d.addIntAccessor(new int[8], UNSIGNED_BYTE, "VEC4");
        int dw = d.addFloatAccessor(new float[8], "VEC4");
        assertPrimitiveInvalid(d, attributes("POSITION", 0, "JOINTS_1", dj, "WEIGHTS_1", dw), -1,
                "mesh 0 primitive 0: influence sets must be numbered from 0 without gaps, but JOINTS_1 comes without JOINTS_0");
    }

    @Test
    void influenceAccessorTypesAreChecked() {
        GltfBuilder b = twoVertices();
        int vec3 = b.addIntAccessor(new int[6], UNSIGNED_BYTE, "VEC3");
        int w = b.addFloatAccessor(new float[8], "VEC4");
        assertPrimitiveInvalid(b, attributes("POSITION", 0, "JOINTS_0", vec3, "WEIGHTS_0", w), -1,
                "mesh 0 primitive 0: JOINTS_0 accessor 1 must be VEC4, not VEC3");
        GltfBuilder c = twoVertices();
        int floats = c.addFloatAccessor(new float[8], "VEC4");
        assertPrimitiveInvalid(c, attributes("POSITION", 0, "JOINTS_0", floats, "WEIGHTS_0", floats), -1,
                "mesh 0 primitive 0: JOINTS_0 accessor 1 cannot be float (allowed: unsigned byte, unsigned short)");
        GltfBuilder d = twoVertices();
        int j = d.addIntAccessor(new int[8], UNSIGNED_BYTE, "VEC4");
        int rawBytes = d.addIntAccessor(new int[8], UNSIGNED_BYTE, "VEC4");
        assertPrimitiveInvalid(d, attributes("POSITION", 0, "JOINTS_0", j, "WEIGHTS_0", rawBytes), -1,
                "mesh 0 primitive 0: WEIGHTS_0 accessor 2 cannot be unsigned byte (allowed: float, "
                        + "unsigned byte normalized, unsigned short normalized)");
    }

    @Test
    void indicesMustBeInRange() {
        GltfBuilder b = new GltfBuilder();
        float[] pos = new float[300 * 3];
        b.addFloatAccessor(pos, "VEC3");
        int[] idx = new int[30];
        idx[17] = 4000;
        int indices = b.addIntAccessor(idx, UNSIGNED_SHORT, "SCALAR");
        assertPrimitiveInvalid(b, attributes("POSITION", 0), indices,
                "mesh 0 primitive 0: index 17 = 4000 is out of range for 300 vertices");

        GltfBuilder c = twoVertices();
        int huge = c.addIntAccessor(new int[] {0, 1, -1}, UNSIGNED_INT, "SCALAR");
        assertPrimitiveInvalid(c, attributes("POSITION", 0), huge,
                "mesh 0 primitive 0: index 2 = 4294967295 is out of range for 2 vertices");

        GltfBuilder d = twoVertices();
        int floatIndices = d.addFloatAccessor(new float[] {0, 1}, "SCALAR");
        assertPrimitiveInvalid(d, attributes("POSITION", 0), floatIndices, "mesh 0 primitive 0: indices accessor 1 "
                + "cannot be float (allowed: unsigned byte, unsigned short, unsigned int)");
    }

    @Test
    void indicesOfEveryUnsignedType() {
        for (int type : new int[] {UNSIGNED_BYTE, UNSIGNED_SHORT, UNSIGNED_INT}) {
            GltfBuilder b = twoVertices();
            int indices = b.addIntAccessor(new int[] {1, 0, 1, 1}, type, "SCALAR");
            assertThat(onlyPrimitive(b, attributes("POSITION", 0), indices, GltfBuilder.LINES).indices())
                    .containsExactly(1, 0, 1, 1);
        }
    }

    @Test
    void attributesMustAllHaveThePositionCount() {
        GltfBuilder b = twoVertices();
        int normals = b.addFloatAccessor(new float[] {0, 0, 1, 0, 0, 1, 0, 0, 1}, "VEC3");
        assertPrimitiveInvalid(b, attributes("POSITION", 0, "NORMAL", normals), -1,
                "mesh 0 primitive 0: attribute NORMAL has 3 elements but POSITION has 2");
    }

    @Test
    void positionIsRequiredAndChecked() {
        GltfBuilder b = twoVertices();
        assertPrimitiveInvalid(b, attributes("NORMAL", 0), -1, "mesh 0 primitive 0: the POSITION attribute is required");
        GltfBuilder c = new GltfBuilder();
        int vec2 = c.addFloatAccessor(new float[] {0, 0, 1, 1}, "VEC2");
        assertPrimitiveInvalid(c, attributes("POSITION", vec2), -1,
                "mesh 0 primitive 0: POSITION accessor 0 must be VEC3, not VEC2");
        GltfBuilder d = new GltfBuilder();
        d.addFloatAccessor(new float[] {0, 0, 0, 1, Float.NaN, 0}, "VEC3");
        assertPrimitiveInvalid(d, attributes("POSITION", 0), -1,
                "mesh 0 primitive 0: POSITION accessor 0 vertex 1 is not finite");
        GltfBuilder e = twoVertices();
        assertPrimitiveInvalid(e, attributes("POSITION", 7), -1,
                "mesh 0 primitive 0: POSITION accessor 7 does not exist (there are 1)");
        GltfBuilder f = twoVertices();
        assertPrimitiveInvalid(f, attributes("POSITION", 0, "TEXCOORD_0", 0), -1,
                "mesh 0 primitive 0: TEXCOORD_0 accessor 0 must be VEC2, not VEC3");
    }

    @Test
    void customAttributesAreNotTypeChecked() {
        GltfBuilder b = twoVertices();
        int custom = b.addIntAccessor(new int[] {1, 2}, UNSIGNED_INT, "SCALAR");
        Primitive p = onlyPrimitive(b, attributes("POSITION", 0, "_BATCHID", custom), -1, -1);
        assertThat(p.attributes()).containsExactly("POSITION", "_BATCHID");
    }

    @Test
    void normalsAndTangentsAreDecoded() {
        GltfBuilder b = twoVertices();
        int n = b.addFloatAccessor(new float[] {0, 1, 0, 0, 0, 1}, "VEC3");
        int t = b.addFloatAccessor(new float[] {1, 0, 0, 1, 1, 0, 0, -1}, "VEC4");
        Primitive p = onlyPrimitive(b, attributes("POSITION", 0, "TANGENT", t, "NORMAL", n), -1, -1);
        assertThat(p.normals()).containsExactly(0, 1, 0, 0, 0, 1);
        assertThat(p.tangents()).containsExactly(1, 0, 0, 1, 1, 0, 0, -1);
        assertThat(p.influencesPerVertex()).isZero();
        assertThat(p.joints()).isEmpty();
    }

    @Test
    void meshQuantizationIsAccepted() {
        GltfBuilder b = new GltfBuilder().extensionsUsed("KHR_mesh_quantization").extensionsRequired("KHR_mesh_quantization");
        // positions as normalized shorts, padded to 8-byte vertices for alignment
        int view = b.addBufferView(le().i16(-32767, 0, 32767, 0, 16384, -16384, 1, 0, -32768, 2, 3, 0).toArray(), 8);
        int pos = b.accessor(SHORT, "VEC3", 3).bufferView(view).normalized(true).index();
        int normals = b.addIntAccessor(new int[] {0, 127, 0, 0, 0, -127, 0, 0, 127, 0, 0, 0}, GltfBuilder.BYTE, "VEC4", true);
        b.set("accessors", normals, "type", "VEC3").set("accessors", normals, "count", 3);
        b.set("bufferViews", 1, "byteStride", 4);
        int uv = b.addIntAccessor(new int[] {0, 1, 2, 3, 4, 5}, UNSIGNED_BYTE, "VEC2");
        Primitive p = onlyPrimitive(b, attributes("POSITION", pos, "NORMAL", normals, "TEXCOORD_0", uv), -1, -1);
        assertThat(p.positions()).containsExactly(-1, 0, 1, 16384 / 32767f, -16384 / 32767f, 1 / 32767f, -1,
                2 / 32767f, 3 / 32767f);
        assertThat(p.normals()).containsExactly(0, 1, 0, 0, -1, 0, 1, 0, 0);
    }

    @Test
    void primitiveModes() {
        GltfBuilder b = twoVertices();
        assertThat(onlyPrimitive(b, attributes("POSITION", 0), -1, GltfBuilder.POINTS).mode()).isEqualTo(PrimitiveMode.POINTS);
        GltfBuilder c = twoVertices();
        int mesh = c.mesh("m").primitive(attributes("POSITION", 0), -1, 9).index();
        c.node("n").mesh(mesh);
        assertInvalid(() -> importGlb(c.toGlb()), "mesh 0 primitive 0: mode 9 is not a glTF primitive mode (0 to 6)");
    }

    @Test
    void morphTargetsAreDecodedPerPrimitiveAndSharedByInstances() {
        GltfBuilder b = twoVertices();
        int delta = b.addFloatAccessor(new float[] {0, 1, 0, 0, 2, 0}, "VEC3");
        int mesh = b.mesh("m").primitive(attributes("POSITION", 0)).primitive(attributes("POSITION", 0))
                .morphTarget(0, attributes("POSITION", delta)).morphTarget(1, attributes("POSITION", delta)).index();
        b.node("a").mesh(mesh);
        b.node("b").mesh(mesh);
        ImportScene scene = importGlb(b.toGlb());
        assertThat(scene.warnings()).isEmpty();
        assertThat(scene.meshes()).hasSize(2);
        assertThat(scene.meshes().getFirst().primitives()).hasSize(2);
        Primitive p = scene.meshes().getFirst().primitives().get(1);
        assertThat(p.morphTargetCount()).isEqualTo(1);
        assertThat(p.morphTargets().positionDeltas(0)).containsExactly(0, 1, 0, 0, 2, 0);
        assertThat(p.morphTargets().normalDeltas(0)).isNull();
        assertThat(scene.meshes().get(1).primitives().get(1)).isSameAs(p);
    }

    @Test
    void meshStructureIsChecked() {
        GltfBuilder b = twoVertices();
        int mesh = b.mesh("m").index();
        b.node("n").mesh(mesh);
        assertInvalid(() -> importGlb(b.toGlb()), "mesh 0: primitives must not be empty");
        ((tools.jackson.databind.node.ObjectNode) b.json().get("meshes").get(0)).remove("primitives");
        assertInvalid(() -> importGlb(b.toGlb()), "mesh 0: primitives is required");
        ((tools.jackson.databind.node.ObjectNode) b.json().get("meshes").get(0)).putArray("primitives").add(3);
        assertInvalid(() -> importGlb(b.toGlb()), "mesh 0 primitive 0 must be a JSON object, not 3");
    }

    @Test
    void jointIndexBeyondTheSkinIsCaughtByTheModelBuilder() {
        GltfBuilder b = GltfBuilder.skinnedTwoBoneStrip();
        int joints = b.addIntAccessor(new int[] {0, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0},
                UNSIGNED_BYTE, "VEC4");
        ((tools.jackson.databind.node.ObjectNode) b.json().get("meshes").get(0).get("primitives").get(0).get("attributes"))
                .put("JOINTS_0", joints);
        ImportScene scene = importGlb(b.toGlb());
        assertInvalid(() -> ModelBuilder.build(AssetFormat.GLTF, scene),
                "mesh 0 primitive 0: joint index 5 is out of range for skin 0 with 2 joints");
    }
}
