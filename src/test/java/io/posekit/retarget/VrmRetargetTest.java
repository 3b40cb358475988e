package io.posekit.retarget;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.posekit.asset.HumanoidMap;
import io.posekit.asset.Model;
import io.posekit.clip.Clip;
import io.posekit.clip.Interpolation;
import io.posekit.clip.Track;
import io.posekit.clip.TrackProperty;
import io.posekit.rig.Rig;
import io.posekit.sampling.Pose;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Retargeting with VRM humanoid bone maps, on avatars and animations generated in code ({@link VrmAvatars}: node
 * names {@code bone_00}… that no name rule pairs): the pairs come from the map (rule {@code humanoid_map}); a clip
 * retargeted onto a VRM 0.x avatar (facing −Z) and onto a VRM 1.0 avatar (facing +Z) faces each avatar's own front —
 * the same way once a viewer turns the 0.x avatar round, as three-vrm does; and a VRM animation ({@code .vrma})
 * drives avatars like the Mixamo clip it was made from.
 */
class VrmRetargetTest {

    private static final RetargetRequest ALL = new RetargetRequest(List.of(), Map.of(),
            RetargetRequest.RootMotion.AUTO, null, false);

    static Clip turnAndWalk() {
        return VrmAvatars.turnAndWalk();
    }

    private static Model mixamo(Clip clip) {
        return Skeletons.model(Skeletons.humanoid(), clip);
    }

    private static float[] positions(Model model, Clip clip, double t) {
        float[] m = Pose.evaluate(model.rig(), clip, t).modelMatrices();
        float[] out = new float[3 * model.rig().nodeCount()];
        for (int i = 0; i < model.rig().nodeCount(); i++) {
            out[3 * i] = m[16 * i + 12];
            out[3 * i + 1] = m[16 * i + 13];
            out[3 * i + 2] = m[16 * i + 14];
        }
        return out;
    }

    @Test
    void theImportedAvatarsCarryTheirMaps() {
        for (VrmAvatars.Kind kind : VrmAvatars.Kind.values()) {
            Model avatar = VrmAvatars.avatar(kind);
            HumanoidMap map = avatar.humanoid();
            assertThat(map).as("%s", kind).isNotNull();
            assertThat(map.kind().name()).isEqualTo(kind.name());
            assertThat(map.bones()).hasSize(21);
            assertThat(map.bones().get("hips")).isZero();
            assertThat(map.bones().get("leftUpperArm")).isEqualTo(6);
            assertThat(avatar.rig().name(6)).isEqualTo("bone_06");
            assertThat(map.facesMinusZ()).isEqualTo(kind == VrmAvatars.Kind.VRM0);
            assertThat(avatar.warnings()).isEmpty();
            // root motion and foot locking find the hips and legs through the map too
            assertThat(HumanoidJoints.root(avatar)).isZero();
            assertThat(HumanoidJoints.leg(avatar, true)).hasValueSatisfying(l -> assertThat(l).containsExactly(13, 14, 15));
            assertThat(HumanoidJoints.leg(avatar, false)).hasValueSatisfying(l -> assertThat(l).containsExactly(17, 18, 19));
        }
    }

    @Test
    void thePairsComeFromTheMap() {
        Rig mixamo = Skeletons.humanoid();
        for (VrmAvatars.Kind kind : List.of(VrmAvatars.Kind.VRM1, VrmAvatars.Kind.VRM0)) {
            // one map: the avatar's bone roles against the Mixamo names
            RetargetReport report = Retargeter.retarget(VrmAvatars.avatar(kind), mixamo(turnAndWalk()), ALL, 100).report();
            List<RetargetReport.Pair> expected = new ArrayList<>();
            for (int i = 0; i < mixamo.nodeCount(); i++) {
                expected.add(new RetargetReport.Pair(VrmAvatars.nodeName(i), mixamo.name(i), MatchRule.HUMANOID_MAP));
            }
            assertThat(report.mapped()).as("%s", kind).containsExactlyElementsOf(expected);
            assertThat(report.unmappedTarget()).isEmpty();
            assertThat(report.unmappedSource()).isEmpty();
            assertThat(report.rootJoint()).isEqualTo("bone_00");
            // two maps: the same bone
            Model vrma = VrmAvatars.importGlb("clip.vrma", VrmAvatars.glb(VrmAvatars.Kind.VRMA, turnAndWalk()));
            report = Retargeter.retarget(VrmAvatars.avatar(kind), vrma, ALL, 100).report();
            expected.clear();
            for (int i = 0; i < mixamo.nodeCount(); i++) {
                expected.add(new RetargetReport.Pair(VrmAvatars.nodeName(i), VrmAvatars.nodeName(i), MatchRule.HUMANOID_MAP));
            }
            assertThat(report.mapped()).as("%s from VRMA", kind).containsExactlyElementsOf(expected);
        }
        // without maps the same names pair nothing
        Model plain = Skeletons.model(VrmAvatars.avatar(VrmAvatars.Kind.VRM1).rig());
        assertThat(org.assertj.core.api.Assertions.catchThrowableOfType(RetargetException.class,
                () -> Retargeter.retarget(plain, mixamo(turnAndWalk()), ALL, 100)).kind())
                .isEqualTo(RetargetException.Kind.NOTHING_TO_RETARGET);
    }

