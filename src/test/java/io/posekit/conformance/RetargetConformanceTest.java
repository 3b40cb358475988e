package io.posekit.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.posekit.asset.Model;
import io.posekit.clip.Clip;
import io.posekit.clip.Track;
import io.posekit.retarget.MatchRule;
import io.posekit.retarget.RetargetReport;
import io.posekit.retarget.RetargetRequest;
import io.posekit.retarget.Retargeter;
import io.posekit.rig.Rig;
import io.posekit.sampling.Pose;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The CMU motion-capture BVH 01_01 (a jump) retargeted onto the glTF sample characters RiggedFigure and CesiumMan, whose
 * joints are named {@code leg_joint_L_1}… (no convention), with a joint map: no NaN, and every mapped limb bone points
 * where the source's bone points, within 1e-4 rad, at every sample time. Skipped when the conformance set is absent.
 */
class RetargetConformanceTest {

    /** Target limb bones (joint, child) and the source bones they follow, by the map below. */
    private static final String[][] CMU_LIMBS = {{"LeftUpLeg", "LeftLeg"}, {"LeftLeg", "LeftFoot"},
        {"LeftFoot", "LeftToeBase"}, {"RightUpLeg", "RightLeg"}, {"RightLeg", "RightFoot"},
        {"RightFoot", "RightToeBase"}, {"LeftArm", "LeftForeArm"}, {"LeftForeArm", "LeftHand"},
        {"RightArm", "RightForeArm"}, {"RightForeArm", "RightHand"}, {"Neck", "Head"}, {"Spine", "Spine1"}};

    @Test
    void cmuJumpOntoRiggedFigure() {
        assumeTrue(ConformanceData.available(), "../shared/conformance is absent");
        check(RetargetSupport.load("gltf/RiggedFigure/RiggedFigure.glb"), CmuJointMaps.riggedFigure());
    }

    @Test
    void cmuJumpOntoCesiumMan() {
        assumeTrue(ConformanceData.available(), "../shared/conformance is absent");
        check(RetargetSupport.load("gltf/CesiumMan/CesiumMan.glb"), CmuJointMaps.cesiumMan());
    }

    private static void check(Model target, Map<String, String> map) {
        Model source = RetargetSupport.load("bvh/01_01/01_01.bvh");
        Retargeter.Result result = Retargeter.retarget(target, source, new RetargetRequest(List.of(), map,
                RetargetRequest.RootMotion.AUTO, null, false), 100);

        assertThat(result.report().mapped()).filteredOn(p -> p.rule() == MatchRule.MAP).hasSize(map.size());
        assertThat(result.report().rootScale()).isBetween(0.01, 1.0); // CMU is in inches ×… , the figures in metres
        Clip made = result.model().clips().getLast();
        for (Track t : made.tracks()) {
            for (float v : t.values()) {
                assertThat(Float.isFinite(v)).as("track values of %s", target.rig().name(t.node())).isTrue();
            }
        }
        Map<String, String> inverse = new LinkedHashMap<>();
        map.forEach((t, s) -> inverse.put(s, t));
        Rig tr = target.rig();
        Rig sr = source.rig();
        Clip clip = source.clips().getFirst();
        float[] times = made.tracks().getFirst().times();
        assertThat(times.length).isGreaterThan(100);
        double worst = 0;
        for (float time : times) {
            float[] s = Pose.evaluate(sr, clip, time).modelMatrices();
            float[] t = Pose.evaluate(tr, made, time).modelMatrices();
            for (String[] bone : CMU_LIMBS) {
                double angle = RetargetSupport.angle(t, tr.indexOf(inverse.get(bone[0])), tr.indexOf(inverse.get(bone[1])), s,
                        sr.indexOf(bone[0]), sr.indexOf(bone[1]));
                assertThat(Double.isNaN(angle)).isFalse();
                worst = Math.max(worst, angle);
            }
        }
        assertThat(worst).as("largest limb direction difference over %s samples, radians", times.length)
                .isLessThanOrEqualTo(1e-4);
        assertThat(result.report().unmappedSource()).contains("LHipJoint", "LowerBack", "Neck1", "LeftShoulder");
        assertThat(result.report().mapped()).extracting(RetargetReport.Pair::rule).doesNotContain(MatchRule.CHAIN);
    }
}
