package io.posekit.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.asset.AssetImporters;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.Model;
import io.posekit.asset.SourceFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The cache weighs each parsed asset by {@link Model#footprintBytes()}; that estimate must not undercount what
 * the model really keeps on the heap, or the cache budget would not bound memory. Measured as the heap retained
 * by N parsed copies (used after full collections, with and without them), divided by N. Printed for the record:
 * the estimate against the measurement, and heap bytes per byte of file, which must stay at most 1.5.
 */
class ModelFootprintTest {

    private static final AssetImporters IMPORTERS = AssetImporters.all(ImportLimits.DEFAULT);

    /** Measured retained bytes of one parsed copy of {@code files}. */
    static long measuredRetainedBytes(List<SourceFile> files, long estimate) {
        int copies = (int) Math.max(10, Math.min(200, (48L << 20) / Math.max(1, estimate)));
        IMPORTERS.importUpload(files); // warm up: classes, JIT, interned strings
        long before = HeapProbe.usedAfterGc();
        List<Model> held = new ArrayList<>(copies);
        for (int i = 0; i < copies; i++) {
            held.add(IMPORTERS.importUpload(files).model());
        }
        long after = HeapProbe.usedAfterGc();
        assertThat(held).hasSize(copies); // keeps them reachable through the measurement
        return (after - before) / copies;
    }

    private static String check(String name, List<SourceFile> files) {
        long fileBytes = files.stream().mapToLong(SourceFile::size).sum();
        long estimate = IMPORTERS.importUpload(files).model().footprintBytes();
        long measured = measuredRetainedBytes(files, estimate);
        String line = String.format(Locale.ROOT,
                "footprint %-10s file %9d B, estimated %9d B, measured %9d B: measured/estimated %.2f, heap/file %.2f",
                name, fileBytes, estimate, measured, measured / (double) estimate, measured / (double) fileBytes);
        System.out.println(line);
        assertThat(estimate).as(line + ": the weigher must not undercount by more than 20 %")
                .isGreaterThanOrEqualTo(Math.round(measured / 1.2));
        // issue 9's memory target: a cached asset costs at most 1.5× its file size
        assertThat(measured).as(line + ": a parsed model must not take more than 1.5× its file on the heap")
                .isLessThanOrEqualTo(Math.round(1.5 * fileBytes));
        return line;
    }

    @Test
    void theFootprintOfAGeneratedMeshIsHonest() {
        int vertices = GeneratedAssets.verticesForModelBytes(1 << 20);
        check("generated", List.of(new SourceFile("g.glb", GeneratedAssets.skinnedMesh(vertices, 7))));
    }

    @Test
    void theFootprintOfAMeshWithThreeTexcoordSetsIsHonest() {
        int vertices = GeneratedAssets.verticesForModelBytes(1 << 20);
        io.posekit.asset.gltf.GltfBuilder b = GeneratedAssets.skinnedMeshBuilder(vertices, 11);
        tools.jackson.databind.node.ObjectNode attributes = (tools.jackson.databind.node.ObjectNode)
                b.json().get("meshes").get(0).get("primitives").get(0).get("attributes");
        int n = vertices / 3 * 3;
        for (int set = 0; set < 3; set++) {
            float[] uv = new float[2 * n];
            for (int i = 0; i < uv.length; i++) {
                uv[i] = (i + set) % 7 / 7f;
            }
            attributes.put("TEXCOORD_" + set, b.addFloatAccessor(uv, "VEC2"));
        }
        String line = check("uv sets", List.of(new SourceFile("uv.glb", b.toGlb())));
        assertThat(IMPORTERS.importUpload(List.of(new SourceFile("uv.glb", b.toGlb()))).model().meshes().getFirst()
                .primitives().getFirst().texcoordSets()).as(line).hasSize(3);
    }

    @Test
    void theFootprintOfConformanceAssetsIsHonest() throws IOException {
        Path gltf = Path.of(System.getProperty("posekit.conformance.dir", "../shared/conformance"), "assets", "gltf");
        Assumptions.assumeTrue(Files.isDirectory(gltf), "no conformance assets at " + gltf);
        int checked = 0;
        for (String name : List.of("Fox", "CesiumMan", "BrainStem")) {
            Path file = gltf.resolve(name).resolve(name + ".glb");
            if (Files.isRegularFile(file)) {
                check(name, List.of(new SourceFile(name + ".glb", Files.readAllBytes(file))));
                checked++;
            }
        }
        Assumptions.assumeTrue(checked > 0, "none of Fox, CesiumMan, BrainStem under " + gltf);
    }
}
