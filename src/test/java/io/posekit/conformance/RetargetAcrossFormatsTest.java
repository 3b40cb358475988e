package io.posekit.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.posekit.asset.AssetFormat;
import io.posekit.asset.Model;
import io.posekit.clip.Clip;
import io.posekit.clip.Interpolation;
import io.posekit.clip.Track;
import io.posekit.clip.TrackProperty;
import io.posekit.retarget.MatchRule;
import io.posekit.retarget.RetargetReport;
import io.posekit.retarget.RetargetRequest;
import io.posekit.retarget.Retargeter;
import io.posekit.rig.Rig;
import io.posekit.sampling.Pose;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Retargeting works for every imported format as source and as target, on the real conformance assets (skipped when
 * the conformance set is absent).
 */
class RetargetAcrossFormatsTest {

    static final String CMU = "bvh/01_01/01_01.bvh";

    /** Prints the measured figures (for the docs) when {@code -Dposekit.retarget.figures=true}. */
    private static final boolean FIGURES = Boolean.getBoolean("posekit.retarget.figures");

    static void figure(String format, Object... args) {
        if (FIGURES) {
            System.out.printf(Locale.ROOT, format + "%n", args);
        }
    }

    // ---------------------------------------------------------------------------------------------------------------
    // 1. every asset with a skeleton and a clip, onto itself

    static Stream<Arguments> selfCases() {
        return Stream.of(
                Arguments.of(CMU, 38),
                Arguments.of("collada/CesiumMan/CesiumMan.dae", 19),
                Arguments.of("collada/RiggedFigure/RiggedFigure.dae", 19),
                Arguments.of("collada/RiggedSimple/riggedSimple.dae", 2),
                Arguments.of("collada/box_nested_animation/box_nested_animation.dae", 1),
                Arguments.of("collada/library_animation_clips/library_animation_clips.dae", 5),
                Arguments.of("fbx/animation_with_skeleton/animation_with_skeleton.fbx", 14),
                Arguments.of("fbx/huesitos/huesitos.fbx", 9),
                Arguments.of("gltf/CesiumMan/CesiumMan.glb", 19),
                Arguments.of("gltf/Fox/Fox.glb", 24),
                Arguments.of("gltf/RiggedFigure/RiggedFigure.glb", 19),
                Arguments.of("gltf/RiggedSimple/RiggedSimple.glb", 2),
                Arguments.of("iqm/mrfixit/mrfixit.iqm", 75),
                Arguments.of("x/BCN_Epileptic/BCN_Epileptic.X", 54),
                Arguments.of("x/anim_test/anim_test.x", 4));
    }

