package io.posekit.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.posekit.asset.AssetFormat;
import io.posekit.asset.AssetImporters;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.Model;
import io.posekit.asset.md5.Md5Fixtures;
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
 * MD5 as a retargeting source: the conformance set's only MD5 asset has no {@code .md5anim}, so the source is the
 * humanoid of {@link Md5Fixtures#humanoidMesh()} and {@link Md5Fixtures#humanoidAnim()} (written in code), imported
 * through {@link AssetImporters} like any upload.
 */
class Md5SourceRetargetTest {

    private static Model humanoid() {
        Model model = AssetImporters.all(ImportLimits.DEFAULT).importUpload(Md5Fixtures.humanoidUpload()).model();
        assertThat(model.format()).isEqualTo(AssetFormat.MD5);
        assertThat(model.clips()).hasSize(1);
        Clip clip = model.clips().getFirst();
        assertThat(clip.name()).isEqualTo("walk");
        assertThat(clip.duration()).isEqualTo(4 / 24.0, org.assertj.core.data.Offset.offset(1e-6));
        // a translation and a rotation track per joint; 7 joints animated (5 keys), the others constant (1 key)
        assertThat(clip.tracks()).hasSize(2 * 21);
        assertThat(clip.tracks().stream().filter(t -> t.times().length == 5).count()).isEqualTo(8);
        // MD5 (x, y, z) is (x, z, −y) in the model (Z up → Y up): hand_l rests at (27, 0, 60); the pelvis at frame 3
        // is at (0.5·3, −2·3, 40 + sin 3)
        Rig rig = model.rig();
        float[] rest = Pose.evaluate(rig, null, 0).modelMatrices();
        int hand = rig.indexOf("hand_l");
        assertThat(new float[] {rest[16 * hand + 12], rest[16 * hand + 13], rest[16 * hand + 14]})
                .containsExactly(new float[] {27, 60, 0}, org.assertj.core.data.Offset.offset(1e-4f));
        float[] m = Pose.evaluate(rig, clip, 3 / 24f).modelMatrices();
        int pelvis = rig.indexOf("pelvis");
        assertThat(new float[] {m[16 * pelvis + 12], m[16 * pelvis + 13], m[16 * pelvis + 14]})
                .containsExactly(new float[] {1.5f, (float) (40 + Math.sin(3)), 6}, org.assertj.core.data.Offset.offset(1e-4f));
        return model;
    }

    /**
     * The clip onto its own skeleton by automatic pairing (all 21 joints by exact name), kept translations, root
     * motion auto (k = 1): the model matrices' rotation parts within 1e-6, local rotations within 1e-6 and model
     * translations within 1e-6 of the skeleton's size, at each of the 5 frames and halfway between them.
     */
    @Test
    void anMd5ClipOntoItsOwnSkeletonIsTheIdentity() {
        Model model = humanoid();
        Clip clip = model.clips().getFirst();
        Retargeter.Result result = Retargeter.retarget(model, model, new RetargetRequest(List.of(clip.name()),
                Map.of(), RetargetRequest.RootMotion.AUTO, null, true), 1000);
        RetargetReport report = result.report();
        assertThat(report.mapped()).hasSize(21);
        assertThat(report.mapped()).allSatisfy(p -> {
            assertThat(p.rule()).isEqualTo(MatchRule.EXACT);
            assertThat(p.source()).isEqualTo(p.target());
        });
        assertThat(report.rootJoint()).isEqualTo("pelvis");
        assertThat(report.rootScale()).isEqualTo(1.0);
        Rig rig = model.rig();
        Clip made = result.model().clips().getLast();
        float[] keys = made.tracks().getFirst().times();
        assertThat(keys).containsExactly(0f, 1 / 24f, 2 / 24f, 3 / 24f, 4 / 24f);
        float[] between = new float[keys.length - 1];
        for (int k = 0; k + 1 < keys.length; k++) {
            between[k] = (keys[k] + keys[k + 1]) / 2;
        }
        double size = RetargetAcrossFormatsTest.size(rig);
        double[] atKeys = RetargetAcrossFormatsTest.errors(rig, clip, made, report, keys, size);
        double[] atMid = RetargetAcrossFormatsTest.errors(rig, clip, made, report, between, size);
        RetargetAcrossFormatsTest.figure("md5 self: size %.4g; keys rot %.3g loc %.3g tr %.3g; between rot %.3g loc"
                + " %.3g tr %.3g", size, atKeys[0], atKeys[1], atKeys[2], atMid[0], atMid[1], atMid[2]);
        for (double e : atKeys) {
            assertThat(e).as("at the frames").isLessThanOrEqualTo(1e-6);
        }
        for (double e : atMid) {
            assertThat(e).as("between the frames").isLessThanOrEqualTo(1e-6);
        }
        // the source does move: the pelvis travels and the left upper arm turns between frames 0 and 4
        float[] first = Pose.evaluate(rig, clip, 0).modelMatrices();
        float[] last = Pose.evaluate(rig, clip, 4 / 24f).modelMatrices();
        int arm = rig.indexOf("upperarm_l");
        int forearm = rig.indexOf("forearm_l");
        assertThat(RetargetSupport.angle(first, arm, forearm, last, arm, forearm)).isGreaterThan(0.1);
    }

    /** RiggedFigure's joints → the MD5 humanoid's (target → source); its clavicles stay unpaired. */
    static Map<String, String> riggedFigureMap() {
        Map<String, String> map = new LinkedHashMap<>();
        map.put("torso_joint_1", "pelvis");
        map.put("torso_joint_2", "spine");
        map.put("torso_joint_3", "chest");
        map.put("neck_joint_1", "neck");
        map.put("neck_joint_2", "head");
        for (String side : new String[] {"L", "R"}) {
            String s = side.toLowerCase(java.util.Locale.ROOT);
            map.put("arm_joint_" + side + "_1", "upperarm_" + s);
            map.put("arm_joint_" + side + "_2", "forearm_" + s);
            map.put("arm_joint_" + side + "_3", "hand_" + s);
            map.put("leg_joint_" + side + "_1", "thigh_" + s);
            map.put("leg_joint_" + side + "_2", "calf_" + s);
            map.put("leg_joint_" + side + "_3", "foot_" + s);
            map.put("leg_joint_" + side + "_5", "toe_" + s);
        }
        return map;
    }

    /**
     * The clip onto glTF RiggedFigure (skipped without the conformance set) with a joint map, 19 pairs: no NaN in the
     * tracks or the sampled matrices, and every limb bone (as {@link RetargetAcrossFormatsTest#limbs}) pointing where
     * the source's bone points within 1e-4 rad at every frame and halfway between frames.
     */
    @Test
    void anMd5ClipOntoGltfRiggedFigure() {
        assumeTrue(ConformanceData.available(), "../shared/conformance is absent");
        Model source = humanoid();
        Model target = RetargetSupport.load("gltf/RiggedFigure/RiggedFigure.glb");
        Clip clip = source.clips().getFirst();
        Retargeter.Result result = Retargeter.retarget(target, source, new RetargetRequest(List.of(clip.name()),
                riggedFigureMap(), RetargetRequest.RootMotion.AUTO, null, false), 1000);
        RetargetReport report = result.report();
        assertThat(report.mapped()).hasSize(19);
        assertThat(report.mapped()).allSatisfy(p -> assertThat(p.rule()).isEqualTo(MatchRule.MAP));
        Clip made = result.model().clips().getLast();
        for (Track t : made.tracks()) {
            for (float v : t.values()) {
                assertThat(Float.isFinite(v)).as("track values of %s", target.rig().name(t.node())).isTrue();
            }
        }
        Rig tr = target.rig();
        Rig sr = source.rig();
        List<int[]> limbs = RetargetAcrossFormatsTest.limbs(tr, sr, report);
        List<String> limbNames = limbs.stream().map(l -> tr.name(l[0]) + ">" + tr.name(l[1])).toList();
        float[] keys = made.tracks().getFirst().times();
        assertThat(keys).hasSize(5);
        float[] times = new float[2 * keys.length - 1];
        for (int k = 0; k < keys.length; k++) {
            times[2 * k] = keys[k];
            if (k + 1 < keys.length) {
                times[2 * k + 1] = (keys[k] + keys[k + 1]) / 2;
            }
        }
        double worst = 0;
        double moved = 0;
        float[] rest = Pose.evaluate(sr, clip, 0).modelMatrices();
        for (float time : times) {
            float[] s = Pose.evaluate(sr, clip, time).modelMatrices();
            float[] t = Pose.evaluate(tr, made, time).modelMatrices();
            for (float v : t) {
                assertThat(Float.isFinite(v)).isTrue();
            }
            for (int[] l : limbs) {
                double angle = RetargetSupport.angle(t, l[0], l[1], s, l[2], l[3]);
                assertThat(Double.isNaN(angle)).isFalse();
                worst = Math.max(worst, angle);
                moved = Math.max(moved, RetargetSupport.angle(rest, l[2], l[3], s, l[2], l[3]));
            }
        }
        RetargetAcrossFormatsTest.figure("md5 -> RiggedFigure: root %s k=%.6g, %d limbs %s, %d samples, worst %s rad,"
                + " source limbs turn up to %.4g rad", report.rootJoint(), report.rootScale(), limbs.size(), limbNames,
                times.length, worst, moved);
        assertThat(worst).as("largest limb direction difference, radians").isLessThanOrEqualTo(1e-4);
        assertThat(moved).as("the source's limbs do turn").isGreaterThan(0.1);
        assertThat(limbNames).hasSize(12);
    }
}
