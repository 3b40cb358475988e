package io.posekit.asset.collada;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.posekit.asset.AssetFormat;
import io.posekit.asset.ImportException;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.ImportScene;
import io.posekit.asset.Model;
import io.posekit.asset.ModelBuilder;
import io.posekit.asset.SourceFile;
import io.posekit.asset.SourceFiles;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/** Shared helpers for the COLLADA importer tests. */
final class ColladaTestSupport {

    static final ColladaImporter IMPORTER = new ColladaImporter();
    static final float HALF = (float) Math.sqrt(0.5);

    private ColladaTestSupport() {
    }

    /** Imports {@code xml} uploaded alone as {@code asset.dae}. */
    static ImportScene importDae(String xml) {
        return importBytes(xml.getBytes(StandardCharsets.UTF_8));
    }

    static ImportScene importDae(DaeBuilder b) {
        return importBytes(b.toBytes());
    }

    static ImportScene importBytes(byte[] bytes) {
        return importBytes(bytes, ImportLimits.DEFAULT);
    }

    static ImportScene importBytes(byte[] bytes, ImportLimits limits) {
        SourceFile main = new SourceFile("asset.dae", bytes);
        return IMPORTER.read(main, new SourceFiles(List.of(main)), limits);
    }

    /** Imports and builds the runtime model (so everything the importer emitted also passes the builder). */
    static Model build(DaeBuilder b) {
        return ModelBuilder.build(AssetFormat.COLLADA, importDae(b));
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

    /** The index of the import node named {@code name}. */
    static int node(ImportScene scene, String name) {
        for (int i = 0; i < scene.nodes().size(); i++) {
            if (name.equals(scene.nodes().get(i).name())) {
                return i;
            }
        }
        throw new AssertionError("no node named " + name + " in " + scene.nodes().stream().map(ImportScene.Node::name).toList());
    }
}