    /**
     * The self cases are exactly the conformance assets with a skeleton (a skin, or a BVH hierarchy), a clip and a
     * named skin joint, so none is left out unseen. The others: glTF BrainStem, SimpleSkin and RecursiveSkeletons have
     * skins and clips but no joint names (pairing, automatic or by map, is by name); glTF quad_skin and the MD5
     * SimpleCube (no {@code .md5anim} in the set) have skins and no clip; the rest have no skeleton.
     */
    @Test
    void theSelfCasesAreEveryAssetWithASkeletonAndAClip() throws IOException {
        assumeTrue(ConformanceData.available(), "../shared/conformance is absent");
        Path root = ConformanceData.root().resolve("assets");
        Set<String> main = Set.of("glb", "gltf", "dae", "x", "iqm", "bvh", "md5mesh", "fbx");
        List<String> assets;
        try (Stream<Path> files = Files.walk(root)) {
            assets = files.map(p -> root.relativize(p).toString().replace('\\', '/')).filter(n -> {
                int dot = n.lastIndexOf('.');
                return dot > 0 && main.contains(n.substring(dot + 1).toLowerCase(Locale.ROOT));
            }).sorted().toList();
        }
        List<String> qualified = new ArrayList<>();
        List<String> unnamed = new ArrayList<>();
        List<String> skinWithoutClip = new ArrayList<>();
        for (String asset : assets) {
            Model model = RetargetSupport.load(asset);
            boolean skeleton = !model.skins().isEmpty() || model.format() == AssetFormat.BVH;
            boolean named = model.skins().isEmpty() ? model.rig().names().stream().anyMatch(n -> n != null)
                    : model.skins().stream().flatMapToInt(k -> java.util.Arrays.stream(k.jointNodes()))
                            .anyMatch(j -> model.rig().name(j) != null);
            if (skeleton && model.clips().isEmpty()) {
                skinWithoutClip.add(asset);
            } else if (skeleton && !named) {
                unnamed.add(asset);
            } else if (skeleton) {
                qualified.add(asset);
            }
        }
        assertThat(qualified).containsExactlyInAnyOrderElementsOf(selfCases().map(a -> (String) a.get()[0]).toList());
        assertThat(unnamed).containsExactly("gltf/BrainStem/BrainStem.glb",
                "gltf/RecursiveSkeletons/RecursiveSkeletons.glb", "gltf/SimpleSkin/SimpleSkin.gltf");
        assertThat(skinWithoutClip).containsExactly("gltf/quad_skin/quad_skin.glb",
                "md5/SimpleCube/SimpleCube.md5mesh");
        assertThat(assets).hasSize(qualified.size() + unnamed.size() + skinWithoutClip.size() + 5);
    }

