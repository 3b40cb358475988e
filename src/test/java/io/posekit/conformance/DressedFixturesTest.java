package io.posekit.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.posekit.asset.AssetImporters;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.Model;
import io.posekit.asset.SourceFile;
import io.posekit.export.AnimatedGltf;
import io.posekit.sampling.MorphWeights;
import io.posekit.skinning.Material;
import io.posekit.skinning.Primitive;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * posekit's own character exported by Blender ({@code tools/blender-fixtures/make_fixtures.py}; committed under
 * {@code src/test/resources/fixtures/dressed/}): as FBX with its texture embedded, blend shapes and an action, and as
 * COLLADA beside its image. What the files say, known from the script: two materials (the textured 'Skin' below the
 * neck, red 'Cap' above), two shape keys animated over 1 s, three bones. The pictures and morphs are compared with
 * three.js in {@code DressedFixturesBrowserTest}.
 */
class DressedFixturesTest {

    static final Path DIR = Path.of("src", "test", "resources", "fixtures", "dressed");

    static byte[] read(String name) {
        try {
            return Files.readAllBytes(DIR.resolve(name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Model importFiles(String... names) {
        List<SourceFile> files = new java.util.ArrayList<>();
        for (String n : names) {
            files.add(new SourceFile(n, read(n)));
        }
        return AssetImporters.all(ImportLimits.DEFAULT).importUpload(files).model();
    }

    @Test
    void theFbxHasItsMaterialsEmbeddedTextureAndShapeKeys() {
        Model model = importFiles("dressed.fbx");
        List<Primitive> parts = model.meshes().getFirst().primitives();
        assertThat(parts).extracting(p -> p.material().name()).containsExactly("Skin", "Cap");
        Material skin = parts.get(0).material();
        // the PNG Blender embedded is the one it wrote beside the .dae, byte for byte
        assertThat(skin.baseColorTexture().bytes()).isEqualTo(read("dressed_skin.png"));
        assertThat(parts.get(0).texcoords()).isNotNull();
        assertThat(parts.get(1).material().baseColorTexture()).isNull();
        assertThat(parts).allSatisfy(p -> assertThat(p.morphTargetCount()).isEqualTo(2));
        // Tall lifts the top (z ≥ 1.75, all in the cap): the body part's Tall deltas are zero, the cap's lift by 0.3
        assertThat(largest(parts.get(0).morphTargets().positionDeltas(1))).isZero();
        assertThat(largest(parts.get(1).morphTargets().positionDeltas(1))).isCloseTo(0.3f, within(1e-6f));
        // Smile widens the head from the neck ring (z = 1.5, radius 0.22, shared with the body) up: 0.4 × radius
        assertThat(largest(parts.get(0).morphTargets().positionDeltas(0))).isCloseTo(0.088f, within(1e-6f));
        // the action keys Smile 0 → 1 → 0 and Tall 0 → 0.5 → 1 at 0, 0.5, 1 s (linear keys)
        for (double[] expected : new double[][] {{0, 0, 0}, {0.25, 0.5, 0.25}, {0.5, 1, 0.5}, {0.75, 0.5, 0.75}}) {
            assertThat(MorphWeights.evaluate(model.meshes(), model.clips().getFirst(), expected[0]).weights(0))
                    .as("%s s", expected[0])
                    .containsExactly(new float[] {(float) expected[1], (float) expected[2]}, within(1e-4f));
        }
    }

    private static float largest(float[] deltas) {
        float largest = 0;
        for (float d : deltas == null ? new float[0] : deltas) {
            largest = Math.max(largest, Math.abs(d));
        }
        return largest;
    }

    @Test
    void theColladaHasItsMaterialsAndTheImageBesideIt() {
        Model model = importFiles("dressed.dae", "dressed_skin.png");
        List<Primitive> parts = model.meshes().getFirst().primitives();
        assertThat(parts).extracting(p -> p.material().name()).containsExactly("Skin", "Cap");
        assertThat(parts.get(0).material().baseColorTexture().bytes()).isEqualTo(read("dressed_skin.png"));
        assertThat(model.warnings()).noneMatch(w -> w.contains("image"));
    }

    /** The animated glTF of {@code model}, also left in {@code target/dressed-exports/} for the glTF-Validator. */
    static byte[] export(Model model, String name) {
        byte[] glb = AnimatedGltf.of(model, AnimatedGltf.Options.DEFAULT).glb();
        try {
            Path out = Path.of("target", "dressed-exports");
            Files.createDirectories(out);
            Files.write(out.resolve(name + ".glb"), glb);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return glb;
    }

    @Test
    void theColladaExportKeepsMaterialsAndTheTexture() {
        Model original = importFiles("dressed.dae", "dressed_skin.png");
        Model copy = AssetImporters.all(ImportLimits.DEFAULT)
                .importUpload(List.of(new SourceFile("d.glb", export(original, "dressed-dae")))).model();
        List<Primitive> b = copy.meshes().getFirst().primitives();
        assertThat(b).extracting(p -> p.material().name()).containsExactly("Skin", "Cap");
        assertThat(b.get(0).material().baseColorTexture().bytes()).isEqualTo(read("dressed_skin.png"));
        assertThat(b.get(1).material().baseColorFactor()).containsExactly(
                original.meshes().getFirst().primitives().get(1).material().baseColorFactor());
    }

    @Test
    void theExportKeepsMaterialsTexturesAndMorphTargets() {
        Model original = importFiles("dressed.fbx");
        byte[] glb = export(original, "dressed-fbx");
        Model copy = AssetImporters.all(ImportLimits.DEFAULT).importUpload(List.of(new SourceFile("d.glb", glb))).model();
        List<Primitive> a = original.meshes().getFirst().primitives();
        List<Primitive> b = copy.meshes().getFirst().primitives();
        assertThat(b).extracting(p -> p.material().name()).containsExactly("Skin", "Cap");
        assertThat(b.get(0).material().baseColorTexture().bytes()).isEqualTo(a.get(0).material().baseColorTexture().bytes());
        assertThat(b).allSatisfy(p -> assertThat(p.morphTargetCount()).isEqualTo(2));
        for (double t : new double[] {0.1, 0.5, 0.9}) {
            assertThat(MorphWeights.evaluate(copy.meshes(), copy.clips().getFirst(), t).weights(0))
                    .containsExactly(MorphWeights.evaluate(original.meshes(), original.clips().getFirst(), t).weights(0),
                            within(1e-5f));
        }
    }
}
