package io.posekit.asset.iqm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.posekit.asset.AssetFormat;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.ImportScene;
import io.posekit.asset.Model;
import io.posekit.asset.ModelBuilder;
import io.posekit.asset.SourceFile;
import io.posekit.asset.SourceFiles;
import io.posekit.clip.Interpolation;
import io.posekit.clip.Track;
import io.posekit.clip.TrackProperty;
import io.posekit.math.Matrices;
import io.posekit.skinning.Primitive;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Known answers of the IQM importer on files written byte by byte (see {@link IqmBuilder}). */
class IqmImporterTest {

    private static final float HALF_SQRT2 = (float) Math.sqrt(0.5);

    static ImportScene importIqm(byte[] bytes) {
        SourceFile main = new SourceFile("rig.iqm", bytes);
        return new IqmImporter().read(main, new SourceFiles(List.of(main)), ImportLimits.DEFAULT);
    }

    private static Track track(ImportScene.Clip clip, int node, TrackProperty property) {
        return clip.tracks().stream().filter(t -> t.node() == node && t.property() == property).findFirst().orElseThrow();
    }

    @Test
    void jointsBecomeNodesUnderARootNamedAfterTheFile() {
        ImportScene scene = importIqm(IqmBuilder.twoJointTriangle().build());
        assertThat(scene.nodes()).extracting(ImportScene.Node::name).containsExactly("rig", "hip", "knee");
        assertThat(scene.nodes()).extracting(ImportScene.Node::parent).containsExactly(-1, 0, 1);
        assertThat(scene.nodes()).extracting(ImportScene.Node::sourceIndex).containsExactly(-1, 0, 1);
        ImportScene.Node root = scene.nodes().getFirst();
        assertThat(root.translation()).containsExactly(0, 0, 0);
        assertThat(root.rotation()).containsExactly(0, 0, 0, 1);
        assertThat(scene.nodes().get(2).translation()).containsExactly(0, 0, 2);
        assertThat(scene.skins()).hasSize(1);
        assertThat(scene.skins().getFirst().joints()).containsExactly(1, 2);
        assertThat(scene.warnings()).isEmpty();
    }

    @Test
    void inverseBindsInvertTheBaseFrameWithRotationAndScale() {
        byte[] iqm = new IqmBuilder()
                .joint("a", -1, new float[] {1, 2, 3}, new float[] {0, 0, HALF_SQRT2, HALF_SQRT2}, new float[] {2, 2, 2})
                .joint("b", 0, new float[] {0, 1, 0}, new float[] {HALF_SQRT2, 0, 0, HALF_SQRT2}, new float[] {1, 1, 0.5f})
                .build();
        ImportScene scene = importIqm(iqm);
        float[] ibm = scene.skins().getFirst().inverseBindMatrices();
        // world(b) = T(1,2,3)·Rz(90°)·S(2) · T(0,1,0)·Rx(90°)·S(1,1,.5); world(b)·ibm(b) = I
        double[] a = new double[16];
        double[] b = new double[16];
        Matrices.composeTrs(new float[] {1, 2, 3}, 0, new float[] {0, 0, HALF_SQRT2, HALF_SQRT2}, 0, new float[] {2, 2, 2}, 0, a, 0);
        Matrices.composeTrs(new float[] {0, 1, 0}, 0, new float[] {HALF_SQRT2, 0, 0, HALF_SQRT2}, 0, new float[] {1, 1, 0.5f}, 0, b, 0);
        double[] world = new double[16];
        Matrices.multiply(a, 0, b, 0, world, 0);
        float[] worldF = new float[16];
        for (int i = 0; i < 16; i++) {
            worldF[i] = (float) world[i];
        }
        float[] product = new float[16];
        Matrices.multiply(worldF, 0, ibm, 16, product, 0);
        float[] identity = new float[16];
        Matrices.identity(identity, 0);
        assertThat(product).containsExactly(identity, offset(1e-6f));
        // joint a's inverse translation: S(½)·Rz(−90°)·(−1, −2, −3) = (−1, 0.5, −1.5)
        assertThat(ibm[12]).isCloseTo(-1f, offset(1e-6f));
        assertThat(ibm[13]).isCloseTo(0.5f, offset(1e-6f));
        assertThat(ibm[14]).isCloseTo(-1.5f, offset(1e-6f));
    }