    /**
     * Every conformance asset with a skeleton (skin joints, or a BVH hierarchy) and a clip, each clip retargeted onto
     * the asset itself with the automatic pairing (every joint pairs with itself by exact name), kept translations and
     * root motion {@code auto} (k = 1 exactly): at every sample time (the clip's key times) each mapped joint's local
     * rotation within 1e-6, its model translation within 1e-6 of the skeleton's size, and its model matrix's rotation
     * part within 1e-6 of the source clip's with its scale tracks left out and its rotation keys normalised (the
     * retargeter writes unit quaternions; some glTF keys are a few 1e-7 off unit length); between keys, for sources
     * that interpolate quaternions (all but huesitos), the same.
     *
     * <p>Two documented differences, asserted rather than hidden: scale tracks are not carried over ({@code
     * docs/retargeting.md}, limits): CesiumMan, RiggedFigure and BCN_Epileptic animate scales within 1.4e-6 of 1, so
     * against the full source (also with its non-unit keys) their matrices differ by up to 2.6e-6 (asserted ≤ 1e-5).
     * And the FBX sample huesitos interpolates Euler-angle curves linearly between its 25 fps keys, which a slerp of
     * the key rotations does not reproduce: between keys its local rotations differ by at most 0.009 (asserted between
     * 1e-3 and 0.01) and are instead the slerp halfway between the source's key rotations within 1e-6, while at the
     * keys they are exact. Assets without a named joint (glTF BrainStem, SimpleSkin, RecursiveSkeletons) cannot be
     * paired by name or map and are left out; see {@link #theSelfCasesAreEveryAssetWithASkeletonAndAClip()}.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("selfCases")
    void everyClipOntoItsOwnSkeletonIsTheIdentity(String asset, int joints) {
        assumeTrue(ConformanceData.available(), "../shared/conformance is absent");
        Model model = RetargetSupport.load(asset);
        Rig rig = model.rig();
        double size = size(rig);
        boolean eulerCurves = asset.equals("fbx/huesitos/huesitos.fbx");
        for (Clip clip : model.clips()) {
            Retargeter.Result result = Retargeter.retarget(model, model, new RetargetRequest(List.of(clip.name()),
                    Map.of(), RetargetRequest.RootMotion.AUTO, null, true), 1000);
            RetargetReport report = result.report();
            assertThat(report.mapped()).hasSize(joints);
            assertThat(report.mapped()).allSatisfy(p -> {
                assertThat(p.rule()).isEqualTo(MatchRule.EXACT);
                assertThat(p.source()).isEqualTo(p.target());
            });
            assertThat(report.rootScale()).isEqualTo(1.0);
            Clip made = result.model().clips().getLast();
            Clip unscaled = new Clip(clip.name(), clip.duration(), clip.tracks().stream()
                    .filter(t -> t.property() != TrackProperty.SCALE).map(RetargetAcrossFormatsTest::normalised)
                    .toList(), clip.nodeTransforms());
            float[] keys = made.tracks().getFirst().times();
            float[] between = new float[keys.length - 1];
            for (int k = 0; k + 1 < keys.length; k++) {
                between[k] = (keys[k] + keys[k + 1]) / 2;
            }
            double[] atKeys = errors(rig, unscaled, made, report, keys, size);
            double[] atMid = errors(rig, unscaled, made, report, between, size);
            double scaled = Math.max(errors(rig, clip, made, report, keys, size)[0],
                    eulerCurves ? 0 : errors(rig, clip, made, report, between, size)[0]);
            double slerped = slerpError(rig, clip, made, report, keys);
            figure("self %s '%s': %d joints, %d keys: keys rot %.3g loc %.3g tr %.3g; between rot %.3g loc %.3g tr %.3g;"
                    + " with scales %.3g; slerp of keys %.3g", asset, clip.name(), joints, keys.length, atKeys[0],
                    atKeys[1], atKeys[2], atMid[0], atMid[1], atMid[2], scaled, slerped);
            String what = asset + " '" + clip.name() + "'";
            assertThat(atKeys[0]).as("model rotation at the keys, %s", what).isLessThanOrEqualTo(1e-6);
            assertThat(atKeys[1]).as("local rotation at the keys, %s", what).isLessThanOrEqualTo(1e-6);
            assertThat(atKeys[2]).as("model translation at the keys, %s", what).isLessThanOrEqualTo(1e-6);
            assertThat(scaled).as("model rotation against the source with its scale tracks, %s", what)
                    .isLessThanOrEqualTo(1e-5);
            if (eulerCurves) {
                assertThat(atMid[1]).as("local rotation between Euler keys, %s", what).isBetween(1e-3, 0.01);
                assertThat(slerped).as("between the keys, the slerp of the source's key rotations, %s", what)
                        .isLessThanOrEqualTo(1e-6);
            } else {
                assertThat(atMid[0]).as("model rotation between the keys, %s", what).isLessThanOrEqualTo(1e-6);
                assertThat(atMid[1]).as("local rotation between the keys, %s", what).isLessThanOrEqualTo(1e-6);
                assertThat(atMid[2]).as("model translation between the keys, %s", what).isLessThanOrEqualTo(1e-6);
            }
        }
    }

    /** A rotation track with its LINEAR or STEP keys scaled to unit length (as the retargeter writes them). */
    private static Track normalised(Track t) {
        if (t.property() != TrackProperty.ROTATION || t.interpolation() == Interpolation.CUBICSPLINE) {
            return t;
        }
        float[] v = t.values().clone();
        for (int k = 0; k < v.length; k += 4) {
            double n = Math.sqrt(sq(v[k]) + sq(v[k + 1]) + sq(v[k + 2]) + sq(v[k + 3]));
            for (int c = 0; c < 4; c++) {
                v[k + c] = (float) (v[k + c] / n);
            }
        }
        return new Track(t.node(), t.property(), t.interpolation(), t.components(), t.times(), v);
    }

    /**
     * The largest difference, over the mapped joints and the midpoints of {@code keys}, between the retargeted local
     * rotation and the slerp halfway between the source's local rotations at the two keys.
     */
    static double slerpError(Rig rig, Clip source, Clip made, RetargetReport report, float[] keys) {
        int[] joints = report.mapped().stream().mapToInt(p -> rig.indexOf(p.target())).toArray();
        double worst = 0;
        float[] previous = Pose.evaluate(rig, source, keys[0]).local().rotations();
        for (int k = 0; k + 1 < keys.length; k++) {
            float[] next = Pose.evaluate(rig, source, keys[k + 1]).local().rotations();
            float[] mid = Pose.evaluate(rig, made, (keys[k] + keys[k + 1]) / 2).local().rotations();
            for (int j : joints) {
                double[] q = slerpHalf(previous, next, j);
                double dot = 0;
                for (int c = 0; c < 4; c++) {
                    dot += q[c] * mid[4 * j + c];
                }
                double sign = dot < 0 ? -1 : 1;
                for (int c = 0; c < 4; c++) {
                    worst = Math.max(worst, Math.abs(q[c] - sign * mid[4 * j + c]));
                }
            }
            previous = next;
        }
        return worst;
    }

