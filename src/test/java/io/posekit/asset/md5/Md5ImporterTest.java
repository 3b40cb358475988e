package io.posekit.asset.md5;

import static io.posekit.asset.md5.Md5Fixtures.ANIM;
import static io.posekit.asset.md5.Md5Fixtures.MESH;
import static io.posekit.asset.md5.Md5Fixtures.file;
import static io.posekit.asset.md5.Md5Fixtures.importFiles;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import io.posekit.asset.AssetImporters;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.ImportScene;
import io.posekit.asset.Model;
import io.posekit.asset.SourceFile;
import io.posekit.clip.Interpolation;
import io.posekit.clip.Track;
import io.posekit.clip.TrackProperty;
import io.posekit.math.Matrices;
import io.posekit.skinning.Primitive;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;

/** Known answers of the MD5 importer on md5mesh/md5anim text written in the test (see {@link Md5Fixtures}). */
class Md5ImporterTest {

    private static final float H = (float) Math.sqrt(0.5);

    private static Track track(ImportScene.Clip clip, int node, TrackProperty property) {
        return clip.tracks().stream().filter(t -> t.node() == node && t.property() == property).findFirst().orElseThrow();
    }

    @Test
    void orientationWIsTheNegativeRoot() {
        assertThat(Md5Math.orientation(0, 0, -Math.sqrt(0.5))).containsExactly(
                new double[] {0, 0, -Math.sqrt(0.5), -Math.sqrt(0.5)}, offset(1e-12));
        assertThat(Md5Math.orientation(0, 0, 0)).containsExactly(0, 0, 0, -1);
        // x² + y² + z² > 1 (rounding in the file): w = 0, then normalised
        assertThat(Md5Math.orientation(0, 0.6, 0.8000001)).containsExactly(new double[] {0, 0.6, 0.8, 0}, offset(1e-6));
        // the negative w makes (0, 0, −√½) a +90° turn about z: x → y
        assertThat(Md5Math.rotate(Md5Math.orientation(0, 0, -Math.sqrt(0.5)), 1, 0, 0))
                .containsExactly(new double[] {0, 1, 0}, offset(1e-9));
    }

    @Test
    void jointsBecomeNodesUnderAZUpToYUpRoot() {
        ImportScene scene = importFiles(file("guy.md5mesh", MESH));
        assertThat(scene.nodes()).extracting(ImportScene.Node::name).containsExactly("guy", "root", "arm");
        assertThat(scene.nodes()).extracting(ImportScene.Node::parent).containsExactly(-1, 0, 1);
        assertThat(scene.nodes()).extracting(ImportScene.Node::sourceIndex).containsExactly(-1, 0, 1);
        // Rx(−90°): MD5's +Z becomes +Y
        assertThat(scene.nodes().get(0).rotation()).containsExactly(-H, 0, 0, H);
        ImportScene.Node arm = scene.nodes().get(2);
        assertThat(arm.translation()).containsExactly(1, 0, 0);
        // relative to root (the identity stored as w = −1): r = (0,0,0,−1)⁻¹ · −(0,0,√½,√½) = (0,0,√½,√½)
        assertThat(arm.rotation()).containsExactly(new float[] {0, 0, H, H}, offset(1e-7f));
        assertThat(scene.warnings()).isEmpty();
    }

    @Test
    void modelSpaceJointsBecomeLocalToTheirParent() {
        String mesh = """
                MD5Version 10
                numJoints 2
                numMeshes 0
                joints {
                    "a" -1 ( 1 2 3 ) ( 0 0 -%s )
                    "b" 0 ( 1 3 3 ) ( 0 0 0 )
                }
                """.formatted(Md5Fixtures.S);
        ImportScene scene = importFiles(file("chain.md5mesh", mesh));
        ImportScene.Node b = scene.nodes().get(2);
        // t = Rz(90°)⁻¹ · ((1,3,3) − (1,2,3)) = Rz(−90°)·(0,1,0) = (1,0,0); r = Rz(−90°)
        assertThat(b.translation()).containsExactly(new float[] {1, 0, 0}, offset(1e-7f));
        assertThat(b.rotation()).containsExactly(new float[] {0, 0, -H, H}, offset(1e-7f));
        // inverse binds: inverse of T(p)·R(q) in MD5 model space
        float[] ibm = scene.skins().getFirst().inverseBindMatrices();
        float[] expectedB = new float[16];
        Matrices.identity(expectedB, 0);
        expectedB[12] = -1;
        expectedB[13] = -3;
        expectedB[14] = -3;
        assertThat(java.util.Arrays.copyOfRange(ibm, 16, 32)).containsExactly(expectedB, offset(1e-7f));
        // joint a: Rz(−90°) · T(−1,−2,−3) → translation Rz(−90°)·(−1,−2,−3) = (−2, 1, −3)
        assertThat(java.util.Arrays.copyOfRange(ibm, 12, 15)).containsExactly(new float[] {-2, 1, -3}, offset(1e-6f));
    }

