package io.posekit.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.posekit.asset.AssetImporters;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.Model;
import io.posekit.asset.ModelSpace;
import io.posekit.asset.ModelSpace.Axis;
import io.posekit.asset.SourceFile;
import io.posekit.export.AnimatedGltf;
import io.posekit.export.Coordinates;
import io.posekit.export.GlbWriter;
import io.posekit.export.PosedMeshes;
import io.posekit.sampling.Pose;
import io.posekit.skinning.PosedPrimitive;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * Units and axes on ufbx's pairs ({@code ../shared/realworld/ufbx}, skipped when absent): Blender 3.4's same scene
 * exported Z-up ({@code blender_340_z_up}) and Y-up ({@code blender_340_y_up}), both in centimetres, and Maya's
 * {@code maya_axes} (Y-up, centimetres). Each file's declared space is what ufbx's own tests expect of it (the root
 * transform of {@code ufbxt_y_up_meters_root_opts}: −90° about X and 0.01 for the Z-up file); the posed vertices
 * converted to glTF's space equal the unconverted ones times the conversion; {@code animated.glb} re-imports as
 * those converted vertices; and the two Blender files, converted each by its own {@code GlobalSettings}, give the
 * same scene in glTF's space — the one of Blender's own OBJ exports, which ufbx's {@code blender_340_z_up_root} and
 * {@code blender_340_y_up_root} compare the converted scenes with (in file space ufbx expects them to differ:
 * {@code DIFF_EXPECT_FAIL}).
 */
class UfbxSpaceConversionTest {

    private static final AssetImporters IMPORTERS = AssetImporters.all(ImportLimits.DEFAULT);

    @Test
    void theZUpAndYUpFilesDeclareTheSpacesUfbxExpects() throws IOException {
        assumeTrue(UfbxCorpus.available(), "../shared/realworld/ufbx is absent");
        Model z = model("blender_340_z_up_7400_binary.fbx");
        Model y = model("blender_340_y_up_7400_binary.fbx");
        // ufbx test_convert.h blender_340_z_up_root: root rotation (−90°, 0, 0), scale 0.01
        assertThat(z.space().right()).isEqualTo(Axis.PLUS_X);
        assertThat(z.space().up()).isEqualTo(Axis.PLUS_Z);
        assertThat(z.space().front()).isEqualTo(Axis.MINUS_Y);
        assertThat(z.space().toGltf()).containsExactly(0.01, 0, 0, 0, 0, 0, -0.01, 0, 0, 0.01, 0, 0, 0, 0, 0, 1);
        // blender_340_y_up_root (to Z-up): (90°, 0, 0), 0.01 — so to glTF's Y-up, the scale alone
        assertThat(y.space()).isEqualTo(new ModelSpace(Axis.PLUS_X, Axis.PLUS_Y, Axis.PLUS_Z, 0.01, 0.01));
        Model maya = model("maya_axes_7700_ascii.fbx");
        assertThat(maya.space()).isEqualTo(new ModelSpace(Axis.PLUS_X, Axis.PLUS_Y, Axis.PLUS_Z, 0.01, 0.01));
    }

    @Test
    void convertedVerticesAreTheFilesTimesTheConversionAndTheTwoExportsAgree() throws IOException {
        assumeTrue(UfbxCorpus.available(), "../shared/realworld/ufbx is absent");
        List<float[]> converted = new ArrayList<>();
        for (String name : List.of("blender_340_z_up_7400_binary.fbx", "blender_340_y_up_7400_binary.fbx",
                "maya_axes_7700_ascii.fbx")) {
            Model model = model(name);
            double[] c = model.space().toGltf();
            float[] matrices = Pose.evaluate(model.rig(), null, 0).modelMatrices();
            float[] file = positions(PosedMeshes.all(model, matrices));
            float[] gltf = positions(PosedMeshes.convert(PosedMeshes.all(model, matrices), model.space(),
                    Coordinates.GLTF));
            assertThat(file.length).isPositive();
            for (int v = 0; v < file.length; v += 3) {
                for (int r = 0; r < 3; r++) {
                    float expected = (float) (c[r] * file[v] + c[4 + r] * file[v + 1] + c[8 + r] * file[v + 2]);
                    assertThat(gltf[v + r]).as("%s vertex %d", name, v / 3).isEqualTo(expected);
                }
            }
            // animated.glb, re-imported: its vertices at rest are the converted ones
            byte[] glb = AnimatedGltf.of(model, AnimatedGltf.Options.DEFAULT).glb();
            Model copy = IMPORTERS.importUpload(List.of(new SourceFile("export.glb", glb))).model();
            float[] back = positions(PosedMeshes.all(copy, Pose.evaluate(copy.rig(), null, 0).modelMatrices()));
            double extent = extent(gltf);
            double worst = nearestDistance(back, gltf);
            System.out.printf(Locale.ROOT, "%s: %s; %d vertices, animated.glb back within %.3g of the extent %.4g m%n",
                    name, model.space().describe(), gltf.length / 3, worst / extent, extent);
            assertThat(worst / extent).as(name).isLessThan(1e-6);
            if (name.startsWith("blender")) {
                converted.add(gltf);
            }
        }
        // the same Blender scene, exported Z-up and Y-up: one scene in glTF's space (order-free, ufbx's 1e-4·extent)
        double extent = extent(converted.get(0));
        assertThat(converted.get(0).length).isEqualTo(converted.get(1).length);
        double worst = Math.max(nearestDistance(converted.get(0), converted.get(1)),
                nearestDistance(converted.get(1), converted.get(0)));
        System.out.printf(Locale.ROOT, "blender_340 Z-up vs Y-up in glTF space: %.3g of the extent%n", worst / extent);
        assertThat(worst / extent).isLessThan(1e-4);
    }