    /** The unit quaternion halfway (shortest path) between quaternion j of a and of b. */
    private static double[] slerpHalf(float[] a, float[] b, int j) {
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (int c = 0; c < 4; c++) {
            dot += a[4 * j + c] * b[4 * j + c];
            na += sq(a[4 * j + c]);
            nb += sq(b[4 * j + c]);
        }
        double sign = dot < 0 ? -1 : 1;
        double[] q = new double[4];
        double len = 0;
        for (int c = 0; c < 4; c++) {
            q[c] = a[4 * j + c] / Math.sqrt(na) + sign * b[4 * j + c] / Math.sqrt(nb);
            len += q[c] * q[c];
        }
        for (int c = 0; c < 4; c++) {
            q[c] /= Math.sqrt(len);
        }
        return q;
    }

    /**
     * The largest differences between the source clip and the retargeted one at {@code times}, over the mapped joints:
     * model matrices' rotation part (each column divided by the source column's length, so a joint under a ×100
     * armature counts the same as one under none), local rotations (componentwise, sign-aligned), model translations
     * divided by the skeleton's rest size.
     */
    static double[] errors(Rig rig, Clip source, Clip made, RetargetReport report, float[] times, double size) {
        int[] joints = report.mapped().stream().mapToInt(p -> rig.indexOf(p.target())).toArray();
        double rot = 0;
        double loc = 0;
        double tr = 0;
        for (float time : times) {
            Pose a = Pose.evaluate(rig, source, time);
            Pose b = Pose.evaluate(rig, made, time);
            float[] ma = a.modelMatrices();
            float[] mb = b.modelMatrices();
            float[] qa = a.local().rotations();
            float[] qb = b.local().rotations();
            for (int j : joints) {
                for (int c = 0; c < 3; c++) {
                    int col = 16 * j + 4 * c;
                    double len = Math.sqrt(sq(ma[col]) + sq(ma[col + 1]) + sq(ma[col + 2]));
                    for (int r = 0; r < 3; r++) {
                        rot = Math.max(rot, Math.abs(ma[16 * j + 4 * c + r] - mb[16 * j + 4 * c + r]) / len);
                    }
                    tr = Math.max(tr, Math.abs(ma[16 * j + 12 + c] - mb[16 * j + 12 + c]) / size);
                }
                double dot = 0;
                for (int c = 0; c < 4; c++) {
                    dot += qa[4 * j + c] * qb[4 * j + c];
                }
                double sign = dot < 0 ? -1 : 1;
                for (int c = 0; c < 4; c++) {
                    loc = Math.max(loc, Math.abs(qa[4 * j + c] - sign * qb[4 * j + c]));
                }
            }
        }
        return new double[] {rot, loc, tr};
    }

    private static double sq(double x) {
        return x * x;
    }

    /** The diagonal of the box around the rest joint positions. */
    static double size(Rig rig) {
        float[] m = Pose.evaluate(rig, null, 0).modelMatrices();
        double[] lo = {Double.MAX_VALUE, Double.MAX_VALUE, Double.MAX_VALUE};
        double[] hi = {-Double.MAX_VALUE, -Double.MAX_VALUE, -Double.MAX_VALUE};
        for (int i = 0; i < rig.nodeCount(); i++) {
            for (int c = 0; c < 3; c++) {
                lo[c] = Math.min(lo[c], m[16 * i + 12 + c]);
                hi[c] = Math.max(hi[c], m[16 * i + 12 + c]);
            }
        }
        return Math.sqrt(sq(hi[0] - lo[0]) + sq(hi[1] - lo[1]) + sq(hi[2] - lo[2]));
    }

