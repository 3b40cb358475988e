package io.posekit.asset.x;

import static io.posekit.asset.x.XTestSupport.node;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.posekit.asset.AssetFormat;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.ImportScene;
import io.posekit.asset.Model;
import io.posekit.asset.ModelBuilder;
import io.posekit.asset.SourceFile;
import io.posekit.asset.SourceFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Imports the DirectX assets of the shared conformance set (read-only, beside the checkout; skipped when absent)
 * and checks facts counted independently from the files: frames, meshes and their triangle counts, SkinWeights,
 * Animations.
 */
class ConformanceAssetsTest {

    private static ImportScene importAsset(String folder, String file) {
        String configured = System.getProperty("posekit.conformance.dir");
        Path base = configured != null ? Path.of(configured) : Path.of("..", "shared", "conformance");
        Path path = base.resolve("assets").resolve("x").resolve(folder).resolve(file);
        assumeTrue(Files.isRegularFile(path), "conformance asset " + path + " is not available");
        try {
            SourceFile main = new SourceFile(file, Files.readAllBytes(path));
            return new XImporter().read(main, new SourceFiles(List.of(main)), ImportLimits.DEFAULT);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> jointNames(ImportScene s, ImportScene.Skin skin) {
        return Arrays.stream(skin.joints()).mapToObj(j -> s.nodes().get(j).name()).toList();
    }

    /**
     * anim_test.x: frames pCylinder1, joint1 › joint2, ikHandle1; one mesh of 1720 positions and 840 triangles with
     * normals indexed like the positions; four SkinWeights of which joint3 and joint4 name no frame; 4 Animations of
     * rotation, scale and position keys at ticks 1–24, 24 ticks per second.
     */
    @Test
    void animTest() {
        ImportScene s = importAsset("anim_test", "anim_test.x");
        assertThat(s.nodes()).extracting(ImportScene.Node::name)
                .containsExactly("pCylinder1", "joint1", "joint2", "ikHandle1", "joint3", "joint4");
        assertThat(s.nodes().get(node(s, "joint2")).parent()).isEqualTo(node(s, "joint1"));
        assertThat(s.skins()).singleElement().satisfies(skin ->
                assertThat(jointNames(s, skin)).containsExactly("joint1", "joint2", "joint3", "joint4"));
        assertThat(s.meshes()).singleElement().satisfies(m -> {
            assertThat(m.node()).isEqualTo(node(s, "pCylinder1"));
            assertThat(m.name()).isEqualTo("pCylinderShape1");
            assertThat(m.primitives().getFirst().vertexCount()).isEqualTo(1720);
            assertThat(m.primitives().getFirst().indexCount()).isEqualTo(3 * 840);
            assertThat(m.primitives().getFirst().influencesPerVertex()).isEqualTo(4);
        });
        assertThat(s.warnings()).containsExactly("Mesh 'pCylinderShape1': the bones 'joint3', 'joint4' name no Frame; their"
                + " influences are bound to a static node of the same name at the bone's bind pose");
        Model model = ModelBuilder.build(AssetFormat.X, s);
        assertThat(model.clips()).singleElement().satisfies(c -> {
            assertThat(c.name()).isEqualTo("cylinder_test");
            assertThat(c.tracks()).hasSize(12);
            assertThat(c.duration()).isCloseTo(1.0, within(1e-7));
        });
    }

    /**
     * BCN_Epileptic.X: 57 frames; meshes in frames Torso, Head and Legs with 1966, 2036 and 1124 triangles; 24 + 20
     * + 10 SkinWeights, each bone in one mesh only, so one shared skin of 54 joints; 57 Animations × 3 keys at 4800
     * ticks per second, the last key at tick 15840.
     */
    @Test
    void bcnEpileptic() {
        ImportScene s = importAsset("BCN_Epileptic", "BCN_Epileptic.X");
        assertThat(s.nodes()).hasSize(57);
        assertThat(s.meshes()).extracting(m -> s.nodes().get(m.node()).name()).containsExactly("Torso", "Head", "Legs");
        assertThat(s.meshes()).extracting(m -> m.primitives().getFirst().indexCount()).containsExactly(3 * 1966, 3 * 2036, 3 * 1124);
        assertThat(s.skins()).singleElement().satisfies(skin -> {
            assertThat(skin.joints()).hasSize(54);
            assertThat(jointNames(s, skin).subList(0, 3)).containsExactly("B_Finger3_Left", "B_Finger2_Left", "B_Finger1_Left");
        });
        assertThat(s.meshes()).allSatisfy(m -> assertThat(m.skin()).isZero());
        assertThat(s.warnings()).isEmpty();
        Model model = ModelBuilder.build(AssetFormat.X, s);
        assertThat(model.clips()).singleElement().satisfies(c -> {
            assertThat(c.name()).isEqualTo("Epileptisch");
            assertThat(c.tracks()).hasSize(171);
            assertThat(c.duration()).isCloseTo(15840 / 4800.0, within(1e-6));
        });
    }
}
