package io.posekit.asset.fbx;

import static io.posekit.asset.fbx.FbxContainerTestSupport.assertSameTree;
import static io.posekit.asset.fbx.FbxContainerTestSupport.read;
import static io.posekit.asset.fbx.FbxContainerTestSupport.records;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Reads the FBX assets of the shared conformance set (read-only, beside the checkout; skipped when absent) and checks
 * facts about their trees, counted independently from the files with a separate script: top-level records, object
 * and connection counts, the total record count, mesh arrays (zlib-compressed in both files).
 */
class FbxContainerAssetsTest {

    private static final String[] TOP_LEVEL = {"FBXHeaderExtension", "FileId", "CreationTime", "Creator",
        "GlobalSettings", "Documents", "References", "Definitions", "Objects", "Connections", "Takes"};

    private static byte[] asset(String folder, String file) {
        String configured = System.getProperty("posekit.conformance.dir");
        Path base = configured != null ? Path.of(configured) : Path.of("..", "shared", "conformance");
        Path path = base.resolve("assets").resolve("fbx").resolve(folder).resolve(file);
        assumeTrue(Files.isRegularFile(path), "conformance asset " + path + " is not available");
        try {
            return Files.readAllBytes(path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Map<String, Long> countByName(FbxNode node) {
        return node.children().stream().collect(Collectors.groupingBy(FbxNode::name, TreeMap::new,
                Collectors.counting()));
    }

    @Test
    void animationWithSkeleton() {
        FbxReader.Document d = read(asset("animation_with_skeleton", "animation_with_skeleton.fbx"));

        assertThat(d.version()).isEqualTo(7400);
        assertThat(d.binary()).isTrue();
        FbxNode root = d.root();
        assertThat(root.children()).extracting(FbxNode::name).containsExactly(TOP_LEVEL);
        assertThat(records(root)).isEqualTo(2509);
        FbxNode header = root.child("FBXHeaderExtension");
        assertThat(header.child("FBXVersion").property(0)).isEqualTo(7400);
        assertThat(header.child("Creator").string(0)).isEqualTo("Blender (stable FBX IO) - 2.90.1 - 4.21.3");
        assertThat((byte[]) root.child("FileId").property(0)).hasSize(16);
        assertThat(countByName(root.child("Objects"))).containsExactlyEntriesOf(new TreeMap<>(Map.of(
                "AnimationCurve", 136L, "AnimationCurveNode", 46L, "AnimationLayer", 1L, "AnimationStack", 1L,
                "Deformer", 15L, "Geometry", 1L, "Material", 1L, "Model", 20L, "NodeAttribute", 19L, "Pose", 1L)));
        FbxNode connections = root.child("Connections");
        assertThat(connections.children()).hasSize(299).allSatisfy(c -> assertThat(c.name()).isEqualTo("C"));
        assertThat(connections.children().stream().filter(c -> c.string(0).equals("OP")).count()).isEqualTo(182);
        assertThat(root.child("Objects").children("Model").subList(0, 5)).extracting(m -> m.string(1))
                .containsExactly("Cube\0\1Model", "Light\0\1Model", "Camera\0\1Model", "Armature\0\1Model",
                        "Bone\0\1Model");

        FbxNode geometry = root.child("Objects").child("Geometry");
        assertThat(geometry.properties()).containsExactly(98944408L, "Cube.001\0\1Geometry", "Mesh");
        double[] vertices = (double[]) geometry.child("Vertices").property(0);
        assertThat(vertices).hasSize(3174);
        assertThat(Arrays.copyOf(vertices, 3)).containsExactly(-28.708667755126953, 0.5000000596046448,
                0.5000000596046448);
        int[] indices = (int[]) geometry.child("PolygonVertexIndex").property(0);
        assertThat(indices).hasSize(4224).startsWith(464, 465, 468, -468);
        assertThat(Arrays.stream(indices).filter(i -> i < 0).count()).isEqualTo(1056);
        FbxNode curve = root.child("Objects").child("AnimationCurve");
        assertThat(curve.child("KeyTime").property(0)).isInstanceOf(long[].class);
        assertThat(curve.child("KeyValueFloat").property(0)).isInstanceOf(float[].class);
    }

    @Test
    void huesitos() {
        FbxReader.Document d = read(asset("huesitos", "huesitos.fbx"));

        assertThat(d.version()).isEqualTo(7400);
        assertThat(d.binary()).isTrue();
        FbxNode root = d.root();
        assertThat(root.children()).extracting(FbxNode::name).containsExactly(TOP_LEVEL);
        assertThat(records(root)).isEqualTo(1848);
        assertThat(root.child("Creator").string(0)).isEqualTo("Blender (stable FBX IO) - 2.79 (sub 0) - 3.7.17");
        assertThat(countByName(root.child("Objects"))).containsExactlyEntriesOf(new TreeMap<>(Map.of(
                "AnimationCurve", 90L, "AnimationCurveNode", 30L, "AnimationLayer", 1L, "AnimationStack", 1L,
                "Deformer", 10L, "Geometry", 1L, "Material", 1L, "Model", 15L, "NodeAttribute", 14L, "Pose", 1L)));
        FbxNode connections = root.child("Connections");
        assertThat(connections.children()).hasSize(201);
        assertThat(connections.children().stream().filter(c -> c.string(0).equals("OP")).count()).isEqualTo(120);

        FbxNode geometry = root.child("Objects").child("Geometry");
        assertThat(geometry.properties()).containsExactly(243694777L, "Cylinder\0\1Geometry", "Mesh");
        double[] vertices = geometry.child("Vertices").doubles(0);
        assertThat(vertices).hasSize(186);
        assertThat(Arrays.copyOf(vertices, 3)).containsExactly(0.7071067690849304, 0.7071067690849304,
                -1.256192684173584);
        int[] indices = geometry.child("PolygonVertexIndex").ints(0);
        assertThat(indices).hasSize(256).startsWith(16, 0, -2, 16);
        assertThat(Arrays.stream(indices).filter(i -> i < 0).count()).isEqualTo(68);
        FbxNode settings = root.child("GlobalSettings").child("Properties70");
        assertThat(settings.children("P")).filteredOn(p -> p.string(0).equals("UnitScaleFactor")).singleElement()
                .satisfies(p -> assertThat(p.number(4)).isEqualTo(1.0));
    }

    @Test
    void theAssetsSurviveARewriteInEveryLayout() {
        FbxNode tree = read(asset("huesitos", "huesitos.fbx")).root();
        for (int version : new int[] {7400, 7500}) {
            for (boolean zlib : new boolean[] {false, true}) {
                assertSameTree(tree, read(FbxBinaryWriter.write(tree, version, zlib)).root());
            }
        }
    }
}