    // ---------------------------------------------------------------------------------------------------------------
    // 2. across formats

    /** BCN_Epileptic's joints (.x) → CMU's. */
    static Map<String, String> bcnMap() {
        Map<String, String> map = new LinkedHashMap<>();
        map.put("B_Root_Pelvis_L", "Hips");
        map.put("B_Spine1", "LowerBack");
        map.put("B_Spine2", "Spine");
        map.put("B_Spine4", "Spine1");
        map.put("B_Root_Neck_T", "Neck");
        map.put("B_Neck", "Head");
        for (String side : new String[] {"Left", "Right"}) {
            map.put("B_Hip_" + side, side + "UpLeg");
            map.put("B_Knee_" + side, side + "Leg");
            map.put("B_Ankle_" + side, side + "Foot");
            map.put("B_Toe_" + side, side + "ToeBase");
            map.put("B_Clavicle_" + side, side + "Shoulder");
            map.put("B_UpperArm_" + side, side + "Arm");
            map.put("B_ForeArm_" + side, side + "ForeArm");
            map.put("B_Hand_" + side, side + "Hand");
        }
        return map;
    }

    /** huesitos' Y-shaped chain (FBX) → CMU's hips and legs. */
    static Map<String, String> huesitosMap() {
        Map<String, String> map = new LinkedHashMap<>();
        map.put("Bone.001", "Hips");
        map.put("Bone.002", "LHipJoint");
        map.put("Bone.004", "LeftUpLeg");
        map.put("Bone.005", "LeftLeg");
        map.put("Bone.006", "LeftFoot");
        map.put("Bone.003", "RHipJoint");
        map.put("Bone.007", "RightUpLeg");
        map.put("Bone.008", "RightLeg");
        return map;
    }

    /** target → source joints through CMU's names: target → CMU composed with source → CMU inverted. */
    static Map<String, String> through(Map<String, String> targetToCmu, Map<String, String> sourceToCmu) {
        Map<String, String> cmuToSource = new LinkedHashMap<>();
        sourceToCmu.forEach((s, c) -> cmuToSource.put(c, s));
        Map<String, String> map = new LinkedHashMap<>();
        targetToCmu.forEach((t, c) -> {
            if (cmuToSource.containsKey(c)) {
                map.put(t, cmuToSource.get(c));
            }
        });
        return map;
    }

    static Stream<Arguments> acrossCases() {
        Map<String, String> rf = CmuJointMaps.riggedFigure();
        Map<String, String> cm = CmuJointMaps.cesiumMan();
        String iqmRules = "EXACT=4 NORMALISED=2 ROLE=8 ";
        return Stream.of(
                Arguments.of(CMU, "collada/RiggedFigure/RiggedFigure.dae", rf, 19, "MAP=19", 12, null),
                Arguments.of(CMU, "collada/CesiumMan/CesiumMan.dae", cm, 19, "MAP=19", 12, null),
                Arguments.of(CMU, "iqm/mrfixit/mrfixit.iqm", Map.of(), 17, iqmRules + "CHAIN=3", 7, null),
                Arguments.of(CMU, "x/BCN_Epileptic/BCN_Epileptic.X", bcnMap(), 26, "MAP=22 CHAIN=4", 13, null),
                Arguments.of(CMU, "fbx/huesitos/huesitos.fbx", huesitosMap(), 8, "MAP=8", 5, null),
                Arguments.of(CMU, "md5/SimpleCube/SimpleCube.md5mesh", Map.of("root", "Hips", "joint1", "Spine1"), 2,
                        "MAP=2", 1, null),
                Arguments.of("gltf/CesiumMan/CesiumMan.glb", "collada/RiggedFigure/RiggedFigure.dae", through(rf, cm), 19,
                        "MAP=19", 12, null),
                Arguments.of("collada/RiggedFigure/RiggedFigure.dae", "gltf/CesiumMan/CesiumMan.glb", through(cm, rf), 19,
                        "MAP=19", 12, null),
                Arguments.of("iqm/mrfixit/mrfixit.iqm", CMU, Map.of(), 21, iqmRules + "CHAIN=7", 6, "LowerArm.R"),
                Arguments.of("x/BCN_Epileptic/BCN_Epileptic.X", "gltf/RiggedFigure/RiggedFigure.glb", through(rf, bcnMap()),
                        19, "MAP=19", 12, null),
                Arguments.of("fbx/huesitos/huesitos.fbx", "gltf/RiggedSimple/RiggedSimple.glb", Map.of(), 2, "EXACT=2", 1,
                        null),
                Arguments.of("fbx/animation_with_skeleton/animation_with_skeleton.fbx",
                        "collada/RiggedSimple/riggedSimple.dae", Map.of(), 2, "EXACT=1 NORMALISED=1", 1, null));
    }

