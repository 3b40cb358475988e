package io.posekit.export;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.posekit.asset.AssetImporters;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.Model;
import io.posekit.asset.ModelSpace;
import io.posekit.asset.ModelSpace.Axis;
import io.posekit.asset.SourceFile;
import io.posekit.asset.fbx.FbxTestFiles;
import io.posekit.clip.Clip;
import io.posekit.sampling.Pose;
import io.posekit.skinning.MeshPoser;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Units and axes on the way to glTF, on FBX files built in code: a skinned, animated quad declaring Z-up centimetres
 * (3ds Max's and Blender's {@code UpAxis} 2, {@code FrontAxis} −Y), Y-up centimetres (Maya's) and Y-up metres. The
 * model keeps the file's space and declares it; {@code animated.glb} carries the conversion on a root node and
 * re-imports with every skinning matrix and vertex equal to the file's times that conversion; posed vertices convert
 * exactly.
 */
class ModelSpaceExportTest {

    /** ufbx's root for blender_340_z_up with target_axes = Y up, metres: −90° about X, scale 0.01. */
    static final double[] Z_UP_CM = {0.01, 0, 0, 0, 0, 0, -0.01, 0, 0, 0.01, 0, 0, 0, 0, 0, 1};
    static final double[] Y_UP_CM = {0.01, 0, 0, 0, 0, 0.01, 0, 0, 0, 0, 0.01, 0, 0, 0, 0, 1};

    static Model zUpCentimetres() {
        return fbx(FbxTestFiles.skinnedBinaryInSpace(2, 1, 1, -1, 1.0));
    }

    static Model yUpCentimetres() {
        return fbx(FbxTestFiles.skinnedBinaryInSpace(1, 1, 2, 1, 1.0));
    }

    static Model fbx(byte[] bytes) {
        return AssetImporters.all(ImportLimits.DEFAULT).importUpload(List.of(new SourceFile("quad.fbx", bytes))).model();
    }

    @Test
    void theModelDeclaresTheFilesAxesAndUnit() {
        Model z = zUpCentimetres();
        assertThat(z.space()).isEqualTo(new ModelSpace(Axis.PLUS_X, Axis.PLUS_Z, Axis.MINUS_Y, 0.01, 0.01));
        assertThat(z.space().toGltf()).containsExactly(Z_UP_CM);
        assertThat(z.space().mirrors()).isFalse();
        Model y = yUpCentimetres();
        assertThat(y.space()).isEqualTo(new ModelSpace(Axis.PLUS_X, Axis.PLUS_Y, Axis.PLUS_Z, 0.01, 0.01));
        assertThat(y.space().toGltf()).containsExactly(Y_UP_CM);
        assertThat(fbx(FbxTestFiles.skinnedBinaryInSpace(1, 1, 2, 1, 100.0)).space().isGltf()).isTrue();
        // sampling stays in the file's space: the same rest pose whatever the file declares
        assertThat(Pose.evaluate(z.rig(), null, 0).modelMatrices())
                .containsExactly(Pose.evaluate(y.rig(), null, 0).modelMatrices());
    }

    @Test
    void posedVerticesConvertExactly() {
        Model z = zUpCentimetres();
        float[] matrices = Pose.evaluate(z.rig(), z.clips().getFirst(), 0.5).modelMatrices();
        float[] file = PosedMeshes.all(z, matrices).getFirst().posed().getFirst().positions().clone();
        var converted = PosedMeshes.convert(PosedMeshes.all(z, matrices), z.space(), Coordinates.GLTF);
        float[] gltf = converted.getFirst().posed().getFirst().positions();
        assertThat(gltf).hasSameSizeAs(file);
        for (int i = 0; i < file.length; i += 3) {
            // (x, y, z) cm, Z-up, front −Y → (x, z, −y) m, Y-up, front +Z
            assertThat(new float[] {gltf[i], gltf[i + 1], gltf[i + 2]}).containsExactly(
                    (float) (0.01 * file[i]), (float) (0.01 * file[i + 2]), (float) (-0.01 * file[i + 1]));
        }
        float[] normals = converted.getFirst().posed().getFirst().normals();
        float[] fileNormals = PosedMeshes.all(z, matrices).getFirst().posed().getFirst().normals();
        for (int i = 0; i < normals.length; i += 3) {
            assertThat(new float[] {normals[i], normals[i + 1], normals[i + 2]})
                    .containsExactly(fileNormals[i], fileNormals[i + 2], -fileNormals[i + 1]);
        }
        // file coordinates: untouched
        var kept = PosedMeshes.convert(PosedMeshes.all(z, matrices), z.space(), Coordinates.FILE);
        assertThat(kept.getFirst().posed().getFirst().positions()).containsExactly(file);
    }

    @Test
    void theRestPoseOfTheZUpQuadIsAtTheExpectedMetres() {
        Model z = zUpCentimetres();
        float[] matrices = Pose.evaluate(z.rig(), null, 0).modelMatrices();
        float[] p = PosedMeshes.convert(PosedMeshes.all(z, matrices), z.space(), Coordinates.GLTF).getFirst().posed()
                .getFirst().positions();
        float[] file = PosedMeshes.all(z, matrices).getFirst().posed().getFirst().positions();
        // the quad's third control point (1, 1, 0) cm, skinned by the hip turned 90° about Z: (−1, 1, 0) cm (Z-up) …
        assertThat(new float[] {file[6], file[7], file[8]}).containsExactly(-0.9999999f, 1f, 0f);
        // … is (−0.01, 0, −0.01) m in glTF's Y-up, front +Z
        assertThat(new float[] {p[6], p[7], p[8]}).containsExactly(-0.009999999f, 0f, -0.01f);
    }

    @Test
    void animatedGlbConvertsOnARootNodeAndReimportsAsTheFileTimesTheConversion() {
        for (Model model : List.of(zUpCentimetres(), yUpCentimetres())) {
            double[] c = model.space().toGltf();
            byte[] glb = AnimatedGltf.of(model, AnimatedGltf.Options.DEFAULT).glb();
            JsonNode json = GlbFile.parse(glb).json();
            int root = nodeNamed(json, AnimatedGltf.SPACE_ROOT);
            assertThat(root).isGreaterThanOrEqualTo(0);
            float[] matrix = new float[16];
            for (int i = 0; i < 16; i++) {
                matrix[i] = json.get("nodes").get(root).get("matrix").get(i).floatValue();
            }
            float[] expected = new float[16];
            for (int i = 0; i < 16; i++) {
                expected[i] = (float) c[i];
            }
            assertThat(matrix).containsExactly(expected);
            List<Integer> sceneNodes = new ArrayList<>();
            json.get("scenes").get(0).get("nodes").forEach(n -> sceneNodes.add(n.asInt()));
            assertThat(sceneNodes).contains(root);
            List<Integer> children = new ArrayList<>();
            json.get("nodes").get(root).get("children").forEach(n -> children.add(n.asInt()));
            List<Integer> rigRoots = new ArrayList<>();
            for (int i = 0; i < model.rig().nodeCount(); i++) {
                if (model.rig().parent(i) < 0) {
                    rigRoots.add(i);
                }
            }
            assertThat(children).isEqualTo(rigRoots);
            // a skinned mesh stays on a scene root (glTF: NODE_SKINNED_MESH_NON_ROOT), not under the conversion
            for (int i = 0; i < json.get("nodes").size(); i++) {
                if (json.get("nodes").get(i).has("skin")) {
                    assertThat(sceneNodes).as("skinned node %d", i).contains(i);
                }
            }
            assertThat(json.get("asset").get("extras").get("coordinates").asString()).isEqualTo("gltf");

            Model copy = RoundTrip.reimport(glb);
            // joints keep the file's local transforms: the conversion is above them
            for (int i = 0; i < model.rig().nodeCount(); i++) {
                int j = bySource(copy, i);
                for (int k = 0; k < 3; k++) {
                    assertThat(copy.rig().restTranslations()[3 * j + k]).isEqualTo(model.rig().restTranslations()[3 * i + k]);
                    assertThat(copy.rig().restScales()[3 * j + k]).isEqualTo(model.rig().restScales()[3 * i + k]);
                }
            }
            Clip a = model.clips().getFirst();
            Clip b = copy.clips().getFirst();
            for (double t : new double[] {0, 0.25, 0.5, 1}) {
                float[] ma = Pose.evaluate(model.rig(), a, t).modelMatrices();
                float[] mb = Pose.evaluate(copy.rig(), b, t).modelMatrices();
                // every joint's model matrix: C · the file's
                for (int i = 0; i < model.rig().nodeCount(); i++) {
                    int j = bySource(copy, i);
                    assertMatrix(mb, 16 * j, times(c, ma, 16 * i), 1e-7);
                }
                float[] sa = MeshPoser.skinningMatrices(model.skins().getFirst(), ma);
                float[] sb = MeshPoser.skinningMatrices(copy.skins().getFirst(), mb);
                for (int k = 0; k < sa.length; k += 16) {
                    assertMatrix(sb, k, times(c, sa, k), 1e-7);
                }
                float[] pa = PosedMeshes.all(model, ma).getFirst().posed().getFirst().positions();
                float[] pb = PosedMeshes.all(copy, mb).getFirst().posed().getFirst().positions();
                assertThat(pb).hasSameSizeAs(pa);
                for (int v = 0; v < pa.length; v += 3) {
                    for (int r = 0; r < 3; r++) {
                        double e = c[r] * pa[v] + c[4 + r] * pa[v + 1] + c[8 + r] * pa[v + 2];
                        assertThat((double) pb[v + r]).as("t %s vertex %d", t, v / 3).isCloseTo(e, within(1e-8));
                    }
                }
            }
        }
    }

    @Test
    void fileCoordinatesOrAGltfSpaceAddNoRoot() {
        byte[] kept = AnimatedGltf.of(zUpCentimetres(), AnimatedGltf.Options.DEFAULT.with(Coordinates.FILE)).glb();
        assertThat(nodeNamed(GlbFile.parse(kept).json(), AnimatedGltf.SPACE_ROOT)).isEqualTo(-1);
        assertThat(GlbFile.parse(kept).json().get("asset").get("extras").get("coordinates").asString()).isEqualTo("file");
        Model metres = fbx(FbxTestFiles.skinnedBinaryInSpace(1, 1, 2, 1, 100.0));
        byte[] same = AnimatedGltf.of(metres, AnimatedGltf.Options.DEFAULT).glb();
        assertThat(nodeNamed(GlbFile.parse(same).json(), AnimatedGltf.SPACE_ROOT)).isEqualTo(-1);
        assertThat(nodeNamed(GlbFile.parse(same).json(), AnimatedGltf.EXTRA_ROOT)).isEqualTo(-1);
    }

    /** The copy's rig node that was glTF node {@code i}: the export writes rig node {@code i} as glTF node {@code i}. */
    private static int bySource(Model copy, int i) {
        for (int j = 0; j < copy.rig().nodeCount(); j++) {
            if (copy.rig().sourceIndex(j) == i) {
                return j;
            }
        }
        throw new AssertionError("no node " + i + " in the copy");
    }

    private static int nodeNamed(JsonNode json, String name) {
        for (int i = 0; i < json.get("nodes").size(); i++) {
            if (name.equals(json.get("nodes").get(i).path("name").asString(null))) {
                return i;
            }
        }
        return -1;
    }

    /** {@code c · m[o..o+15]} in double. */
    static double[] times(double[] c, float[] m, int o) {
        double[] out = new double[16];
        for (int col = 0; col < 4; col++) {
            for (int r = 0; r < 4; r++) {
                double sum = 0;
                for (int k = 0; k < 4; k++) {
                    sum += c[4 * k + r] * m[o + 4 * col + k];
                }
                out[4 * col + r] = sum;
            }
        }
        return out;
    }

    static void assertMatrix(float[] actual, int o, double[] expected, double tolerance) {
        for (int i = 0; i < 16; i++) {
            assertThat((double) actual[o + i]).as("element %d", i).isCloseTo(expected[i], within(tolerance));
        }
    }
}
