package io.posekit.asset.gltf;

import static io.posekit.asset.gltf.GltfTestSupport.assertInvalid;
import static io.posekit.asset.gltf.GltfTestSupport.failure;
import static io.posekit.asset.gltf.GltfTestSupport.importFiles;
import static io.posekit.asset.gltf.GltfTestSupport.importGlb;
import static io.posekit.asset.gltf.GltfTestSupport.importGltf;
import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.asset.ImportException;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.ImportScene;
import io.posekit.asset.SourceFile;
import io.posekit.skinning.Primitive;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Buffer and image URIs: data URIs, uploaded siblings, and everything that must never be followed. */
class BufferUriTest {

    private static final String EXTERNAL = "' is external; only data: URIs and files uploaded with the asset are allowed";

    private static Primitive strip(ImportScene scene) {
        return scene.meshes().getFirst().primitives().getFirst();
    }

    private static GltfBuilder.ExternalGltf external(String binName) {
        return GltfBuilder.skinnedTwoBoneStrip().toGltfWithExternalBin(binName);
    }

    @Test
    void dataUriBuffersDecodeLikeTheGlb() {
        GltfBuilder b = GltfBuilder.skinnedTwoBoneStrip();
        ImportScene fromJson = importGltf(b.toGltfJson());
        ImportScene fromGlb = importGlb(b.toGlb());
        assertThat(strip(fromJson).positions()).containsExactly(strip(fromGlb).positions());
        assertThat(strip(fromJson).indices()).containsExactly(0, 1, 3, 0, 3, 2, 2, 3, 5, 2, 5, 4);
        assertThat(fromJson.warnings()).isEmpty();
    }

    @Test
    void externalBinUploadedAsASibling() {
        GltfBuilder.ExternalGltf g = external("strip.bin");
        ImportScene scene = importGltf(g.json(), new SourceFile("strip.bin", g.bin()));
        assertThat(strip(scene).positions()).containsExactly(-0.5f, 0, 0, 0.5f, 0, 0, -0.5f, 1, 0, 0.5f, 1, 0,
                -0.5f, 2, 0, 0.5f, 2, 0);
    }

    @Test
    void percentEncodedAndSubdirectoryUrisResolveWithinTheUpload() {
        GltfBuilder.ExternalGltf spaced = external("my%20strip.bin");
        assertThat(importGltf(spaced.json(), new SourceFile("my strip.bin", spaced.bin())).meshes()).hasSize(1);

        GltfBuilder.ExternalGltf nested = external("bin/strip.bin");
        SourceFile main = new SourceFile("models/strip.gltf", nested.jsonBytes());
        assertThat(importFiles(main, new SourceFile("models/bin/strip.bin", nested.bin())).meshes()).hasSize(1);

        // '..' that stays inside the upload is fine
        GltfBuilder.ExternalGltf up = external("../shared/strip.bin");
        SourceFile deep = new SourceFile("models/strip.gltf", up.jsonBytes());
        assertThat(importFiles(deep, new SourceFile("shared/strip.bin", up.bin())).meshes()).hasSize(1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://example.com/a.bin", "https://example.com/a.bin", "file:///etc/passwd",
        "/etc/passwd", "C:\\Windows\\a.bin", "c:/a.bin", "//example.com/a.bin", "\\\\server\\share\\a.bin",
        "HTTP://EXAMPLE.COM/a.bin", "http%3A%2F%2Fexample.com%2Fa.bin", "%2Fetc%2Fpasswd", "jar:file:/x!/a.bin"})
    void externalUrisAreRejected(String uri) {
        GltfBuilder.ExternalGltf g = external(uri);
        // even a file with a matching base name must not be used
        assertInvalid(() -> importGltf(g.json(), new SourceFile("a.bin", g.bin()), new SourceFile("passwd", g.bin())),
                "buffer 0: uri '" + uri + EXTERNAL);
    }

    @ParameterizedTest
    @ValueSource(strings = {"../x.bin", "a/../../x.bin", "%2E%2E/x.bin", "..\\x.bin"})
    void urisClimbingOutOfTheUploadAreRejected(String uri) {
        GltfBuilder.ExternalGltf g = external(uri);
        assertInvalid(() -> importGltf(g.json(), new SourceFile("x.bin", g.bin())), "buffer 0: uri '" + uri
                + "' climbs out of the upload with '..'; only data: URIs and files uploaded with the asset are allowed");
    }

    @Test
    void missingSiblingNamesTheUploadedFiles() {
        GltfBuilder.ExternalGltf g = external("Fox.bin");
        assertInvalid(() -> importFiles(new SourceFile("Fox.gltf", g.jsonBytes())),
                "buffer 0: uri 'Fox.bin' is not one of the uploaded files (uploaded: Fox.gltf)");
        assertInvalid(() -> importFiles(new SourceFile("Fox.gltf", g.jsonBytes()), new SourceFile("Fox.png", new byte[1])),
                "buffer 0: uri 'Fox.bin' is not one of the uploaded files (uploaded: Fox.gltf, Fox.png)");
    }

    @Test
    void malformedPercentEscapeIsRejected() {
        GltfBuilder.ExternalGltf g = external("a%2.bin");
        assertInvalid(() -> importGltf(g.json()), "buffer 0: uri 'a%2.bin' has a malformed percent-escape at character 1");
    }