    /**
     * The clip onto a VRM 1.0 and a VRM 0.x avatar: at the end the VRM 1.0 avatar's left toes (rest chord
     * (0, −0.05, 0.1), forward) point left, +X, and its hips stand 0.5 m forward at (0, 1, 0.5); the VRM 0.x
     * avatar's point −X with its hips at (0, 1, −0.5): its own left and forward, turned 180° about Y. At every key
     * every joint of the 0.x avatar is where the 1.0 avatar's is, turned.
     */
    @Test
    void aClipFacesEachAvatarsFront() {
        for (Clip clip : List.of(turnAndWalk(), Skeletons.dance(Skeletons.humanoid(), 8, 3))) {
            Model v1 = Retargeter.retarget(VrmAvatars.avatar(VrmAvatars.Kind.VRM1), mixamo(clip), ALL, 100).model();
            Model v0 = Retargeter.retarget(VrmAvatars.avatar(VrmAvatars.Kind.VRM0), mixamo(clip), ALL, 100).model();
            Clip c1 = v1.clips().getLast();
            Clip c0 = v0.clips().getLast();
            for (float t : c1.tracks().getFirst().times()) {
                float[] p1 = positions(v1, c1, t);
                float[] p0 = positions(v0, c0, t);
                for (int i = 0; i < p1.length; i += 3) {
                    assertThat(p0[i]).as("%s x of joint %d at %s", clip.name(), i / 3, t).isCloseTo(-p1[i], within(1e-5f));
                    assertThat(p0[i + 1]).isCloseTo(p1[i + 1], within(1e-5f));
                    assertThat(p0[i + 2]).as("%s z of joint %d at %s", clip.name(), i / 3, t).isCloseTo(-p1[i + 2], within(1e-5f));
                }
            }
        }
        Clip clip = turnAndWalk();
        Model v1 = Retargeter.retarget(VrmAvatars.avatar(VrmAvatars.Kind.VRM1), mixamo(clip), ALL, 100).model();
        Model v0 = Retargeter.retarget(VrmAvatars.avatar(VrmAvatars.Kind.VRM0), mixamo(clip), ALL, 100).model();
        float[] p1 = positions(v1, v1.clips().getLast(), 1);
        float[] p0 = positions(v0, v0.clips().getLast(), 1);
        assertChord(p1, 15, 16, 0.1, -0.05, 0);
        assertChord(p0, 15, 16, -0.1, -0.05, 0);
        assertThat(new float[] {p1[0], p1[1], p1[2]}).usingComparatorWithPrecision(1e-5f).containsExactly(0, 1, 0.5f);
        assertThat(new float[] {p0[0], p0[1], p0[2]}).usingComparatorWithPrecision(1e-5f).containsExactly(0, 1, -0.5f);
        // the head leans forward: towards +Z, then turned with the hips to +X, for the 1.0 avatar; −X for the 0.x one
        assertThat(p1[3 * 4] - p1[3 * 1]).isGreaterThan(0.1f);
        assertThat(p0[3 * 4] - p0[3 * 1]).isLessThan(-0.1f);
    }

    /** The chord from joint a to joint b points along (x, y, z) (normalised; within 1e-5). */
    private static void assertChord(float[] p, int a, int b, double x, double y, double z) {
        double dx = p[3 * b] - p[3 * a];
        double dy = p[3 * b + 1] - p[3 * a + 1];
        double dz = p[3 * b + 2] - p[3 * a + 2];
        double l = Math.sqrt(dx * dx + dy * dy + dz * dz);
        double e = Math.sqrt(x * x + y * y + z * z);
        assertThat(dx / l).isCloseTo(x / e, within(1e-5));
        assertThat(dy / l).isCloseTo(y / e, within(1e-5));
        assertThat(dz / l).isCloseTo(z / e, within(1e-5));
    }

    /** A VRMA and a VRM 0.x avatar's own clip, as sources, drive an avatar like the Mixamo clip they hold. */
    @Test
    void vrmAnimationsAndVrm0AvatarsAsSources() {
        Clip clip = Skeletons.dance(Skeletons.humanoid(), 8, 5);
        Model vrma = VrmAvatars.importGlb("dance.vrma", VrmAvatars.glb(VrmAvatars.Kind.VRMA, clip));
        Model vrm0 = VrmAvatars.importGlb("dancer.vrm", VrmAvatars.glb(VrmAvatars.Kind.VRM0, clip));
        for (VrmAvatars.Kind kind : List.of(VrmAvatars.Kind.VRM1, VrmAvatars.Kind.VRM0)) {
            Model expected = Retargeter.retarget(VrmAvatars.avatar(kind), mixamo(clip), ALL, 100).model();
            for (Model source : List.of(vrma, vrm0)) {
                Model actual = Retargeter.retarget(VrmAvatars.avatar(kind), source, ALL, 100).model();
                Clip ce = expected.clips().getLast();
                Clip ca = actual.clips().getLast();
                for (float t : ce.tracks().getFirst().times()) {
                    float[] pe = positions(expected, ce, t);
                    float[] pa = positions(actual, ca, t);
                    for (int i = 0; i < pe.length; i++) {
                        assertThat(pa[i]).as("%s from %s, component %d at %s", kind, source.humanoid().kind(), i, t)
                                .isCloseTo(pe[i], within(1e-5f));
                    }
                }
            }
        }
    }
}