    @Test
    void bindPoseVertexIsTheBiasWeightedSumOverItsJoints() {
        ImportScene scene = importFiles(file("guy.md5mesh", MESH));
        assertThat(scene.meshes()).hasSize(1);
        ImportScene.MeshInstance mesh = scene.meshes().getFirst();
        assertThat(mesh.name()).isEqualTo("models/skin");
        assertThat(mesh.node()).isZero();
        assertThat(mesh.skin()).isZero();
        Primitive p = mesh.primitives().getFirst();
        // vertex 0: 0.25·(0,2,0) + 0.75·(1 + Rz(90°)·(1,0,0)) = (0.75, 1.25, 0); vertex 1: root·(4,0,0);
        // vertex 2: arm·(0,0,5) = (1,0,5)
        assertThat(p.positions()).containsExactly(new float[] {0.75f, 1.25f, 0, 4, 0, 0, 1, 0, 5}, offset(1e-6f));
        assertThat(p.influencesPerVertex()).isEqualTo(4);
        assertThat(p.joints()).containsExactly(0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0);
        assertThat(p.weights()).containsExactly(0.25f, 0.75f, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0);
        // clockwise MD5 triangles become counter-clockwise
        assertThat(p.indices()).containsExactly(0, 2, 1);
        assertThat(p.normals()).isNull();
        assertThat(p.attributes()).containsExactly("POSITION", "TEXCOORD_0", "JOINTS_0", "WEIGHTS_0");
        assertThat(p.texcoords()).containsExactly(0, 0, 1, 0, 0, 1); // ( u v ) as stored: top-left origin, as glTF
        assertThat(scene.skins().getFirst().joints()).containsExactly(1, 2);
    }

    @Test
    void everyWeightIsAnInfluence() {
        StringBuilder weights = new StringBuilder();
        for (int w = 0; w < 5; w++) {
            weights.append("weight ").append(w).append(' ').append(w % 2).append(" 0.2 ( 1 0 0 )\n");
        }
        String mesh = """
                MD5Version 10
                numJoints 2
                numMeshes 1
                joints { "a" -1 ( 0 0 0 ) ( 0 0 0 ) "b" 0 ( 0 0 0 ) ( 0 0 0 ) }
                mesh { numverts 1 vert 0 ( 0 0 ) 0 5 numtris 0 numweights 5
                %s}
                """.formatted(weights);
        Primitive p = importFiles(file("five.md5mesh", mesh)).meshes().getFirst().primitives().getFirst();
        assertThat(p.influencesPerVertex()).isEqualTo(8);
        assertThat(p.joints()).containsExactly(0, 1, 0, 1, 0, 0, 0, 0);
        assertThat(p.weights()).containsExactly(0.2f, 0.2f, 0.2f, 0.2f, 0.2f, 0, 0, 0);
        assertThat(p.positions()).containsExactly(new float[] {1, 0, 0}, offset(1e-6f));
    }

