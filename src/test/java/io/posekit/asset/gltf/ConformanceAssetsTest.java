package io.posekit.asset.gltf;

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
import io.posekit.clip.TrackProperty;
import io.posekit.skinning.Primitive;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Imports every glTF asset of the shared conformance set (read-only, beside the checkout; the tests are
 * skipped when it is absent) and checks facts known about them. Each asset's folder is uploaded whole, so
 * sibling files resolve as they would in a zip upload.
 */
class ConformanceAssetsTest {

    private static Path assetRoot() {
        String configured = System.getProperty("posekit.conformance.dir");
        Path base = configured != null ? Path.of(configured) : Path.of("..", "shared", "conformance");
        return base.resolve("assets").resolve("gltf");
    }

    /** The main model file and every file of its folder as an upload. */
    private record Upload(SourceFile main, SourceFiles files) {
    }

    private static Upload upload(Path modelFile) {
        try {
            List<SourceFile> files = new ArrayList<>();
            SourceFile main = null;
            try (Stream<Path> list = Files.list(modelFile.getParent())) {
                for (Path p : list.sorted().toList()) {
                    if (Files.isRegularFile(p)) {
                        SourceFile f = new SourceFile(p.getFileName().toString(), Files.readAllBytes(p));
                        files.add(f);
                        if (p.equals(modelFile)) {
                            main = f;
                        }
                    }
                }
            }
            return new Upload(main, new SourceFiles(files));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static ImportScene importAsset(String folder, String file) {
        Path path = assetRoot().resolve(folder).resolve(file);
        assumeTrue(Files.isRegularFile(path), "conformance asset " + path + " is not available");
        Upload u = upload(path);
        return new GltfImporter().read(u.main(), u.files(), ImportLimits.DEFAULT);
    }

    @TestFactory
    Stream<DynamicTest> everyAssetImportsAndBuilds() throws IOException {
        Path root = assetRoot();
        assumeTrue(Files.isDirectory(root), "conformance assets not available at " + root);
        List<Path> models;
        try (Stream<Path> walk = Files.walk(root)) {
            models = walk.filter(p -> {
                String n = p.getFileName().toString().toLowerCase();
                return Files.isRegularFile(p) && (n.endsWith(".glb") || n.endsWith(".gltf"));
            }).sorted().toList();
        }
        assertThat(models).isNotEmpty();
        return models.stream().map(p -> DynamicTest.dynamicTest(root.relativize(p).toString(), () -> {
            Upload u = upload(p);
            ImportScene scene = new GltfImporter().read(u.main(), u.files(), ImportLimits.DEFAULT);
            Model model = ModelBuilder.build(AssetFormat.GLTF, scene);
            assertThat(model.rig().footprintBytes()).isPositive();
            assertThat(scene.nodes()).isNotEmpty();
            assertThat(scene.meshes()).isNotEmpty();
        }));
    }

    @Test
    void fox() {
        ImportScene scene = importAsset("Fox", "Fox.glb");
        assertThat(scene.clips()).extracting(ImportScene.Clip::name).containsExactly("Survey", "Walk", "Run");
        assertThat(scene.clips()).allSatisfy(c -> assertThat(c.tracks()).hasSize(21));
        assertThat(scene.skins()).hasSize(1);
        assertThat(scene.skins().getFirst().joints()).hasSize(24);
        assertThat(scene.skins().getFirst().inverseBindMatrices()).hasSize(24 * 16);
        assertThat(scene.meshes()).hasSize(1);
        ImportScene.MeshInstance fox = scene.meshes().getFirst();
        assertThat(fox.name()).isEqualTo("fox1");
        assertThat(fox.skin()).isZero();
        assertThat(fox.primitives()).hasSize(1);
        Primitive p = fox.primitives().getFirst();
        assertThat(p.vertexCount()).isEqualTo(1728);
        assertThat(p.influencesPerVertex()).isEqualTo(4);
        assertThat(scene.nodes()).hasSize(26);
        assertThat(scene.warnings()).isEmpty();
        Model model = ModelBuilder.build(AssetFormat.GLTF, scene);
        assertThat(model.clips()).hasSize(3);
        assertThat(model.findClip("Walk")).contains(1);
    }

    @Test
    void brainStemHas59PrimitivesInOneMesh() {
        ImportScene scene = importAsset("BrainStem", "BrainStem.glb");
        assertThat(scene.meshes()).hasSize(1);
        List<Primitive> primitives = scene.meshes().getFirst().primitives();
        assertThat(primitives).hasSize(59);
        assertThat(primitives.stream().mapToInt(Primitive::vertexCount).sum()).isEqualTo(34159);
        assertThat(scene.skins().getFirst().joints()).hasSize(18);
        assertThat(scene.clips()).hasSize(1);
        assertThat(scene.clips().getFirst().tracks()).hasSize(57);
    }

    @Test
    void cesiumMan() {
        ImportScene scene = importAsset("CesiumMan", "CesiumMan.glb");
        assertThat(scene.nodes()).hasSize(22);
        assertThat(scene.meshes()).singleElement()
                .satisfies(m -> assertThat(m.primitives().getFirst().vertexCount()).isEqualTo(3273));
        assertThat(scene.skins().getFirst().joints()).hasSize(19);
        assertThat(scene.clips().getFirst().name()).isNull();
        assertThat(scene.clips().getFirst().tracks()).hasSize(57);
    }

    @Test
    void interpolationTestHasAllThreeInterpolations() {
        ImportScene scene = importAsset("InterpolationTest", "InterpolationTest.glb");
        assertThat(scene.clips()).extracting(ImportScene.Clip::name).containsExactly("Step Scale", "Linear Scale",
                "CubicSpline Scale", "Step Rotation", "CubicSpline Rotation", "Linear Rotation", "Step Translation",
                "CubicSpline Translation", "Linear Translation");
        var cubic = scene.clips().get(2).tracks().getFirst();
        assertThat(cubic.interpolation()).isEqualTo(Interpolation.CUBICSPLINE);
        assertThat(cubic.property()).isEqualTo(TrackProperty.SCALE);
        assertThat(cubic.values()).hasSize(cubic.times().length * 9);
        assertThat(scene.clips().get(0).tracks().getFirst().interpolation()).isEqualTo(Interpolation.STEP);
        assertThat(scene.meshes()).hasSize(10);
    }

    @Test
    void recursiveSkeletons() {
        ImportScene scene = importAsset("RecursiveSkeletons", "RecursiveSkeletons.glb");
        assertThat(scene.nodes()).hasSize(924);
        assertThat(scene.skins()).hasSize(84);
        assertThat(scene.meshes()).hasSize(84);
        // one mesh placed 84 times: decoded once, shared by every instance
        assertThat(scene.meshes()).allSatisfy(m -> assertThat(m.primitives()).isSameAs(scene.meshes().getFirst().primitives()));
        assertThat(scene.clips()).singleElement().satisfies(c -> {
            assertThat(c.name()).isEqualTo("Track0");
            assertThat(c.tracks()).hasSize(840);
        });
        ModelBuilder.build(AssetFormat.GLTF, scene);
    }

    @Test
    void simpleSparseAccessorAppliesSparseValues() {
        ImportScene scene = importAsset("SimpleSparseAccessor", "SimpleSparseAccessor.gltf");
        Primitive p = scene.meshes().getFirst().primitives().getFirst();
        assertThat(p.vertexCount()).isEqualTo(14);
        assertThat(p.indexCount()).isEqualTo(36);
        float[] pos = p.positions();
        // sparse indices 8, 10, 12 replace y with 2, 3, 4
        assertThat(new float[] {pos[24], pos[25], pos[26]}).containsExactly(1, 2, 0);
        assertThat(new float[] {pos[30], pos[31], pos[32]}).containsExactly(3, 3, 0);
        assertThat(new float[] {pos[36], pos[37], pos[38]}).containsExactly(5, 4, 0);
        assertThat(new float[] {pos[27], pos[28], pos[29]}).containsExactly(2, 1, 0);
    }

    @Test
    void simpleSkinFromDataUris() {
        ImportScene scene = importAsset("SimpleSkin", "SimpleSkin.gltf");
        assertThat(scene.meshes().getFirst().primitives().getFirst().vertexCount()).isEqualTo(10);
        assertThat(scene.skins().getFirst().joints()).containsExactly(1, 2);
        assertThat(scene.clips()).hasSize(1);
    }

    @Test
    void animatedTriangle() {
        ImportScene scene = importAsset("AnimatedTriangle", "AnimatedTriangle.gltf");
        var track = scene.clips().getFirst().tracks().getFirst();
        assertThat(track.property()).isEqualTo(TrackProperty.ROTATION);
        assertThat(track.times()).containsExactly(0f, 0.25f, 0.5f, 0.75f, 1f);
        assertThat(track.values()[4 * 3 + 3]).isCloseTo(-0.707f, within(1e-6f));
    }

    @Test
    void quadSkinHasMatrixNodes() {
        ImportScene scene = importAsset("quad_skin", "quad_skin.glb");
        assertThat(scene.nodes()).hasSize(23);
        assertThat(scene.skins().getFirst().joints()).hasSize(10);
        assertThat(scene.meshes().getFirst().primitives().getFirst().vertexCount()).isEqualTo(4);
        ModelBuilder.build(AssetFormat.GLTF, scene);
    }
}