    @Test
    void restRotationsAreNormalised() {
        ImportScene scene = importIqm(new IqmBuilder()
                .joint("a", -1, new float[] {0, 0, 0}, new float[] {0, 0, 2, 0}, new float[] {1, 1, 1}).build());
        assertThat(scene.nodes().get(1).rotation()).containsExactly(0, 0, 1, 0);
    }

    @Test
    void posesAndFramesDecodeMaskedChannelsWithOffsetsAndScales() {
        ImportScene scene = importIqm(IqmBuilder.twoJointTriangle().build());
        assertThat(scene.clips()).hasSize(1);
        ImportScene.Clip clip = scene.clips().getFirst();
        assertThat(clip.name()).isEqualTo("bend");
        Track hipT = track(clip, 1, TrackProperty.TRANSLATION);
        assertThat(hipT.interpolation()).isEqualTo(Interpolation.LINEAR);
        // tz = offset 1 + ushort × scale 0.5 for ushorts 0, 2, 4
        assertThat(hipT.values()).containsExactly(0, 0, 1, 0, 0, 2, 0, 0, 3);
        // channels without a mask bit are the offset, constant: one key
        assertThat(track(clip, 1, TrackProperty.ROTATION).values()).containsExactly(0, 0, 0, 1);
        assertThat(track(clip, 1, TrackProperty.ROTATION).times()).containsExactly(0f);
        assertThat(track(clip, 1, TrackProperty.SCALE).values()).containsExactly(1, 1, 1);
        assertThat(track(clip, 2, TrackProperty.TRANSLATION).values()).containsExactly(0, 0, 2);
        Track kneeR = track(clip, 2, TrackProperty.ROTATION);
        // qz, qw = ushort / 65535: (0, 1), (46341, 46341) → 90° about z after normalising, (65535, 0) → 180°
        assertThat(kneeR.values()).containsExactly(new float[] {0, 0, 0, 1, 0, 0, HALF_SQRT2, HALF_SQRT2, 0, 0, 1, 0},
                offset(1e-7f));
    }

    @Test
    void framesAreKeyedAtFrameOverFramerateAndTheClipLastsUntilTheLastFrame() {
        ImportScene.Clip clip = importIqm(IqmBuilder.twoJointTriangle().build()).clips().getFirst();
        assertThat(track(clip, 1, TrackProperty.TRANSLATION).times()).containsExactly(0f, 0.1f, 0.2f);
        assertThat(clip.duration()).isEqualTo(0.2);
        Model model = ModelBuilder.build(AssetFormat.IQM, importIqm(IqmBuilder.twoJointTriangle().build()));
        assertThat(model.clips().getFirst().duration()).isEqualTo(0.2);
    }

    @Test
    void animsUseTheirOwnFrameRange() {
        byte[] iqm = IqmBuilder.twoJointTriangle().anim("tail", 1, 2, 4, 0).build();
        ImportScene.Clip tail = importIqm(iqm).clips().get(1);
        assertThat(tail.name()).isEqualTo("tail");
        assertThat(track(tail, 1, TrackProperty.TRANSLATION).values()).containsExactly(0, 0, 2, 0, 0, 3);
        assertThat(track(tail, 1, TrackProperty.TRANSLATION).times()).containsExactly(0f, 0.25f);
        assertThat(tail.duration()).isEqualTo(0.25);
    }

    @Test
    void rotationKeysAreHemisphereContinuous() {
        float[] offsets = {0, 0, 0, 0, 0, -1, -1, 1, 1, 1};
        float[] scales = {0, 0, 0, 0, 0, 0.01f, 0.01f, 0, 0, 0};
        byte[] iqm = new IqmBuilder()
                .joint("a", -1, new float[] {0, 0, 0}, new float[] {0, 0, 0, 1}, new float[] {1, 1, 1})
                .pose(-1, (1 << 5) | (1 << 6), offsets, scales)
                .anim("spin", 0, 2, 30, 0).frameChannels(2)
                .frames(100, 200, 110, 0) // (0, 0, 0, 1) then (0, 0, 0.1, −1)
                .build();
        Track r = track(importIqm(iqm).clips().getFirst(), 1, TrackProperty.ROTATION);
        double len = Math.sqrt(0.01 + 1);
        assertThat(r.values()).containsExactly(new float[] {0, 0, 0, 1, 0, 0, (float) (-0.1 / len), (float) (1 / len)},
                offset(1e-6f));
    }

