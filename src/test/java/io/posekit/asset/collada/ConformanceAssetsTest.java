package io.posekit.asset.collada;

import static io.posekit.asset.collada.ColladaTestSupport.HALF;
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
import io.posekit.clip.Interpolation;
import io.posekit.clip.NodeTransformTrack;
import io.posekit.clip.Track;
import io.posekit.skinning.Primitive;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Imports every COLLADA asset of the shared conformance set (read-only, beside the checkout; skipped when absent)
 * and checks facts known about them. Vertex counts are unique (position, normal, texcoord, …) index tuples and
 * triangle counts were derived independently from the files; the index counts equal the de-indexed vertex counts
 * three.js reports in the expected data.
 */
class ConformanceAssetsTest {

    private static Path assetRoot() {
        String configured = System.getProperty("posekit.conformance.dir");
        Path base = configured != null ? Path.of(configured) : Path.of("..", "shared", "conformance");
        return base.resolve("assets").resolve("collada");
    }

    private static ImportScene importAsset(String folder, String file) {
        Path path = assetRoot().resolve(folder).resolve(file);
        assumeTrue(Files.isRegularFile(path), "conformance asset " + path + " is not available");
        return importPath(path);
    }

    private static ImportScene importPath(Path path) {
        try {
            SourceFile main = new SourceFile(path.getFileName().toString(), Files.readAllBytes(path));
            return new ColladaImporter().read(main, new SourceFiles(List.of(main)), ImportLimits.DEFAULT);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> jointNames(ImportScene s, ImportScene.Skin skin) {
        return Arrays.stream(skin.joints()).mapToObj(j -> s.nodes().get(j).name()).toList();
    }

    @TestFactory
    Stream<DynamicTest> everyAssetImportsAndBuilds() throws IOException {
        Path root = assetRoot();
        assumeTrue(Files.isDirectory(root), "conformance assets not available at " + root);
        List<Path> models;
        try (Stream<Path> walk = Files.walk(root)) {
            models = walk.filter(p -> Files.isRegularFile(p) && p.getFileName().toString().toLowerCase().endsWith(".dae"))
                    .sorted().toList();
        }
        assertThat(models).hasSize(6);
        return models.stream().map(p -> DynamicTest.dynamicTest(root.relativize(p).toString(), () -> {
            ImportScene scene = importPath(p);
            Model model = ModelBuilder.build(AssetFormat.COLLADA, scene);
            assertThat(model.rig().nodeCount()).isEqualTo(scene.nodes().size());
            assertThat(scene.meshes()).isNotEmpty();
            assertThat(model.clips()).isNotEmpty();
        }));
    }

    @Test
    void boxAnimated() {
        ImportScene s = importAsset("BoxAnimated", "BoxAnimated.dae");
        assertThat(s.nodes()).extracting(ImportScene.Node::name)
                .containsExactly("DefaultScene", "Render", "outer_box", "inner_box", "Camera", "Directional_Light");
        assertThat(s.nodes().getFirst().rotation()).containsExactly(0, 0, 0, 1); // Y_UP
        assertThat(s.skins()).isEmpty();
        assertThat(s.meshes()).extracting(ImportScene.MeshInstance::name).containsExactly("outer_box", "inner_box");
        assertThat(s.meshes()).allSatisfy(m -> assertThat(m.skin()).isEqualTo(-1));
        Primitive outer = s.meshes().get(0).primitives().getFirst();
        assertThat(outer.vertexCount()).isEqualTo(224);
        assertThat(outer.indexCount()).isEqualTo(384);
        assertThat(outer.attributes()).containsExactly("POSITION", "NORMAL", "TEXCOORD_0");
        Primitive inner = s.meshes().get(1).primitives().getFirst();
        assertThat(inner.vertexCount()).isEqualTo(96);
        assertThat(inner.indexCount()).isEqualTo(132);
        assertThat(s.clips()).singleElement().satisfies(c -> {
            assertThat(c.name()).isEqualTo("default");
            assertThat(c.duration()).isNull();
            assertThat(c.tracks()).isEmpty();
            // inner_box: translate, rotateY, rotateX, rotateZ as exact curves (translation021.Y, rotation022X.ANGLE)
            NodeTransformTrack stack = c.nodeTransforms().getFirst();
            assertThat(stack.node()).isEqualTo(3);
            assertThat(stack.elements()).hasSize(4);
            assertThat(((NodeTransformTrack.Translate) stack.elements().get(0)).y().keyCount()).isEqualTo(4);
            assertThat(((NodeTransformTrack.Rotate) stack.elements().get(2)).angleDegrees().keyCount()).isEqualTo(2);
        });
        assertThat(s.warnings()).isEmpty();
        Model model = ModelBuilder.build(AssetFormat.COLLADA, s);
        assertThat(model.clips().getFirst().duration()).isCloseTo(3.70833, within(1e-6));
    }

    @Test
    void cesiumMan() {
        ImportScene s = importAsset("CesiumMan", "CesiumMan.dae");
        assertThat(s.nodes()).hasSize(22);
        assertThat(s.nodes().getFirst().rotation()).containsExactly(-HALF, 0, 0, HALF); // Z_UP
        assertThat(s.skins()).singleElement().satisfies(skin -> {
            assertThat(skin.joints()).hasSize(19);
            assertThat(jointNames(s, skin)).startsWith("Skeleton_torso_joint_1", "Skeleton_torso_joint_2", "torso_joint_3")
                    .endsWith("leg_joint_L_5", "leg_joint_R_5");
        });
        ImportScene.MeshInstance mesh = s.meshes().getFirst();
        assertThat(mesh.name()).isEqualTo("Cesium_Man");
        Primitive p = mesh.primitives().getFirst();
        assertThat(p.vertexCount()).isEqualTo(14016);
        // up to 8 influences per control vertex (177 of 2338 have more than 4): two sets of 4 slots
        assertThat(p.influencesPerVertex()).isEqualTo(8);
        assertThat(s.clips()).singleElement().satisfies(c -> {
            assertThat(c.name()).isEqualTo("default");
            assertThat(c.tracks()).hasSize(57);
            assertThat(c.tracks()).allSatisfy(t -> assertThat(t.interpolation()).isEqualTo(Interpolation.LINEAR));
        });
        // the image the material names is not part of the conformance asset (nor of this upload)
        assertThat(s.warnings()).containsExactly("image 'Cesium_Man_jpg': its image 'CesiumMan.jpg' is not among the"
                + " uploaded files; the material's colour is used");
        assertThat(ModelBuilder.build(AssetFormat.COLLADA, s).clips().getFirst().duration()).isEqualTo(2.0);
    }

    @Test
    void riggedFigure() {
        ImportScene s = importAsset("RiggedFigure", "RiggedFigure.dae");
        assertThat(s.skins().getFirst().joints()).hasSize(19);
        Primitive p = s.meshes().getFirst().primitives().getFirst();
        assertThat(p.vertexCount()).isEqualTo(768);
        assertThat(p.influencesPerVertex()).isEqualTo(8);
        assertThat(s.clips().getFirst().tracks()).hasSize(57);
        assertThat(ModelBuilder.build(AssetFormat.COLLADA, s).clips().getFirst().duration()).isEqualTo(1.25);
    }

    @Test
    void riggedSimple() {
        ImportScene s = importAsset("RiggedSimple", "riggedSimple.dae");
        // Name_array "Bone Bone_001" resolves by sid; joints are named by their sid (node Bone_001 is "Bone.001")
        assertThat(s.skins()).singleElement().satisfies(skin -> {
            assertThat(skin.name()).isEqualTo("Armature");
            assertThat(jointNames(s, skin)).containsExactly("Bone", "Bone_001");
        });
        Primitive p = s.meshes().getFirst().primitives().getFirst();
        assertThat(p.vertexCount()).isEqualTo(96);
        assertThat(p.indexCount()).isEqualTo(564);
        assertThat(p.influencesPerVertex()).isEqualTo(4);
        ImportScene.Clip clip = s.clips().getFirst();
        assertThat(clip.tracks()).hasSize(6);
        // keys start at 0.0417 s and are not shifted without a clip library
        assertThat(clip.tracks()).allSatisfy(t -> assertThat(t.startTime()).isEqualTo(0.04166662f));
        ModelBuilder.build(AssetFormat.COLLADA, s);
    }

    @Test
    void boxNestedAnimation() {
        ImportScene s = importAsset("box_nested_animation", "box_nested_animation.dae");
        // the joint "Bone" is the sid of node Armature_Bone (name "Bone"), found under <skeleton>#Armature_Bone
        assertThat(jointNames(s, s.skins().getFirst())).containsExactly("Bone");
        // IBM · BSM: BSM translates by (−1, 1, 1), the IBM rotates and translates; the product's translation is
        // IBM's rotation applied to (−1, 1, 1) plus IBM's translation
        float[] ibm = s.skins().getFirst().inverseBindMatrices();
        double[][] r = {{0.7886752, 0.2113248, 0.5773504}, {-0.5773503, 0.5773503, 0.5773503}, {-0.2113249, -0.7886752, 0.5773503}};
        double[] t = {-0.5773504, 1.154701, -0.5773502};
        for (int row = 0; row < 3; row++) {
            double expected = r[row][0] * -1 + r[row][1] + r[row][2] + t[row];
            assertThat((double) ibm[12 + row]).isCloseTo(expected, within(1e-6));
        }
        // the channel is in an <animation> nested in another
        assertThat(s.clips()).singleElement().satisfies(c -> assertThat(c.tracks()).hasSize(3));
        assertThat(s.meshes().getFirst().primitives().getFirst().vertexCount()).isEqualTo(36);
        ModelBuilder.build(AssetFormat.COLLADA, s);
    }

    @Test
    void libraryAnimationClips() {
        ImportScene s = importAsset("library_animation_clips", "library_animation_clips.dae");
        assertThat(s.clips()).extracting(ImportScene.Clip::name).containsExactly("bend", "turn");
        assertThat(s.clips().get(0).duration()).isCloseTo(0.625 - 0.041666666666666664, within(1e-12));
        assertThat(s.clips().get(1).duration()).isCloseTo(0.8333333, within(1e-7));
        assertThat(s.clips()).allSatisfy(c -> assertThat(c.tracks()).hasSize(18));
        // bend starts at 0.0417 s: its keys are shifted so that the clip starts at 0
        Track bend = s.clips().get(0).tracks().getFirst();
        assertThat(bend.times()[1]).isCloseTo(0, within(1e-7f));
        assertThat(jointNames(s, s.skins().getFirst())).containsExactly("id-skelbones-2-0", "id-skelbones-2-1",
                "id-skelbones-2-2", "id-skelbones-2-3", "id-skelbones-2-4");
        // <polygons> with one <p> per polygon: all 26 quads and triangles, not just the first
        Primitive p = s.meshes().getFirst().primitives().getFirst();
        assertThat(p.vertexCount()).isEqualTo(72);
        assertThat(p.indexCount()).isEqualTo(3 * 52);
        // its <input semantic="COLOR"> is an RGB source of 72 white colours: white, alpha 1, on every vertex
        assertThat(p.attributes()).contains("COLOR_0");
        float[] white = new float[4 * 72];
        Arrays.fill(white, 1);
        assertThat(p.colors()).containsExactly(white);
        assertThat(s.warnings()).containsExactly("skin 'id-controller-12': 4 of 72 vertices have weights that do not sum "
                + "to 1 (0.971–1); they are normalised when skinning");
        Model model = ModelBuilder.build(AssetFormat.COLLADA, s);
        assertThat(model.findClip("turn")).contains(1);
        assertThat(model.clips().get(1).duration()).isEqualTo(0.8333333333333333);
    }
}