    @Test
    void anAnimsFlagsSelectWhichComponentsEachFrameReplaces() {
        ImportScene scene = importFiles(file("guy.md5mesh", MESH), file("walk.md5anim", ANIM));
        assertThat(scene.clips()).hasSize(1);
        ImportScene.Clip clip = scene.clips().getFirst();
        assertThat(clip.name()).isEqualTo("walk");
        Track t = track(clip, 2, TrackProperty.TRANSLATION);
        assertThat(t.interpolation()).isEqualTo(Interpolation.LINEAR);
        // Tx and Tz from the frames, Ty from the baseframe (0.5)
        assertThat(t.values()).containsExactly(1, 0.5f, 0, 2, 0.5f, 0.5f, 3, 0.5f, 1);
        assertThat(t.times()).containsExactly(0f, 1 / 24f, 2 / 24f);
        Track r = track(clip, 2, TrackProperty.ROTATION);
        // Qz from the frames, Qx = 0.1 from the baseframe, w derived (negative root; 0 when x² + z² > 1)
        double n2 = Math.sqrt(1.01);
        assertThat(r.values()).containsExactly(new float[] {
            0.1f, 0, -H, -0.7f,
            0.1f, 0, 0, (float) -Math.sqrt(0.99),
            (float) (0.1 / n2), 0, (float) (-1 / n2), 0}, offset(1e-6f));
        // root: flags 0, constant single keys from the baseframe
        assertThat(track(clip, 1, TrackProperty.TRANSLATION).values()).containsExactly(0, 0, 0);
        assertThat(track(clip, 1, TrackProperty.ROTATION).values()).containsExactly(0, 0, 0, -1);
        assertThat(track(clip, 1, TrackProperty.ROTATION).times()).containsExactly(0f);
        assertThat(clip.tracks()).noneMatch(x -> x.property() == TrackProperty.SCALE);
        assertThat(clip.duration()).isEqualTo(2 / 24.0);
    }

    @Test
    void clipsAreNamedAfterTheirFilesInUploadOrder() {
        ImportScene scene = importFiles(file("guy.md5mesh", MESH), file("a/walk.md5anim", ANIM), file("run.MD5ANIM", ANIM),
                file("b/walk.md5anim", ANIM), file("notes.txt", "x"));
        assertThat(scene.clips()).extracting(ImportScene.Clip::name).containsExactly("walk", "run", "walk_2");
        assertThat(scene.warnings()).containsExactly(
                "b/walk.md5anim: another animation is already called 'walk'; this one is 'walk_2'");
    }

    @Test
    void jointsTheModelLacksAreSkippedWithAWarning() {
        String anim = ANIM.replace("\"arm\"", "\"leg\"");
        ImportScene scene = importFiles(file("guy.md5mesh", MESH), file("walk.md5anim", anim));
        assertThat(scene.clips().getFirst().tracks()).extracting(Track::node).containsOnly(1);
        assertThat(scene.warnings()).containsExactly("walk.md5anim: joint 'leg' is not in the model; its channels are ignored");
    }

    @Test
    void anAnimAloneIsARigAtItsBaseframe() {
        ImportScene scene = importFiles(file("walk.md5anim", ANIM));
        assertThat(scene.nodes()).extracting(ImportScene.Node::name).containsExactly("walk", "root", "arm");
        assertThat(scene.nodes().get(2).translation()).containsExactly(1, 0.5f, 0);
        assertThat(scene.nodes().get(2).rotation()).containsExactly(new float[] {0.1f, 0, -H, -0.7f}, offset(1e-6f));
        assertThat(scene.meshes()).isEmpty();
        assertThat(scene.skins()).isEmpty();
        assertThat(scene.clips()).extracting(ImportScene.Clip::name).containsExactly("walk");
        assertThat(scene.warnings()).containsExactly("walk.md5anim was uploaded without its .md5mesh: the rig is its"
                + " hierarchy at the baseframe, without meshes or skins");
    }

    @Test
    void aZipOfMeshAndAnimsImportsThroughAssetImporters() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
            for (String[] entry : new String[][] {{"guy/walk.md5anim", ANIM}, {"guy/guy.md5mesh", MESH},
                {"guy/idle.md5anim", ANIM}}) {
                zip.putNextEntry(new ZipEntry(entry[0]));
                zip.write(entry[1].getBytes(StandardCharsets.UTF_8));
                zip.closeEntry();
            }
        }
        AssetImporters importers = new AssetImporters(List.of(new Md5Importer()), ImportLimits.DEFAULT);
        AssetImporters.Imported imported = importers.importUpload(List.of(new SourceFile("guy.zip", bytes.toByteArray())));
        Model model = imported.model();
        assertThat(imported.main().name()).isEqualTo("guy/guy.md5mesh");
        assertThat(model.clips()).extracting(io.posekit.clip.Clip::name).containsExactly("walk", "idle");
        assertThat(model.clips().getFirst().duration()).isEqualTo(2 / 24.0);
        assertThat(model.rig().nodeCount()).isEqualTo(3);
    }
}
