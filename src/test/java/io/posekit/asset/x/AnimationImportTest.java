package io.posekit.asset.x;

import static io.posekit.asset.x.XTestSupport.HALF;
import static io.posekit.asset.x.XTestSupport.assertInvalid;
import static io.posekit.asset.x.XTestSupport.importBytes;
import static io.posekit.asset.x.XTestSupport.importText;
import static io.posekit.asset.x.XTestSupport.key;
import static io.posekit.asset.x.XTestSupport.node;
import static io.posekit.asset.x.XTestSupport.track;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.posekit.asset.AssetFormat;
import io.posekit.asset.ImportScene;
import io.posekit.asset.Model;
import io.posekit.asset.ModelBuilder;
import io.posekit.clip.Interpolation;
import io.posekit.clip.Track;
import io.posekit.clip.TrackProperty;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/**
 * AnimationSets as clips: every AnimationKey type, ticks to seconds, and the conversion of keys to right-handed
 * space. The numbers were also checked against assimp's import of the same document (the conformance oracle).
 */
class AnimationImportTest {

    private static final Offset<Float> EPS = within(1e-6f);

    private static ImportScene fixture(boolean ticksPerSecond) {
        XWriter w = XWriter.text();
        XTestSupport.twoJoints(w, ticksPerSecond);
        return importBytes(w.file());
    }

    @Test
    void anAnimationSetIsAClipOfLinearTracksNamedAfterIt() {
        ImportScene s = fixture(true);
        assertThat(s.clips()).singleElement().satisfies(c -> {
            assertThat(c.name()).isEqualTo("Walk");
            // Root: rotation, scale, position; Child: a matrix key track decomposed into translation, rotation, scale
            assertThat(c.tracks()).hasSize(6);
            assertThat(c.tracks()).allSatisfy(t -> assertThat(t.interpolation()).isEqualTo(Interpolation.LINEAR));
        });
    }

    /** Key ticks are divided by AnimTicksPerSecond (10 here): ticks 0, 10 and 20 are 0 s, 1 s and 2 s. */
    @Test
    void keyTimesAreTicksOverAnimTicksPerSecond() {
        ImportScene s = fixture(true);
        ImportScene.Clip clip = s.clips().getFirst();
        int root = node(s, "Root");
        assertThat(track(clip, root, TrackProperty.ROTATION).times()).containsExactly(0, 1);
        assertThat(track(clip, root, TrackProperty.TRANSLATION).times()).containsExactly(0, 2);
        assertThat(track(clip, node(s, "Child"), TrackProperty.SCALE).times()).containsExactly(0, 2);
        Model m = ModelBuilder.build(AssetFormat.X, s);
        assertThat(m.clips().getFirst().duration()).isEqualTo(2);
    }

    /**
     * Irrlicht's dwarf.x (and other files of exporters that key by frame number) has no AnimTicksPerSecond: its walk,
     * keyed 0…55, plays at 25 ticks per second as Irrlicht plays it (2.2 s), not at the DirectX SDK's 4800 (11 ms).
     */
    @Test
    void irrlichtDwarfWithoutAnimTicksPerSecondIsKeyedInFramesAt25PerSecond() {
        ImportScene s = fixture(false);
        Track rotation = track(s.clips().getFirst(), node(s, "Root"), TrackProperty.ROTATION);
        assertThat(rotation.times()).containsExactly(0, 10 / 25f);
        assertThat(s.warnings()).containsExactly("the file has no AnimTicksPerSecond; key times are read as frames at 25"
                + " per second (the rate Irrlicht and assimp's consumers play such files at)");
    }

    /**
     * Type 0: (w, x, y, z) = (√½, 0, 0, √½) is the conjugate of the column-vector rotation (D3DX quaternions act on
     * row vectors), so 90° about −z; mirrored in z that stays a rotation about z by −90°: [0, 0, −√½, √½].
     */
    @Test
    void rotationKeysAreConjugatedAndMirrored() {
        ImportScene s = fixture(true);
        Track r = track(s.clips().getFirst(), node(s, "Root"), TrackProperty.ROTATION);
        assertThat(key(r, 0)).containsExactly(new float[] {0, 0, 0, 1}, EPS);
        assertThat(key(r, 1)).containsExactly(new float[] {0, 0, -HALF, HALF}, EPS);
    }

    @Test
    void positionKeysAreMirroredAndScaleKeysKept() {
        ImportScene s = fixture(true);
        ImportScene.Clip clip = s.clips().getFirst();
        Track t = track(clip, node(s, "Root"), TrackProperty.TRANSLATION);
        assertThat(t.values()).containsExactly(1, 2, -3, 4, 5, -6);
        Track scale = track(clip, node(s, "Root"), TrackProperty.SCALE);
        assertThat(scale.values()).containsExactly(1, 1, 1, 2, 2, 2);
    }

    /**
     * Type 4: rows (2,0,0,0) (0,0,2,0) (0,−2,0,0) (7,8,9,1) are scale 2 and D3DX RotationX(+90°) for row vectors,
     * then (7,8,9); mirrored: rotation about x by −90°, translation (7,8,−9).
     */
    @Test
    void matrixKeysAreMirroredAndDecomposed() {
        ImportScene s = fixture(true);
        ImportScene.Clip clip = s.clips().getFirst();
        int child = node(s, "Child");
        assertThat(key(track(clip, child, TrackProperty.TRANSLATION), 0)).containsExactly(new float[] {0, 2, 0}, EPS);
        assertThat(key(track(clip, child, TrackProperty.TRANSLATION), 1)).containsExactly(new float[] {7, 8, -9}, EPS);
        assertThat(key(track(clip, child, TrackProperty.ROTATION), 0)).containsExactly(new float[] {0, 0, 0, 1}, EPS);
        assertThat(key(track(clip, child, TrackProperty.ROTATION), 1)).containsExactly(new float[] {-HALF, 0, 0, HALF}, EPS);
        assertThat(key(track(clip, child, TrackProperty.SCALE), 1)).containsExactly(new float[] {2, 2, 2}, EPS);
    }