    @Test
    void meshesKeepTheirVertexRangeInFileOrderAndReverseWinding() {
        byte[] iqm = new IqmBuilder()
                .vertexes(6)
                .floats(VertexArray.POSITION, 3, 0, 0, 0, 1, 0, 0, 0, 1, 0, 5, 5, 5, 6, 5, 5, 5, 6, 5)
                .triangle(0, 1, 2).triangle(3, 4, 5)
                .mesh("first", "", 0, 3, 0, 1)
                .mesh("second", "", 3, 3, 1, 1)
                .build();
        ImportScene scene = importIqm(iqm);
        assertThat(scene.meshes()).extracting(ImportScene.MeshInstance::name).containsExactly("first", "second");
        assertThat(scene.meshes()).extracting(ImportScene.MeshInstance::sourceMesh).containsExactly(0, 1);
        assertThat(scene.meshes()).extracting(ImportScene.MeshInstance::skin).containsExactly(-1, -1);
        Primitive second = scene.meshes().get(1).primitives().getFirst();
        assertThat(second.positions()).containsExactly(5, 5, 5, 6, 5, 5, 5, 6, 5);
        assertThat(second.indices()).containsExactly(0, 2, 1);
        assertThat(scene.skins()).isEmpty();
        assertThat(scene.nodes()).hasSize(1);
    }

    @Test
    void aMeshWithoutVertexesNeedsNoArrays() {
        ImportScene scene = importIqm(new IqmBuilder().mesh("empty", "", 0, 0, 0, 0).build());
        Primitive p = scene.meshes().getFirst().primitives().getFirst();
        assertThat(p.vertexCount()).isZero();
        assertThat(p.indexCount()).isZero();
        assertThat(scene.meshes().getFirst().name()).isEqualTo("empty");
    }

    @Test
    void blendWeightsAreUbyteOver255NotRenormalised() {
        Primitive p = importIqm(IqmBuilder.twoJointTriangle().build()).meshes().getFirst().primitives().getFirst();
        assertThat(p.influencesPerVertex()).isEqualTo(4);
        assertThat(p.joints()).containsExactly(0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0);
        assertThat(p.weights()).containsExactly(1, 0, 0, 0, 128 / 255f, 127 / 255f, 0, 0, 1, 0, 0, 0);
        assertThat(p.normals()).containsExactly(0, 1, 0, 0, 1, 0, 0, 1, 0);
        assertThat(p.attributes()).containsExactly("POSITION", "NORMAL", "JOINTS_0", "WEIGHTS_0");
        assertThat(p.indices()).containsExactly(0, 2, 1);
    }

    @Test
    void vertexArraysOfOtherFormatsAreDecoded() {
        ByteBuffer half = IqmBuilder.le(12);
        for (float v : new float[] {0.5f, -2, 1024, 0.25f, 0, -0.125f}) {
            half.putShort(Float.floatToFloat16(v));
        }
        ByteBuffer shorts = IqmBuilder.le(12);
        shorts.putShort((short) -3).putShort((short) 4).putShort((short) 5);
        shorts.putShort((short) 1).putShort((short) 0).putShort((short) -1);
        ByteBuffer indexes = IqmBuilder.le(8);
        indexes.putShort((short) 1).putShort((short) 0).putShort((short) 0).putShort((short) 1);
        ByteBuffer weights = IqmBuilder.le(8);
        weights.putShort((short) 65535).putShort((short) 0).putShort((short) 16384).putShort((short) 49151);
        byte[] iqm = new IqmBuilder()
                .joint("a", -1, new float[] {0, 0, 0}, new float[] {0, 0, 0, 1}, new float[] {1, 1, 1})
                .joint("b", 0, new float[] {0, 0, 0}, new float[] {0, 0, 0, 1}, new float[] {1, 1, 1})
                .vertexes(2)
                .array(VertexArray.POSITION, IqmBuilder.HALF, 3, half.array())
                .array(VertexArray.NORMAL, IqmBuilder.BYTE, 3, new byte[] {0, 0, 127, -128, 0, 0})
                .array(VertexArray.TANGENT, IqmBuilder.SHORT, 3, shorts.array())
                .array(VertexArray.BLENDINDEXES, IqmBuilder.USHORT, 2, indexes.array())
                .array(VertexArray.BLENDWEIGHTS, IqmBuilder.USHORT, 2, weights.array())
                .mesh("m", "", 0, 2, 0, 0)
                .build();
        Primitive p = importIqm(iqm).meshes().getFirst().primitives().getFirst();
        assertThat(p.positions()).containsExactly(0.5f, -2, 1024, 0.25f, 0, -0.125f);
        assertThat(p.normals()).containsExactly(0, 0, 127, -128, 0, 0);
        assertThat(p.tangents()).containsExactly(-3, 4, 5, 1, 1, 0, -1, 1);
        assertThat(p.influencesPerVertex()).isEqualTo(4);
        assertThat(p.joints()).containsExactly(1, 0, 0, 0, 0, 1, 0, 0);
        assertThat(p.weights()).containsExactly(new float[] {1, 0, 0, 0, 16384 / 65535f, 49151 / 65535f, 0, 0},
                offset(1e-7f));
    }