    @Test
    void dataUrisMustBeBase64() {
        GltfBuilder b = GltfBuilder.skinnedTwoBoneStrip();
        b.set("buffers", 0, "uri", "data:application/octet-stream,abc");
        assertInvalid(() -> importGltf(b.toGltfJson()),
                "buffer 0: data URI 'data:application/octet-stream,abc' is not base64-encoded (';base64' is required)");
        b.set("buffers", 0, "uri", "data:application/octet-stream;base64,@@@@");
        ImportException e = failure(() -> importGltf(b.toGltfJson()));
        assertThat(e.getMessage()).startsWith("buffer 0: data URI has invalid base64: ");
        b.set("buffers", 0, "uri", "data:application/octet-stream;base64");
        assertInvalid(() -> importGltf(b.toGltfJson()), "buffer 0: data URI has no ',' before its payload");
    }

    @Test
    void byteLengthMustNotExceedTheData() {
        GltfBuilder b = GltfBuilder.skinnedTwoBoneStrip();
        b.set("buffers", 0, "byteLength", 5000);
        GltfBuilder.ExternalGltf g = b.toGltfWithExternalBin("strip.bin");
        assertInvalid(() -> importGltf(g.json(), new SourceFile("strip.bin", g.bin())),
                "buffer 0: byteLength 5000 exceeds the " + g.bin().length + " bytes of 'strip.bin'");
        assertInvalid(() -> importGltf(b.toGltfJson()),
                "buffer 0: byteLength 5000 exceeds the " + g.bin().length + " bytes of its data: URI");
        assertInvalid(() -> importGlb(b.toGlb()),
                "buffer 0: byteLength 5000 exceeds the " + g.bin().length + " bytes of the GLB BIN chunk");
        b.set("buffers", 0, "byteLength", null);
        assertInvalid(() -> importGlb(b.toGlb()), "buffer 0: byteLength is required");
    }

    @Test
    void dataUriIsChargedToTheBudget() {
        String json = GltfBuilder.skinnedTwoBoneStrip().toGltfJson();
        ImportLimits tight = new ImportLimits(100, 1000, 10, 1000, 10);
        ImportException e = failure(() -> importFiles(tight, new SourceFile("a.gltf", json.getBytes(StandardCharsets.UTF_8))));
        assertThat(e.kind()).isEqualTo(ImportException.Kind.TOO_LARGE);
        assertThat(e.getMessage()).startsWith("buffer 0 data URI needs ");
    }

    @Test
    void bufferViewsMustLieInsideTheirBuffer() {
        GltfBuilder b = GltfBuilder.skinnedTwoBoneStrip();
        int length = b.json().get("buffers").get(0).get("byteLength").intValue();
        b.set("bufferViews", 1, "byteLength", 9999);
        assertInvalid(() -> importGlb(b.toGlb()), "bufferView 1: byteOffset 72 + byteLength 9999 exceeds buffer 0 byteLength "
                + length);
        b.set("bufferViews", 1, "byteLength", 72).set("bufferViews", 1, "buffer", 3);
        assertInvalid(() -> importGlb(b.toGlb()), "bufferView 1: buffer 3 does not exist (there are 1)");
        b.set("bufferViews", 1, "buffer", 0).set("bufferViews", 1, "byteStride", 6);
        assertInvalid(() -> importGlb(b.toGlb()), "bufferView 1: byteStride 6 must be a multiple of 4 between 4 and 252");
        b.set("bufferViews", 1, "byteStride", 256);
        assertInvalid(() -> importGlb(b.toGlb()), "bufferView 1: byteStride 256 must be a multiple of 4 between 4 and 252");
        b.set("bufferViews", 1, "byteStride", null).set("bufferViews", 1, "byteOffset", -4);
        assertInvalid(() -> importGlb(b.toGlb()), "bufferView 1: byteOffset -4 is negative");
    }

    @Test
    void imagesFollowTheSameUriRulesButAreNeverDecoded() {
        GltfBuilder b = GltfBuilder.skinnedTwoBoneStrip();
        var images = b.json().putArray("images");
        images.addObject().put("uri", "data:image/png;base64,iVBORw0KGgo=");
        images.addObject().put("uri", "skin.png");
        images.addObject().put("bufferView", 0).put("mimeType", "image/png");
        ImportScene scene = importGlb(b.toGlb());
        assertThat(scene.warnings()).containsExactly("image 1: uri 'skin.png' is not one of the uploaded files "
                + "(uploaded: asset.glb); images are not decoded, so it is ignored");
        assertThat(importFiles(new SourceFile("asset.glb", b.toGlb()), new SourceFile("skin.png", new byte[4]))
                .warnings()).isEmpty();

        images.addObject().put("uri", "https://example.com/skin.png");
        assertInvalid(() -> importGlb(b.toGlb()), "image 3: uri 'https://example.com/skin.png" + EXTERNAL);
        ((tools.jackson.databind.node.ObjectNode) images.get(3)).put("uri", "../skin.png");
        assertInvalid(() -> importGlb(b.toGlb()), "image 3: uri '../skin.png' climbs out of the upload with '..'; "
                + "only data: URIs and files uploaded with the asset are allowed");
        ((tools.jackson.databind.node.ObjectNode) images.get(3)).remove("uri");
        ((tools.jackson.databind.node.ObjectNode) images.get(3)).put("bufferView", 40);
        assertInvalid(() -> importGlb(b.toGlb()), "image 3: bufferView 40 does not exist (there are 10)");
    }
}