    /**
     * ufbx's own check of the conversion: {@code blender_340_z_up} loaded with {@code target_axes} Y-up and metres is
     * compared with {@code blender_340_z_up.obj}, and {@code blender_340_y_up} loaded Z-up, metres with
     * {@code blender_340_y_up.obj} ({@code UFBXT_FILE_TEST_FLAG_DIFF_ALWAYS}). posekit's glTF space is the former;
     * the latter is glTF's turned +90° about X ({@code (x, y, z) → (x, −z, y)}). Every OBJ position within ufbx's
     * 0.001 of a converted posed vertex, order-free.
     */
    @Test
    void theConvertedScenesAreBlendersOwnObjExports() throws IOException {
        assumeTrue(UfbxCorpus.available(), "../shared/realworld/ufbx is absent");
        for (String name : List.of("blender_340_z_up", "blender_340_y_up")) {
            Model model = model(name + "_7400_binary.fbx");
            float[] gltf = positions(PosedMeshes.convert(PosedMeshes.all(model,
                    Pose.evaluate(model.rig(), null, 0).modelMatrices()), model.space(), Coordinates.GLTF));
            if (name.endsWith("y_up")) {
                for (int v = 0; v < gltf.length; v += 3) {
                    float y = gltf[v + 1];
                    gltf[v + 1] = -gltf[v + 2];
                    gltf[v + 2] = y;
                }
            }
            ObjMeshes obj = ObjMeshes.read(UfbxCorpus.root().resolve("data").resolve(name + ".obj"));
            double worst = 0;
            int count = 0;
            for (ObjMeshes.Mesh mesh : obj.meshes()) {
                float[] points = new float[mesh.positions().length];
                for (int i = 0; i < points.length; i++) {
                    points[i] = (float) mesh.positions()[i];
                }
                count += points.length / 3;
                worst = Math.max(worst, nearestCoordinate(points, gltf));
            }
            System.out.printf(Locale.ROOT, "%s: %d OBJ positions, the farthest %.3g from a converted vertex (ufbx: %.3g)%n",
                    name, count, worst, obj.tolerance());
            assertThat(count).isPositive();
            assertThat(worst).as(name).isLessThanOrEqualTo(obj.tolerance());
        }
    }

    /** The largest, over the points of {@code a}, of the per-coordinate distance to the nearest point of {@code b}. */
    private static double nearestCoordinate(float[] a, float[] b) {
        double worst = 0;
        for (int i = 0; i < a.length; i += 3) {
            double best = Double.MAX_VALUE;
            for (int j = 0; j < b.length; j += 3) {
                double d = Math.max(Math.abs(a[i] - b[j]), Math.max(Math.abs(a[i + 1] - b[j + 1]),
                        Math.abs(a[i + 2] - b[j + 2])));
                best = Math.min(best, d);
            }
            worst = Math.max(worst, best);
        }
        return worst;
    }

    private static Model model(String name) throws IOException {
        Path fbx = UfbxCorpus.root().resolve("data").resolve(name);
        return IMPORTERS.importUpload(List.of(new SourceFile(name, Files.readAllBytes(fbx)))).model();
    }

    private static float[] positions(List<GlbWriter.PosedMesh> meshes) {
        List<float[]> all = new ArrayList<>();
        int n = 0;
        for (GlbWriter.PosedMesh m : meshes) {
            for (PosedPrimitive p : m.posed()) {
                all.add(p.positions());
                n += p.positions().length;
            }
        }
        float[] out = new float[n];
        int o = 0;
        for (float[] a : all) {
            System.arraycopy(a, 0, out, o, a.length);
            o += a.length;
        }
        return out;
    }

    /** The largest distance from a point of {@code a} to its nearest point of {@code b}. */
    private static double nearestDistance(float[] a, float[] b) {
        double worst = 0;
        for (int i = 0; i < a.length; i += 3) {
            double best = Double.MAX_VALUE;
            for (int j = 0; j < b.length; j += 3) {
                double dx = a[i] - b[j];
                double dy = a[i + 1] - b[j + 1];
                double dz = a[i + 2] - b[j + 2];
                best = Math.min(best, dx * dx + dy * dy + dz * dz);
            }
            worst = Math.max(worst, Math.sqrt(best));
        }
        return worst;
    }

    private static double extent(float[] xyz) {
        double[] min = {Double.MAX_VALUE, Double.MAX_VALUE, Double.MAX_VALUE};
        double[] max = {-Double.MAX_VALUE, -Double.MAX_VALUE, -Double.MAX_VALUE};
        for (int i = 0; i < xyz.length; i++) {
            min[i % 3] = Math.min(min[i % 3], xyz[i]);
            max[i % 3] = Math.max(max[i % 3], xyz[i]);
        }
        return Math.sqrt(Math.pow(max[0] - min[0], 2) + Math.pow(max[1] - min[1], 2) + Math.pow(max[2] - min[2], 2));
    }
}