    @Test
    void doublePositionsFloatWeightsAndFiveInfluencesMakeTwoSets() {
        ByteBuffer doubles = IqmBuilder.le(24);
        doubles.putDouble(1.5).putDouble(-2.25).putDouble(3);
        ByteBuffer indexes = IqmBuilder.le(20);
        ByteBuffer weights = IqmBuilder.le(20);
        for (int i = 0; i < 5; i++) {
            indexes.putInt(4 - i);
            weights.putFloat(0.2f);
        }
        IqmBuilder b = new IqmBuilder();
        for (int j = 0; j < 5; j++) {
            b.joint("j" + j, j - 1, new float[] {0, 0, 0}, new float[] {0, 0, 0, 1}, new float[] {1, 1, 1});
        }
        byte[] iqm = b.vertexes(1)
                .array(VertexArray.POSITION, IqmBuilder.DOUBLE, 3, doubles.array())
                .array(VertexArray.BLENDINDEXES, IqmBuilder.INT, 5, indexes.array())
                .array(VertexArray.BLENDWEIGHTS, IqmBuilder.FLOAT, 5, weights.array())
                .mesh("m", "", 0, 1, 0, 0)
                .build();
        Primitive p = importIqm(iqm).meshes().getFirst().primitives().getFirst();
        assertThat(p.positions()).containsExactly(1.5f, -2.25f, 3);
        assertThat(p.influencesPerVertex()).isEqualTo(8);
        assertThat(p.joints()).containsExactly(4, 3, 2, 1, 0, 0, 0, 0);
        assertThat(p.weights()).containsExactly(0.2f, 0.2f, 0.2f, 0.2f, 0.2f, 0, 0, 0);
        assertThat(p.attributes()).containsExactly("POSITION", "JOINTS_0", "WEIGHTS_0", "JOINTS_1", "WEIGHTS_1");
    }

    @Test
    void theConformanceModelHasItsJointsMeshesAndClip() throws IOException {
        Path path = Path.of(System.getProperty("posekit.conformance.dir", "../shared/conformance"))
                .resolve("assets/iqm/mrfixit/mrfixit.iqm");
        assumeTrue(Files.isRegularFile(path), "mrfixit.iqm is not available");
        ImportScene scene = importIqm(Files.readAllBytes(path));
        assertThat(scene.nodes()).hasSize(76);
        assertThat(scene.nodes().get(1).name()).isEqualTo("Root");
        assertThat(scene.nodes().get(75).name()).isEqualTo("ElbowRot.R");
        assertThat(scene.nodes().get(75).parent()).isEqualTo(0);
        assertThat(scene.meshes()).extracting(ImportScene.MeshInstance::name).containsExactly("Body", "Head");
        assertThat(scene.meshes().get(0).primitives().getFirst().vertexCount()).isEqualTo(1476);
        assertThat(scene.meshes().get(0).primitives().getFirst().indexCount()).isEqualTo(3 * 2386);
        assertThat(scene.meshes().get(1).primitives().getFirst().vertexCount()).isEqualTo(385);
        assertThat(scene.clips()).extracting(ImportScene.Clip::name).containsExactly("idle");
        assertThat(scene.clips().getFirst().duration()).isEqualTo(100 / 24.0);
        // the materials name the images of the model, which the conformance asset does not hold
        assertThat(scene.warnings()).containsExactly(
                "mesh 0 material 'Body.jpg' names an image that is not among the uploaded files; the surface is white",
                "mesh 1 material 'Head.jpg' names an image that is not among the uploaded files; the surface is white");
    }
}
