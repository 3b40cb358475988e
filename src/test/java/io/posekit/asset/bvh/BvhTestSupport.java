package io.posekit.asset.bvh;

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
import io.posekit.clip.Track;
import io.posekit.clip.TrackProperty;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/** Shared helpers for the BVH importer tests. */
final class BvhTestSupport {

    static final BvhImporter IMPORTER = new BvhImporter();
    static final float HALF = (float) Math.sqrt(0.5);

    private BvhTestSupport() {
    }

    /** Imports {@code text} uploaded alone as {@code motion.bvh}. */
    static ImportScene importBvh(String text) {
        return importBytes(text.getBytes(StandardCharsets.UTF_8), ImportLimits.DEFAULT);
    }

    static ImportScene importBytes(byte[] bytes, ImportLimits limits) {
        SourceFile main = new SourceFile("motion.bvh", bytes);
        return IMPORTER.read(main, new SourceFiles(List.of(main)), limits);
    }

    /** Imports and builds the runtime model (so everything the importer emitted also passes the builder). */
    static Model build(String text) {
        return ModelBuilder.build(AssetFormat.BVH, importBvh(text));
    }

    /** Asserts that importing {@code text} fails as invalid (422) with exactly {@code message}. */
    static void assertInvalid(String text, String message) {
        ImportException e = failure(() -> importBvh(text));
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

    /** The track of {@code property} driving node {@code node} in the scene's only clip, or {@code null}. */
    static Track track(ImportScene scene, int node, TrackProperty property) {
        for (Track t : scene.clips().getFirst().tracks()) {
            if (t.node() == node && t.property() == property) {
                return t;
            }
        }
        return null;
    }
}
