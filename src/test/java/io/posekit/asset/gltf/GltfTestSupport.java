package io.posekit.asset.gltf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportWarnings;
import io.posekit.asset.ImportException;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.ImportScene;
import io.posekit.asset.SourceFile;
import io.posekit.asset.SourceFiles;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/** Shared helpers for the glTF importer tests. */
final class GltfTestSupport {

    static final GltfImporter IMPORTER = new GltfImporter();

    private GltfTestSupport() {
    }

    /** Imports {@code glb} uploaded alone as {@code asset.glb}. */
    static ImportScene importGlb(byte[] glb) {
        return importFiles(new SourceFile("asset.glb", glb));
    }

    /** Imports {@code json} uploaded as {@code asset.gltf}, together with {@code siblings}. */
    static ImportScene importGltf(String json, SourceFile... siblings) {
        return importFiles(new SourceFile("asset.gltf", json.getBytes(StandardCharsets.UTF_8)), siblings);
    }

    /** Imports {@code main} uploaded with {@code siblings} under default limits. */
    static ImportScene importFiles(SourceFile main, SourceFile... siblings) {
        return importFiles(ImportLimits.DEFAULT, main, siblings);
    }

    static ImportScene importFiles(ImportLimits limits, SourceFile main, SourceFile... siblings) {
        List<SourceFile> all = new ArrayList<>();
        all.add(main);
        all.addAll(List.of(siblings));
        return IMPORTER.read(main, new SourceFiles(all), limits);
    }

    /** Asserts that {@code call} fails with an invalid-file ImportException whose message is exactly {@code message}. */
    static void assertInvalid(ThrowingCallable call, String message) {
        ImportException e = failure(call);
        assertThat(e.getMessage()).isEqualTo(message);
        assertThat(e.kind()).isEqualTo(ImportException.Kind.INVALID);
    }

    /** The ImportException {@code call} fails with (the test fails when it succeeds or throws anything else). */
    static ImportException failure(ThrowingCallable call) {
        ImportException e = catchThrowableOfType(ImportException.class, call);
        assertThat(e).as("expected an ImportException").isNotNull();
        return e;
    }

    /** An accessor reader over {@code b}'s data-URI glTF, with a budget of {@code budgetBytes}. */
    static AccessorReader reader(GltfBuilder b, long budgetBytes) {
        byte[] json = b.toGltfJson().getBytes(StandardCharsets.UTF_8);
        GltfDocument doc = GltfDocument.parse(json, 0, json.length, "glTF JSON");
        SourceFile main = new SourceFile("a.gltf", json);
        DecodeBudget budget = new DecodeBudget(budgetBytes);
        BufferResolver buffers = new BufferResolver(doc, main, new SourceFiles(List.of(main)), null, false, budget,
                new ImportWarnings());
        return new AccessorReader(doc, buffers, budget);
    }

    static AccessorReader reader(GltfBuilder b) {
        return reader(b, 1L << 30);
    }

    /** Accessor {@code index} of {@code b} decoded as floats. */
    static float[] floats(GltfBuilder b, int index) {
        AccessorReader r = reader(b);
        return r.floats(r.accessor(index, "accessor", "test"));
    }

    /** Accessor {@code index} of {@code b} decoded as ints. */
    static int[] ints(GltfBuilder b, int index) {
        AccessorReader r = reader(b);
        return r.ints(r.accessor(index, "accessor", "test"));
    }
}
