package io.posekit.asset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.posekit.clip.Clip;
import io.posekit.clip.Interpolation;
import io.posekit.clip.Track;
import io.posekit.clip.TrackProperty;
import io.posekit.retarget.VrmAvatars;
import io.posekit.rig.Rig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Clip binding of a VRM animation onto VRM avatars ({@link ClipBinding} with humanoid maps on both sides), on files
 * generated in code ({@link VrmAvatars}): the avatars' joints are {@code bone_00}…, the animation's {@code J_Bip_00}…,
 * so no joint binds by name; both have a non-humanoid {@code Hair} node, which does. The animation is
 * {@link VrmAvatars#turnAndWalk()} (hips, spine, left arm) plus a hair sway.
 */
class VrmClipBindingTest {

    private static final float[] HAIR_KEYS = {0, 0, 0, 1, 0.1f, 0.2f, 0.3f, (float) Math.sqrt(1 - 0.14)};

    /** Rig index of the hair node in the generated files' clip tracks. */
    private static final int HAIR = 21;

    private static Clip walkWithHair() {
        Clip walk = VrmAvatars.turnAndWalk();
        List<Track> tracks = new ArrayList<>(walk.tracks());
        tracks.add(new Track(HAIR, TrackProperty.ROTATION, Interpolation.LINEAR, 4, new float[] {0, 1}, HAIR_KEYS));
        return Clip.of(walk.name(), tracks);
    }

    private static Model load(String name, byte[] glb) {
        return AssetImporters.all(ImportLimits.DEFAULT).importUpload(List.of(new SourceFile(name, glb))).model();
    }

    private static Model avatar(VrmAvatars.Kind kind) {
        return load("avatar.vrm", VrmAvatars.glb(kind, null, VrmAvatars::nodeName, Map.of(), true));
    }

    private static Model animation(Map<Integer, float[]> restRotations) {
        return load("walk.vrma", VrmAvatars.glb(VrmAvatars.Kind.VRMA, walkWithHair(),
                i -> String.format("J_Bip_%02d", i), restRotations, true));
    }

    /** The bound clip's track of {@code property} on the target node named {@code node}. */
    private static Track track(ClipBinding.Bound bound, String node, TrackProperty property) {
        Rig rig = bound.model().rig();
        int i = rig.indexOf(node);
        return bound.model().clips().getLast().tracks().stream()
                .filter(t -> t.node() == i && t.property() == property).findFirst().orElseThrow();
    }

    @Test
    void aVrmAnimationBindsToAVrm1AvatarByTheHumanoidMapsWithItsKeysAsTheyAre() {
        ClipBinding.Bound bound = ClipBinding.bind(avatar(VrmAvatars.Kind.VRM1), animation(Map.of()), 10);

        assertThat(bound.rule()).isEqualTo(ClipBinding.Rule.HUMANOID_MAP);
        assertThat(bound.turned()).isFalse();
        assertThat(bound.translationScale()).isEqualTo(1.0);
        ClipBinding.ClipReport report = bound.clips().getFirst();
        assertThat(report.name()).isEqualTo("TurnAndWalk");
        assertThat(report.tracks()).isEqualTo(5);
        assertThat(report.byHumanoidMap()).isEqualTo(4);
        assertThat(report.byName()).isEqualTo(1);
        assertThat(report.unmatched()).isEmpty();
        Clip walk = VrmAvatars.turnAndWalk();
        assertThat(track(bound, "bone_00", TrackProperty.ROTATION).values()).containsExactly(walk.tracks().get(0).values());
        assertThat(track(bound, "bone_00", TrackProperty.TRANSLATION).values())
                .containsExactly(walk.tracks().get(1).values());
        assertThat(track(bound, "bone_01", TrackProperty.ROTATION).values()).containsExactly(walk.tracks().get(2).values());
        assertThat(track(bound, "bone_06", TrackProperty.ROTATION).values()).containsExactly(walk.tracks().get(3).values());
        assertThat(track(bound, VrmAvatars.HAIR, TrackProperty.ROTATION).values()).containsExactly(HAIR_KEYS);
    }

    @Test
    void ontoAVrm0AvatarTheClipIsTurnedToFaceMinusZ() {
        ClipBinding.Bound bound = ClipBinding.bind(avatar(VrmAvatars.Kind.VRM0), animation(Map.of()), 10);

        assertThat(bound.rule()).isEqualTo(ClipBinding.Rule.HUMANOID_MAP);
        assertThat(bound.turned()).isTrue();
        float sin15 = (float) Math.sin(Math.toRadians(15));
        float cos15 = (float) Math.cos(Math.toRadians(15));
        float s = (float) Math.sqrt(0.5);
        // R·q·R⁻¹, R = 180° about Y: the spine leans towards −Z, the hips turn the same way about +Y and walk to −Z
        assertThat(track(bound, "bone_01", TrackProperty.ROTATION).values())
                .containsExactly(-0f, 0, -0f, 1, -sin15, 0, -0f, cos15);
        assertThat(track(bound, "bone_00", TrackProperty.ROTATION).values()).containsExactly(-0f, 0, -0f, 1, -0f, s, -0f, s);
        assertThat(track(bound, "bone_00", TrackProperty.TRANSLATION).values())
                .containsExactly(-0f, 1, -0f, -0f, 1, -0.5f);
        assertThat(track(bound, VrmAvatars.HAIR, TrackProperty.ROTATION).values())
                .containsExactly(-0f, 0, -0f, 1, -0.1f, 0.2f, -0.3f, HAIR_KEYS[7]);
    }

    @Test
    void humanoidTranslationsAreScaledByTheHipsHeights() {
        Model vrma = animation(Map.of());
        Rig r = vrma.rig();
        float[] t = r.restTranslations().clone();
        int hips = vrma.humanoid().bones().get("hips");
        t[3 * hips + 1] = 0.8f; // the animation's hips 0.8 above the floor, the avatar's 1.0
        Rig lower = new Rig(r.names().toArray(String[]::new), r.parents(), new int[r.nodeCount()], t, r.restRotations(),
                r.restScales());
        Model source = new Model(vrma.format(), lower, List.of(), List.of(), vrma.clips(), List.of(), vrma.humanoid());

        ClipBinding.Bound bound = ClipBinding.bind(avatar(VrmAvatars.Kind.VRM1), source, 10);

        assertThat(bound.translationScale()).isEqualTo(1.0 / 0.800000011920929); // float 0.8
        float up = (float) (1 / 0.800000011920929);
        float forward = (float) (0.5 / 0.800000011920929);
        assertThat(track(bound, "bone_00", TrackProperty.TRANSLATION).values())
                .containsExactly(0, up, 0, 0, up, forward);
        // rotations are not scaled, nor the hair (bound by name)
        assertThat(track(bound, VrmAvatars.HAIR, TrackProperty.ROTATION).values()).containsExactly(HAIR_KEYS);
    }

    @Test
    void aRestPoseThatDiffersAtAnAnimatedBoneIsRefusedPointingToRetargeting() {
        float h = (float) Math.sin(Math.toRadians(15));
        float c = (float) Math.cos(Math.toRadians(15));
        Model source = animation(Map.of(6, new float[] {0, 0, h, c})); // leftUpperArm 30° about Z at rest

        assertThatThrownBy(() -> ClipBinding.bind(avatar(VrmAvatars.Kind.VRM1), source, 10))
                .isInstanceOf(ImportException.class)
                .hasMessageContaining("humanoid bone 'leftUpperArm'")
                .hasMessageContaining("30.00° apart")
                .hasMessageContaining("retarget");
        assertThat(ClipBinding.angle(new float[] {0, 0, h, c}, new float[] {0, 0, 0, 1})).isCloseTo(Math.toRadians(30),
                org.assertj.core.api.Assertions.within(1e-6));
    }

    @Test
    void withoutAMapOnTheTargetTheNamesBindAndNothingIsTurned() {
        Model avatar = avatar(VrmAvatars.Kind.VRM0);
        Model plain = new Model(avatar.format(), avatar.rig(), avatar.skins(), avatar.meshes(), avatar.clips(),
                avatar.warnings());

        ClipBinding.Bound bound = ClipBinding.bind(plain, animation(Map.of()), 10);

        assertThat(bound.rule()).isEqualTo(ClipBinding.Rule.NAME);
        assertThat(bound.turned()).isFalse();
        ClipBinding.ClipReport report = bound.clips().getFirst();
        assertThat(report.tracks()).isEqualTo(1); // only the hair: J_Bip_… names nothing of the avatar's
        assertThat(report.byName()).isEqualTo(1);
        assertThat(report.unmatched()).containsExactly("J_Bip_00", "J_Bip_01", "J_Bip_06");
        assertThat(track(bound, VrmAvatars.HAIR, TrackProperty.ROTATION).values()).containsExactly(HAIR_KEYS);
    }
}
