package io.posekit.asset.gltf;

import static io.posekit.asset.gltf.GltfTestSupport.assertInvalid;
import static io.posekit.asset.gltf.GltfTestSupport.failure;
import static io.posekit.asset.gltf.GltfTestSupport.importFiles;
import static io.posekit.asset.gltf.GltfTestSupport.importGltf;
import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.asset.ImportException;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.ImportScene;
import io.posekit.asset.SourceFile;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The glTF JSON document: parsing, asset version, required extensions and limits. */
class DocumentTest {

    @Test
    void malformedJsonReportsLineAndColumn() {
        ImportException e = failure(() -> importGltf("{\n  \"asset\": {\"version\": \"2.0\"},\n  \"nodes\": [1,,2]\n}"));
        assertThat(e.kind()).isEqualTo(ImportException.Kind.INVALID);
        assertThat(e.getMessage()).startsWith("glTF JSON is malformed at line 3, column 15: Unexpected character (',' (code 44))");
    }

    @Test
    void trailingGarbageAndEmptyFilesAreRejected() {
        ImportException e = failure(() -> importGltf("{\"asset\":{\"version\":\"2.0\"}} {}"));
        assertThat(e.getMessage()).startsWith("glTF JSON is malformed at line 1, column ");
        assertThat(failure(() -> importGltf("")).kind()).isEqualTo(ImportException.Kind.INVALID);
        assertInvalid(() -> importGltf("[1, 2]"), "glTF JSON must be a JSON object, not [1,2]");
    }

    @Test
    void deepNestingIsRejected() {
        String deep = "[".repeat(300) + "]".repeat(300);
        ImportException e = failure(() -> importGltf("{\"asset\":{\"version\":\"2.0\"},\"extras\":" + deep + "}"));
        assertThat(e.kind()).isEqualTo(ImportException.Kind.INVALID);
        assertThat(e.getMessage()).startsWith("glTF JSON is malformed").contains("256");
        String fine = "[".repeat(200) + "]".repeat(200);
        assertThat(importGltf("{\"asset\":{\"version\":\"2.0\"},\"extras\":" + fine + "}").nodes()).isEmpty();
    }

    @Test
    void byteOrderMarkIsTolerated() {
        byte[] json = GltfBuilder.skinnedTwoBoneStrip().toGltfJson().getBytes(StandardCharsets.UTF_8);
        byte[] withBom = new byte[json.length + 3];
        withBom[0] = (byte) 0xEF;
        withBom[1] = (byte) 0xBB;
        withBom[2] = (byte) 0xBF;
        System.arraycopy(json, 0, withBom, 3, json.length);
        ImportScene scene = importFiles(new SourceFile("strip.gltf", withBom));
        assertThat(scene.nodes()).hasSize(3);
    }

    @Test
    void hugeDataUriStringsAreAccepted() {
        // a 30 MB data URI: far beyond Jackson's default 20 M string limit
        GltfBuilder b = new GltfBuilder();
        b.addBufferView(new byte[22_000_000]);
        b.addFloatAccessor(new float[] {0, 0, 0, 1, 0, 0, 0, 1, 0}, "VEC3");
        int mesh = b.mesh("m").primitive(GltfBuilder.attributes("POSITION", 0)).index();
        b.node("n").mesh(mesh);
        assertThat(importGltf(b.toGltfJson()).meshes()).hasSize(1);
    }

    @Test
    void assetVersionMustBe2x() {
        assertInvalid(() -> importGltf(new GltfBuilder().assetVersion("1.0").toGltfJson()),
                "asset.version '1.0' is not glTF 2.x");
        assertInvalid(() -> importGltf(new GltfBuilder().assetVersion("3.0").toGltfJson()),
                "asset.version '3.0' is not glTF 2.x");
        assertInvalid(() -> importGltf(new GltfBuilder().assetVersion("two").toGltfJson()),
                "asset.version 'two' is not glTF 2.x");
        assertThat(importGltf(new GltfBuilder().assetVersion("2.1").toGltfJson()).nodes()).isEmpty();
        assertInvalid(() -> importGltf("{\"nodes\":[]}"),
                "glTF JSON has no asset object (required, with asset.version \"2.0\")");
        assertInvalid(() -> importGltf("{\"asset\":{}}"), "asset.version is required");
        assertInvalid(() -> importGltf("{\"asset\":{\"version\":2.0}}"), "asset: version must be a string, not 2.0");
        assertInvalid(() -> importGltf("{\"asset\":\"2.0\"}"), "glTF asset must be an object, not \"2.0\"");
    }

    @Test
    void minVersionAbove20IsUnsupported() {
        GltfBuilder b = new GltfBuilder();
        ((tools.jackson.databind.node.ObjectNode) b.json().get("asset")).put("minVersion", "2.1");
        ImportException e = failure(() -> importGltf(b.toGltfJson()));
        assertThat(e.kind()).isEqualTo(ImportException.Kind.UNSUPPORTED);
        assertThat(e.getMessage()).isEqualTo("asset.minVersion '2.1' is above glTF 2.0, the version this importer reads");
    }

    @Test
    void unsupportedRequiredExtensionsAreAllNamed() {
        GltfBuilder b = new GltfBuilder().extensionsRequired("KHR_materials_variants", "EXT_lights_image_based",
                "KHR_texture_transform", "EXT_meshopt_compression", "EXT_mesh_gpu_instancing");
        assertInvalid(() -> importGltf(b.toGltfJson()),
                "required extensions EXT_lights_image_based, EXT_mesh_gpu_instancing are not supported");
        GltfBuilder one = new GltfBuilder().extensionsRequired("EXT_mesh_gpu_instancing");
        assertInvalid(() -> importGltf(one.toGltfJson()), "required extension EXT_mesh_gpu_instancing is not supported");
    }

    @Test
    void supportedRequiredExtensionsAreAccepted() {
        GltfBuilder b = new GltfBuilder().extensionsRequired("KHR_mesh_quantization", "KHR_texture_transform",
                "KHR_texture_basisu", "EXT_texture_webp", "EXT_texture_avif", "KHR_materials_emissive_strength",
                "KHR_lights_punctual", "EXT_meshopt_compression", "KHR_meshopt_compression", "KHR_draco_mesh_compression");
        assertThat(importGltf(b.toGltfJson()).warnings()).isEmpty();
    }

    @Test
    void topLevelArraysMustBeArraysOfObjects() {
        assertInvalid(() -> importGltf("{\"asset\":{\"version\":\"2.0\"},\"nodes\":{}}"), "glTF: nodes must be an array, not {}");
        assertInvalid(() -> importGltf("{\"asset\":{\"version\":\"2.0\"},\"nodes\":[7]}"), "node 0 must be a JSON object, not 7");
        assertInvalid(() -> importGltf("{\"asset\":{\"version\":\"2.0\"},\"extensionsRequired\":[1]}"),
                "extensionsRequired[0] must be a string, not 1");
    }

    @Test
    void nodeCountIsLimited() {
        GltfBuilder b = new GltfBuilder();
        for (int i = 0; i < 11; i++) {
            b.node("n" + i);
        }
        ImportLimits limits = new ImportLimits(1L << 30, 10, 10, 1000, 10);
        ImportException e = failure(() -> importFiles(limits, new SourceFile("a.glb", b.toGlb())));
        assertThat(e.kind()).isEqualTo(ImportException.Kind.TOO_LARGE);
        assertThat(e.getMessage()).isEqualTo("the asset has 11 nodes; the limit is 10 (posekit.limits.nodes)");
    }
}
