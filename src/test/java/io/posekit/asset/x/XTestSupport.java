package io.posekit.asset.x;

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
import java.util.function.Consumer;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/** Shared helpers and fixtures for the DirectX .x importer tests. */
public final class XTestSupport {

    static final XImporter IMPORTER = new XImporter();
    static final float HALF = (float) Math.sqrt(0.5);

    private XTestSupport() {
    }

    static ImportScene importBytes(byte[] bytes) {
        return importBytes(bytes, ImportLimits.DEFAULT);
    }

    static ImportScene importBytes(byte[] bytes, ImportLimits limits) {
        SourceFile main = new SourceFile("asset.x", bytes);
        return IMPORTER.read(main, new SourceFiles(List.of(main)), limits);
    }

    /** Imports a text document: {@code xof 0303txt 0032} followed by {@code body}. */
    static ImportScene importText(String body) {
        return importBytes(textFile(body));
    }

    public static byte[] textFile(String body) {
        return ("xof 0303txt 0032\n" + body).getBytes(StandardCharsets.UTF_8);
    }

    /** Imports and builds the runtime model (so everything the importer emitted also passes the builder). */
    static Model build(byte[] bytes) {
        return ModelBuilder.build(AssetFormat.X, importBytes(bytes));
    }

    /** The ImportException {@code call} fails with (the test fails when it succeeds or throws anything else). */
    static ImportException failure(ThrowingCallable call) {
        ImportException e = catchThrowableOfType(ImportException.class, call);
        assertThat(e).as("expected an ImportException").isNotNull();
        return e;
    }

    static void assertInvalid(ThrowingCallable call, String message) {
        ImportException e = failure(call);
        assertThat(e.getMessage()).isEqualTo(message);
        assertThat(e.kind()).isEqualTo(ImportException.Kind.INVALID);
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

    /** Writes the same document into every container, for tests that must hold whatever the container. */
    static List<byte[]> everyContainer(Consumer<XWriter> document) {
        XWriter text = XWriter.text();
        XWriter bin32 = XWriter.binary(32);
        XWriter bin64 = XWriter.binary(64);
        for (XWriter w : List.of(text, bin32, bin64)) {
            document.accept(w);
        }
        return List.of(text.file(), bin32.file(), bin64.file(), text.compressed(64), bin32.compressed(64),
                bin64.compressed(1000));
    }

    static final List<String> CONTAINERS = List.of("txt", "bin 32", "bin 64", "tzip", "bzip 32", "bzip 64");

    /**
     * Two joints and a skinned mesh with faces of 3, 4 and 5 corners, separately indexed normals and every
     * AnimationKey type:
     *
     * <ul>
     *   <li>{@code Root}: FrameTransformMatrix rows (0,1,0,0) (−1,0,0,0) (0,0,1,0) (1,2,3,1): D3DX's RotationZ(+90°)
     *       for row vectors, translated by (1,2,3);</li>
     *   <li>{@code Child} under it: translated by (0,2,0);</li>
     *   <li>{@code Mesh body} in Root: 6 positions, faces (0,1,2) (1,3,4,2) (0,2,4,5,1); normals (0,0,1) (0,1,0)
     *       (1,0,0) indexed (0,0,0) (0,0,1,1) (2,2,2,2,2); a texture coordinate set; SkinWeights Root and Child with
     *       offset matrices;</li>
     *   <li>AnimTicksPerSecond 10 (unless {@code ticks} is false); AnimationSet {@code Walk}: Root rotation keys
     *       (w,x,y,z) = (1,0,0,0) at tick 0 and (√½,0,0,√½) at 10, scale (1,1,1) at 0 and (2,2,2) at 10, position
     *       (1,2,3) at 0 and (4,5,6) at 20; Child matrix keys: translation (0,2,0) at 0 and rows (2,0,0,0) (0,0,2,0)
     *       (0,−2,0,0) (7,8,9,1) at 20.</li>
     * </ul>
     */
    public static void twoJoints(XWriter w, boolean ticks) {
        double h = Math.sqrt(0.5);
        if (ticks) {
            w.open("AnimTicksPerSecond").ints(10).close();
        }
        w.open("Frame", "Root");
        w.open("FrameTransformMatrix").floats(0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 1, 2, 3, 1).sep(";").close();
        w.open("Frame", "Child");
        w.open("FrameTransformMatrix").floats(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 2, 0, 1).sep(";").close();
        w.close();
        w.open("Mesh", "body");
        w.ints(6).floats(0, 0, 0, 1, 0, 0, 1, 1, 0, 2, 0, 0, 2, 1, 1, 0, 1, 1);
        w.ints(3, 3, 0, 1, 2, 4, 1, 3, 4, 2, 5, 0, 2, 4, 5, 1);
        w.open("MeshNormals").ints(3).floats(0, 0, 1, 0, 1, 0, 1, 0, 0);
        w.ints(3, 3, 0, 0, 0, 4, 0, 0, 1, 1, 5, 2, 2, 2, 2, 2).close();
        w.open("MeshTextureCoords").ints(6).floats(0, 0, 1, 0, 1, 1, 0, 1, 0.5, 0.5, 0.25, 0.75).close();
        w.open("XSkinMeshHeader").ints(2, 3, 2).close();
        w.open("SkinWeights").string("Root").ints(6).ints(0, 1, 2, 3, 4, 5).floats(1, 0.5, 0.5, 0.25, 0.2, 0.1);
        w.floats(0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 4, 5, 6, 1).sep(";").close();
        w.open("SkinWeights").string("Child").ints(5).ints(1, 2, 3, 4, 5).floats(0.5, 0.5, 0.75, 0.8, 0.9);
        w.floats(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -2, 0, 1).sep(";").close();
        w.close();
        w.close();
        w.open("AnimationSet", "Walk");
        w.open("Animation").ref("Root");
        w.open("AnimationKey").ints(0, 2).ints(0, 4).floats(1, 0, 0, 0).sep(";,").ints(10, 4).floats(h, 0, 0, h).sep(";;").close();
        w.open("AnimationKey").ints(1, 2).ints(0, 3).floats(1, 1, 1).sep(";,").ints(10, 3).floats(2, 2, 2).sep(";;").close();
        w.open("AnimationKey").ints(2, 2).ints(0, 3).floats(1, 2, 3).sep(";,").ints(20, 3).floats(4, 5, 6).sep(";;").close();
        w.close();
        w.open("Animation").ref("Child");
        w.open("AnimationKey").ints(4, 2).ints(0, 16).floats(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 2, 0, 1).sep(";,");
        w.ints(20, 16).floats(2, 0, 0, 0, 0, 0, 2, 0, 0, -2, 0, 0, 7, 8, 9, 1).sep(";;").close();
        w.close();
        w.close();
    }

    public static byte[] twoJointsText() {
        XWriter w = XWriter.text();
        twoJoints(w, true);
        return w.file();
    }

    /** The value of {@code track}'s key {@code k}. */
    static float[] key(io.posekit.clip.Track track, int k) {
        int n = track.components();
        return java.util.Arrays.copyOfRange(track.values(), k * n, k * n + n);
    }

    /** The track of {@code property} on node {@code node} in {@code clip}. */
    static io.posekit.clip.Track track(ImportScene.Clip clip, int node, io.posekit.clip.TrackProperty property) {
        return clip.tracks().stream().filter(t -> t.node() == node && t.property() == property).findFirst()
                .orElseThrow(() -> new AssertionError("no " + property + " track on node " + node));
    }
}