    /**
     * Exporters write the rotation key of a frame at rest as the conjugate of D3DX's quaternion of its
     * FrameTransformMatrix (seen in 3ds Max and Maya exports and handled by assimp): for a frame whose matrix is
     * D3DX RotationZ(+90°), the key (√½, 0, 0, −√½) must give exactly the rest rotation.
     */
    @Test
    void aRotationKeyForTheRestPoseGivesTheRestRotation() {
        ImportScene s = importText("""
                AnimTicksPerSecond { 1; }
                Frame F { FrameTransformMatrix { 0.0,1.0,0.0,0.0,-1.0,0.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0;; } }
                AnimationSet { Animation { { F } AnimationKey { 0; 1; 0;4;0.70710678,0.0,0.0,-0.70710678;;; } } }
                """);
        float[] rest = s.nodes().getFirst().rotation();
        assertThat(key(s.clips().getFirst().tracks().getFirst(), 0)).containsExactly(rest, EPS);
    }

    @Test
    void rotationKeysWrittenWithSixDecimalsAreNormalised() {
        ImportScene s = importText("""
                AnimTicksPerSecond { 24; }
                Frame F { }
                AnimationSet { Animation { { F } AnimationKey { 0; 1; 0;4;-0.509518,0.490298,0.509518,0.490298;;; } } }
                """);
        float[] q = key(s.clips().getFirst().tracks().getFirst(), 0);
        double length = Math.sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
        assertThat(length).isCloseTo(1, within(1e-7));
        assertThat(s.warnings()).isEmpty();
    }

    @Test
    void unnamedSetsAreNamedByTheBuilderAndEmptySetsAreSkipped() {
        ImportScene s = importText("""
                AnimTicksPerSecond { 10; }
                Frame F { }
                AnimationSet Empty { }
                AnimationSet { Animation { { F } AnimationKey { 2; 1; 0;3;1.0,2.0,3.0;;; } } }
                AnimationSet Lost { Animation { { Nowhere } AnimationKey { 2; 1; 0;3;1.0,2.0,3.0;;; } } }
                """);
        assertThat(s.clips()).singleElement().satisfies(c -> assertThat(c.name()).isNull());
        assertThat(ModelBuilder.build(AssetFormat.X, s).clips().getFirst().name()).isEqualTo("animation_0");
        assertThat(s.warnings()).containsExactly(
                "AnimationSet 'Empty' has no usable animation keys; it is skipped",
                "Animation #0 of AnimationSet 'Lost' animates 'Nowhere', which is not a Frame; it is skipped",
                "AnimationSet 'Lost' has no usable animation keys; it is skipped");
    }

    @Test
    void anAnimationWithoutReferenceAnimatesTheFrameOfItsName() {
        ImportScene s = importText("""
                AnimTicksPerSecond { 10; }
                Frame Hips { }
                AnimationSet Walk { Animation Hips { AnimationKey { 2; 1; 0;3;1.0,2.0,3.0;;; } } }
                """);
        assertThat(s.clips().getFirst().tracks()).singleElement().satisfies(t -> assertThat(t.node()).isZero());
        assertThat(s.warnings()).containsExactly("Animation 'Hips' of AnimationSet 'Walk' has no frame reference; it"
                + " animates the frame of its own name");
    }

    @Test
    void animationOptionsAndUnknownChildrenAreIgnored() {
        ImportScene s = importText("""
                AnimTicksPerSecond { 10; }
                Frame F { }
                AnimationSet Walk {
                  Animation a { AnimationOptions { 1; 0; } { F } Extra { 3; } AnimationKey k { 2; 2; 0;3;1.0,2.0,3.0;;, 5;3;0.0,0.0,0.0;;; } }
                }
                """);
        assertThat(s.clips().getFirst().tracks().getFirst().times()).containsExactly(0, 0.5f);
    }

    @Test
    void malformedKeysAreRejectedPrecisely() {
        assertInvalid(() -> importText("Frame F { } AnimationSet { Animation { { F } AnimationKey { 5; 1; 0;3;1.0,1.0,1.0;;; } } }"),
                "AnimationKey 0 of Animation #0 of AnimationSet #0: key type 5 (line 2) is not 0 (rotation), 1 (scale),"
                        + " 2 (position) or 4 (matrix)");
        assertInvalid(() -> importText("Frame F { } AnimationSet { Animation { { F } AnimationKey { 0; 1; 0;3;1.0,1.0,1.0;;; } } }"),
                "AnimationKey 0 of Animation #0 of AnimationSet #0: key 0 has 3 values but a rotation key has 4 (line 2)");
        assertInvalid(() -> importText("Frame F { } AnimationSet { Animation { { F }\n"
                + " AnimationKey { 2; 2; 5;3;1.0,1.0,1.0;;, 4;3;1.0,1.0,1.0;;; } } }"),
                "AnimationKey 0 of Animation #0 of AnimationSet #0: key 1 at tick 4 comes before key 0 at tick 5 (line 3)");
        assertInvalid(() -> importText("AnimTicksPerSecond { 0; }"), "AnimTicksPerSecond (line 2) is 0; it must be positive");
    }
}