    /**
     * A clip of each format (BVH, glTF, COLLADA, IQM, .x, FBX; the only MD5 asset has no clip) onto a skeleton of
     * another (COLLADA, glTF, IQM, .x, FBX, MD5, BVH): no NaN in the tracks or the sampled matrices, the pairs counted
     * by rule, and every limb bone (a paired joint whose only driven joint below is a paired direct child) pointing
     * where the source's bone points within 1e-4 rad at every sample time. Automatic pairing where the names allow it
     * (CMU and mrfixit by name and role, the FBX chains onto RiggedSimple by name); otherwise a joint map: the CMU maps
     * of {@link RetargetConformanceTest}, one for BCN_Epileptic's {@code B_…_Left} names, CMU's hips and legs onto
     * huesitos' Y-shaped chain and onto SimpleCube's two joints (neither is a humanoid), and glTF ↔ COLLADA through
     * the CMU names.
     *
     * <p>One documented exception: mrfixit animates the translation of {@code LowerArm.R} (the elbow slides up to 1.5
     * mm along and off the upper arm); kept translations are off, so the target keeps its rest bone and follows the
     * rotation, and that one bone (CMU {@code RightArm → RightForeArm}) is off by the slide's angle, 9.0e-4 rad
     * (asserted between 1e-4 and 1e-3); the other five limbs are within 3.7e-6 rad.
     */
    @ParameterizedTest(name = "{0} onto {1}")
    @MethodSource("acrossCases")
    void aClipOfOneFormatOntoASkeletonOfAnother(String sourceAsset, String targetAsset, Map<String, String> map,
            int pairs, String ruleCounts, int limbCount, String slidingJoint) {
        assumeTrue(ConformanceData.available(), "../shared/conformance is absent");
        Model source = RetargetSupport.load(sourceAsset);
        Model target = RetargetSupport.load(targetAsset);
        Clip clip = source.clips().getFirst();
        Retargeter.Result result = Retargeter.retarget(target, source, new RetargetRequest(List.of(clip.name()), map,
                RetargetRequest.RootMotion.AUTO, null, false), 1000);
        RetargetReport report = result.report();
        Map<MatchRule, Integer> rules = new TreeMap<>();
        report.mapped().forEach(p -> rules.merge(p.rule(), 1, Integer::sum));
        Clip made = result.model().clips().getLast();
        for (Track t : made.tracks()) {
            for (float v : t.values()) {
                assertThat(Float.isFinite(v)).as("track values of %s", target.rig().name(t.node())).isTrue();
            }
        }
        Rig tr = target.rig();
        Rig sr = source.rig();
        List<int[]> limbs = limbs(tr, sr, report);
        float[] times = made.tracks().getFirst().times();
        double worst = 0;
        double sliding = 0;
        for (float time : times) {
            float[] s = Pose.evaluate(sr, clip, time).modelMatrices();
            float[] t = Pose.evaluate(tr, made, time).modelMatrices();
            for (float v : t) {
                assertThat(Float.isFinite(v)).isTrue();
            }
            for (int[] l : limbs) {
                double angle = RetargetSupport.angle(t, l[0], l[1], s, l[2], l[3]);
                assertThat(Double.isNaN(angle)).isFalse();
                if (sr.name(l[3]).equals(slidingJoint)) {
                    sliding = Math.max(sliding, angle);
                } else {
                    worst = Math.max(worst, angle);
                }
            }
        }
        List<String> limbNames = limbs.stream().map(l -> tr.name(l[0]) + ">" + tr.name(l[1])).toList();
        figure("across %s -> %s: %d pairs %s, root %s k=%.6g, %d limbs %s, %d samples, worst %s rad; pairs %s", sourceAsset,
                targetAsset, report.mapped().size(), rules, report.rootJoint(), report.rootScale(), limbs.size(),
                limbNames, times.length, worst + " (sliding " + sliding + ")", report.mapped().stream().map(p -> p.target() + "<" + p.source() + ":"
                        + p.rule()).toList());
        assertThat(worst).as("largest limb direction difference over %s samples, radians", times.length)
                .isLessThanOrEqualTo(1e-4);
        if (slidingJoint == null) {
            assertThat(sliding).isZero();
        } else {
            assertThat(sliding).as("the bone to %s, whose translation the source animates", slidingJoint)
                    .isBetween(1e-4, 1e-3);
            int node = sr.indexOf(slidingJoint);
            assertThat(clip.tracks()).anySatisfy(t -> {
                assertThat(t.node()).isEqualTo(node);
                assertThat(t.property()).isEqualTo(TrackProperty.TRANSLATION);
            });
        }
        assertThat(report.mapped()).hasSize(pairs);
        assertThat(rules).isEqualTo(expectedRules(ruleCounts));
        assertThat(limbNames).hasSize(limbCount);
    }

    private static Map<MatchRule, Integer> expectedRules(String counts) {
        Map<MatchRule, Integer> rules = new TreeMap<>();
        for (String part : counts.split(" ")) {
            String[] kv = part.split("=");
            rules.put(MatchRule.valueOf(kv[0]), Integer.parseInt(kv[1]));
        }
        return rules;
    }

    /**
     * The limb bones whose direction the method guarantees: a driven (paired, not chain) target joint whose only driven
     * joint below it (before another driven one) is a paired direct child; with the source joints they follow.
     * Each entry: target joint, target child, source joint, source child.
     */
    static List<int[]> limbs(Rig target, Rig source, RetargetReport report) {
        Map<Integer, Integer> sourceOf = new LinkedHashMap<>();
        Set<Integer> chain = new java.util.HashSet<>();
        for (RetargetReport.Pair p : report.mapped()) {
            if (p.rule() == MatchRule.CHAIN) {
                chain.add(target.indexOf(p.target()));
            } else {
                sourceOf.put(target.indexOf(p.target()), source.indexOf(p.source()));
            }
        }
        Map<Integer, List<Integer>> below = new LinkedHashMap<>();
        for (int j = 0; j < target.nodeCount(); j++) {
            if (!sourceOf.containsKey(j) && !chain.contains(j)) {
                continue;
            }
            int a = target.parent(j);
            while (a >= 0 && !sourceOf.containsKey(a) && !chain.contains(a)) {
                a = target.parent(a);
            }
            if (a >= 0) {
                below.computeIfAbsent(a, k -> new ArrayList<>()).add(j);
            }
        }
        List<int[]> limbs = new ArrayList<>();
        below.forEach((a, children) -> {
            int c = children.getFirst();
            if (children.size() == 1 && sourceOf.containsKey(a) && sourceOf.containsKey(c) && target.parent(c) == a) {
                limbs.add(new int[] {a, c, sourceOf.get(a), sourceOf.get(c)});
            }
        });
        return limbs;
    }
}
