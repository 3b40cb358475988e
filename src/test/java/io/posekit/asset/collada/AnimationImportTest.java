package io.posekit.asset.collada;

import static io.posekit.asset.collada.ColladaTestSupport.HALF;
import static io.posekit.asset.collada.ColladaTestSupport.assertInvalid;
import static io.posekit.asset.collada.ColladaTestSupport.build;
import static io.posekit.asset.collada.ColladaTestSupport.importDae;
import static io.posekit.asset.collada.ColladaTestSupport.node;
import static io.posekit.asset.collada.DaeBuilder.animation;
import static io.posekit.asset.collada.DaeBuilder.floats;
import static io.posekit.asset.collada.DaeBuilder.linear;
import static io.posekit.asset.collada.DaeBuilder.repeat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.posekit.asset.ImportScene;
import io.posekit.asset.Model;
import io.posekit.clip.Curve;
import io.posekit.clip.Interpolation;
import io.posekit.clip.NodeTransformTrack;
import io.posekit.clip.Track;
import io.posekit.clip.TrackProperty;
import io.posekit.math.Quaternions;
import io.posekit.sampling.CurveSampler;
import io.posekit.sampling.LocalPose;
import io.posekit.sampling.NodeTransformEvaluator;
import io.posekit.sampling.Pose;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Animations: matrix channels baked to TRS, element channels as exact curve stacks, curves, clips. */
class AnimationImportTest {

    private static final double[] IDENTITY = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};

    /** Row-major rotation about Z by {@code degrees} with translation (x, y, z). */
    private static double[] rz(double degrees, double x, double y, double z) {
        double c = Math.cos(Math.toRadians(degrees));
        double s = Math.sin(Math.toRadians(degrees));
        return new double[] {c, -s, 0, x, s, c, 0, y, 0, 0, 1, z, 0, 0, 0, 1};
    }

    private static double[] concat(double[]... parts) {
        int n = 0;
        for (double[] p : parts) {
            n += p.length;
        }
        double[] out = new double[n];
        int at = 0;
        for (double[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }

    private static DaeBuilder matrixNode() {
        return new DaeBuilder().node("<node id=\"n\" name=\"N\"><matrix sid=\"transform\">1 0 0 0 0 1 0 7 0 0 1 0 0 0 0 1"
                + "</matrix></node>");
    }

    private static Track track(ImportScene.Clip clip, TrackProperty property) {
        return clip.tracks().stream().filter(t -> t.property() == property).findFirst().orElseThrow();
    }

    @Test
    void matrixChannelsAreDecomposedIntoTrsTracks() {
        DaeBuilder b = matrixNode().animation(linear("a", "n/transform", new double[] {0, 1}, 16,
                concat(IDENTITY, rz(90, 1, 2, 3))));
        ImportScene s = importDae(b);
        ImportScene.Clip clip = s.clips().getFirst();
        assertThat(clip.name()).isEqualTo("default");
        assertThat(clip.duration()).isNull();
        assertThat(clip.nodeTransforms()).isEmpty();
        assertThat(clip.tracks()).extracting(Track::property)
                .containsExactly(TrackProperty.TRANSLATION, TrackProperty.ROTATION, TrackProperty.SCALE);
        assertThat(clip.tracks()).allSatisfy(t -> {
            assertThat(t.node()).isEqualTo(node(s, "N"));
            assertThat(t.interpolation()).isEqualTo(Interpolation.LINEAR);
            assertThat(t.times()).containsExactly(0, 1);
        });
        assertThat(track(clip, TrackProperty.TRANSLATION).values()).containsExactly(new float[] {0, 0, 0, 1, 2, 3}, within(1e-6f));
        assertThat(track(clip, TrackProperty.ROTATION).values())
                .containsExactly(new float[] {0, 0, 0, 1, 0, 0, HALF, HALF}, within(1e-6f));
        assertThat(track(clip, TrackProperty.SCALE).values()).containsExactly(new float[] {1, 1, 1, 1, 1, 1}, within(1e-6f));
        Model model = build(b);
        assertThat(model.clips().getFirst().duration()).isEqualTo(1);
    }

    @Test
    void elementIndexChannelsAreEvaluatedAtTheUnionOfKeyTimes() {
        // transform(0)(3) is row 0, column 3: the x translation; transform(2)(3) the z translation (one key)
        DaeBuilder b = matrixNode()
                .animation(linear("x", "n/transform(0)(3)", new double[] {0, 1}, 1, 0, 4))
                .animation(linear("z", "n/transform(2)(3)", new double[] {0.5}, 1, 9));
        ImportScene.Clip clip = importDae(b).clips().getFirst();
        Track t = track(clip, TrackProperty.TRANSLATION);
        assertThat(t.times()).containsExactly(0, 0.5f, 1);
        assertThat(t.values()).containsExactly(new float[] {0, 7, 9, 2, 7, 9, 4, 7, 9}, within(1e-6f));
        assertThat(t.interpolation()).isEqualTo(Interpolation.LINEAR);
    }

    @Test
    void allStepMatrixChannelsGiveStepTracks() {
        DaeBuilder b = matrixNode().animation(animation("a", "n/transform", new double[] {0, 1, 2}, 16,
                concat(IDENTITY, rz(10, 0, 0, 0), rz(20, 0, 0, 0)), repeat("STEP", 3), null, null));
        assertThat(importDae(b).clips().getFirst().tracks()).allSatisfy(t ->
                assertThat(t.interpolation()).isEqualTo(Interpolation.STEP));
    }

    @Test
    void decomposedRotationKeysAreHemisphereContinuous() {
        DaeBuilder b = matrixNode().animation(linear("a", "n/transform", new double[] {0, 1, 2, 3}, 16,
                concat(rz(0, 0, 0, 0), rz(170, 0, 0, 0), rz(190, 0, 0, 0), rz(350, 0, 0, 0))));
        float[] r = track(importDae(b).clips().getFirst(), TrackProperty.ROTATION).values();
        for (int k = 1; k < 4; k++) {
            assertThat(Quaternions.dot(r, 4 * k - 4, r, 4 * k)).as("key %d", k).isPositive();
        }
        // 190° about Z continues past 180°: w turns negative instead of flipping the axis
        assertThat(r[4 * 2 + 2]).isCloseTo((float) Math.sin(Math.toRadians(95)), within(1e-6f));
        assertThat(r[4 * 2 + 3]).isCloseTo((float) Math.cos(Math.toRadians(95)), within(1e-6f));
    }

    /** Node n: translate t, rotate rx about X, as in BoxAnimated. */
    private static DaeBuilder boxNode() {
        return new DaeBuilder().node("<node id=\"n\" name=\"Box\"><translate sid=\"t\">0 0 0</translate>"
                + "<rotate sid=\"rx\">1 0 0 0</rotate></node>");
    }

    private static String tangents(String id, double... xy) {
        return floats(id, "XY", xy);
    }

    /** The node's local TRS at {@code t} through the runtime's evaluator. */
    private static LocalPose evaluate(ImportScene s, NodeTransformTrack track, double t) {
        LocalPose pose = new LocalPose(s.nodes().size());
        new NodeTransformEvaluator().evaluate(track, t, pose);
        return pose;
    }

    @Test
    void bezierTranslateMemberIsEvaluatedExactly() {
        double[] times = {0, 1.25, 2.5, 3.70833};
        DaeBuilder b = boxNode().animation(animation("y", "n/t.Y", times, 1, new double[] {0, 2.52, 2.52, 0},
                repeat("BEZIER", 4), tangents("y-in", -0.416667, 0, 0.833333, 2.52, 2.08333, 2.52, 3.30556, 0),
                tangents("y-out", 0.416667, 0, 1.66667, 2.52, 2.91667, 2.52, 4.11111, 0)));
        ImportScene s = importDae(b);
        ImportScene.Clip clip = s.clips().getFirst();
        assertThat(clip.tracks()).isEmpty();
        NodeTransformTrack stack = clip.nodeTransforms().getFirst();
        int box = node(s, "Box");
        assertThat(stack.node()).isEqualTo(box);
        assertThat(stack.elements()).hasSize(2);
        NodeTransformTrack.Translate translate = (NodeTransformTrack.Translate) stack.elements().get(0);
        assertThat(translate.x().keyCount()).isEqualTo(1);
        assertThat(translate.y().segments()).containsExactly(Curve.BEZIER, Curve.BEZIER, Curve.BEZIER);
        assertThat(translate.y().controls()).startsWith(0.416667f, 0, 0.833333f, 2.52f);
        for (double t : new double[] {0.05, 0.3, 0.625, 1.0, 1.2}) {
            // first segment: value 2.52·(3s² − 2s³) where time(s) = 3(1−s)²s·0.416667 + 3(1−s)s²·0.833333 + s³·1.25 = t
            double lo = 0;
            double hi = 1;
            for (int i = 0; i < 100; i++) {
                double m = (lo + hi) / 2;
                double time = 3 * (1 - m) * (1 - m) * m * 0.416667 + 3 * (1 - m) * m * m * 0.833333 + m * m * m * 1.25;
                if (time < t) {
                    lo = m;
                } else {
                    hi = m;
                }
            }
            double sParam = (lo + hi) / 2;
            double expected = 2.52 * (3 * sParam * sParam - 2 * sParam * sParam * sParam);
            LocalPose pose = evaluate(s, stack, t);
            assertThat((double) pose.translations()[3 * box + 1]).as("t=%s", t).isCloseTo(expected, within(1e-5));
            assertThat(pose.translations()[3 * box]).isZero();
        }
        // on the plateau between keys 1 and 2 the value holds at 2.52
        assertThat(evaluate(s, stack, 1.9).translations()[3 * box + 1]).isCloseTo(2.52f, within(1e-5f));
    }

    @Test
    void rotateAngleChannelTurnsAboutTheStaticAxis() {
        DaeBuilder b = new DaeBuilder().node("<node id=\"n\" name=\"N\"><rotate sid=\"rz\">0 0 1 0</rotate></node>")
                .animation(linear("a", "n/rz.ANGLE", new double[] {0, 1}, 1, 0, 90));
        ImportScene s = importDae(b);
        NodeTransformTrack stack = s.clips().getFirst().nodeTransforms().getFirst();
        NodeTransformTrack.Rotate rotate = (NodeTransformTrack.Rotate) stack.elements().getFirst();
        assertThat(new float[] {rotate.axisX(), rotate.axisY(), rotate.axisZ()}).containsExactly(0, 0, 1);
        LocalPose pose = evaluate(s, stack, 0.5);
        int n = node(s, "N");
        float half = (float) Math.toRadians(22.5);
        assertThat(Arrays.copyOfRange(pose.rotations(), 4 * n, 4 * n + 4))
                .containsExactly(new float[] {0, 0, (float) Math.sin(half), (float) Math.cos(half)}, within(1e-6f));
        // the same through the whole runtime path
        Model model = build(b);
        Pose p = Pose.evaluate(model.rig(), model.clips().getFirst(), 0.5);
        int r = model.rig().indexOf("N");
        assertThat(p.local().rotations()[4 * r + 2]).isCloseTo((float) Math.sin(half), within(1e-6f));
    }

    @Test
    void fullRotateChannelsAnimateTheAngleAndWarnWhenTheAxisChanges() {
        DaeBuilder same = new DaeBuilder().node("<node id=\"n\"><rotate sid=\"r\">0 1 0 0</rotate></node>")
                .animation(linear("a", "n/r", new double[] {0, 1}, 4, 0, 2, 0, 10, 0, 1, 0, 20));
        ImportScene s = importDae(same);
        assertThat(s.warnings()).isEmpty();
        Curve angle = ((NodeTransformTrack.Rotate) s.clips().getFirst().nodeTransforms().getFirst().elements().getFirst())
                .angleDegrees();
        assertThat(angle.values()).containsExactly(10, 20);
        DaeBuilder changing = new DaeBuilder().node("<node id=\"n\"><rotate sid=\"r\">0 1 0 0</rotate></node>")
                .animation(linear("a", "n/r", new double[] {0, 1}, 4, 0, 1, 0, 10, 1, 0, 0, 20));
        assertThat(importDae(changing).warnings()).containsExactly("animation 'a' channel 'n/r': the keys change the "
                + "rotation axis; only the angle is animated, about the static axis");
    }

    @Test
    void theWholeElementStackBecomesCurvesWithConstantsWhereNotAnimated() {
        DaeBuilder b = new DaeBuilder().node("<node id=\"n\"><translate sid=\"t\">1 2 3</translate>"
                + "<rotate sid=\"r\">0 0 1 30</rotate><matrix sid=\"m\">1 0 0 5 0 1 0 0 0 0 1 0 0 0 0 1</matrix>"
                + "<scale sid=\"s\">2 2 2</scale></node>")
                .animation(linear("a", "n/t.X", new double[] {0, 2}, 1, 1, 3));
        ImportScene s = importDae(b);
        List<NodeTransformTrack.Element> elements = s.clips().getFirst().nodeTransforms().getFirst().elements();
        assertThat(elements).hasSize(4);
        NodeTransformTrack.Translate t = (NodeTransformTrack.Translate) elements.get(0);
        assertThat(t.x().values()).containsExactly(1, 3);
        assertThat(t.y().values()).containsExactly(2);
        assertThat(t.z().values()).containsExactly(3);
        assertThat(((NodeTransformTrack.Rotate) elements.get(1)).angleDegrees().values()).containsExactly(30);
        // a static matrix is kept as 16 constants, column-major: the translation 5 is at index 12
        List<Curve> m = ((NodeTransformTrack.Matrix) elements.get(2)).elements();
        assertThat(m.get(12).values()).containsExactly(5);
        assertThat(m.get(3).values()).containsExactly(0);
        assertThat(((NodeTransformTrack.Scale) elements.get(3)).z().values()).containsExactly(2);
        // at t = 1: T(2,2,3) · Rz(30) · T(5,0,0) · S(2)
        Model model = build(b);
        Pose p = Pose.evaluate(model.rig(), model.clips().getFirst(), 1);
        int n = model.rig().indexOf("n");
        double c = Math.cos(Math.toRadians(30));
        double sn = Math.sin(Math.toRadians(30));
        assertThat(p.local().translations()[3 * n]).isCloseTo((float) (2 + 5 * c), within(1e-5f));
        assertThat(p.local().translations()[3 * n + 1]).isCloseTo((float) (2 + 5 * sn), within(1e-5f));
        assertThat(p.local().scales()[3 * n]).isCloseTo(2, within(1e-6f));
    }

    @Test
    void stepAndHermiteAndLegacyBezierCurves() {
        DaeBuilder step = boxNode().animation(animation("a", "n/t.X", new double[] {0, 1, 2}, 1, new double[] {1, 2, 3},
                repeat("STEP", 3), null, null));
        Curve x = ((NodeTransformTrack.Translate) importDae(step).clips().getFirst().nodeTransforms().getFirst()
                .elements().getFirst()).x();
        assertThat(x.segments()).containsExactly(Curve.STEP, Curve.STEP);
        assertThat(CurveSampler.evaluate(x, 0.99)).isEqualTo(1);
        assertThat(CurveSampler.evaluate(x, 1)).isEqualTo(2);

        // HERMITE from (0,0) to (1,3) with tangents 3 and 0: Bézier controls P0 + T0/3 = (⅓, 1), P1 − T1/3 = (⅔, 3)
        DaeBuilder hermite1d = boxNode().animation(animation("a", "n/t.X", new double[] {0, 1}, 1, new double[] {0, 3},
                repeat("HERMITE", 2), floats("a-in", "V", 0, 0), floats("a-out", "V", 3, 0)));
        DaeBuilder hermite2d = boxNode().animation(animation("a", "n/t.X", new double[] {0, 1}, 1, new double[] {0, 3},
                repeat("HERMITE", 2), tangents("a-in", 1, 0, 1, 0), tangents("a-out", 1, 3, 1, 3)));
        for (DaeBuilder b : List.of(hermite1d, hermite2d)) {
            Curve h = ((NodeTransformTrack.Translate) importDae(b).clips().getFirst().nodeTransforms().getFirst()
                    .elements().getFirst()).x();
            assertThat(h.segments()).containsExactly(Curve.BEZIER);
            assertThat(h.controls()).containsExactly(new float[] {1 / 3f, 1, 2 / 3f, 3}, within(1e-6f));
            // the Hermite polynomial at s = ½: (s³−2s²+s)·3 + (−2s³+3s²)·3 = 1.875
            assertThat(CurveSampler.evaluate(h, 0.5)).isCloseTo(1.875, within(1e-6));
        }

        // legacy 1-D Bézier tangents: control times at the thirds; value 3·(3s² − 2s³) with s = t/3
        DaeBuilder legacy = boxNode().animation(animation("a", "n/t.X", new double[] {0, 3}, 1, new double[] {0, 3},
                repeat("BEZIER", 2), floats("a-in", "V", 0, 3), floats("a-out", "V", 0, 3)));
        Curve l = ((NodeTransformTrack.Translate) importDae(legacy).clips().getFirst().nodeTransforms().getFirst()
                .elements().getFirst()).x();
        assertThat(l.controls()).containsExactly(new float[] {1, 0, 2, 3}, within(1e-6f));
        assertThat(CurveSampler.evaluate(l, 0.75)).isCloseTo(3 * (3 * 0.0625 - 2 * 0.015625), within(1e-6));
    }

    @Test
    void clipsShiftTheirKeysAndGetDistinctNames() {
        DaeBuilder b = boxNode()
                .animation(linear("walk-x", "n/t.X", new double[] {0.5, 1.5}, 1, 0, 1))
                .animation("<animation id=\"parent\">" + linear("nested-y", "n/t.Y", new double[] {0, 2}, 1, 0, 2)
                        + "</animation>")
                .animation(linear("unused", "n/t.Z", new double[] {0, 1}, 1, 0, 1))
                .clip("<animation_clip name=\"walk\" start=\"0.5\" end=\"1.5\"><instance_animation url=\"#walk-x\"/></animation_clip>")
                .clip("<animation_clip id=\"by-id\" end=\"2\"><instance_animation url=\"#parent\"/></animation_clip>")
                .clip("<animation_clip><instance_animation url=\"#nested-y\"/></animation_clip>")
                .clip("<animation_clip name=\"walk\" start=\"0\" end=\"1\"><instance_animation url=\"#walk-x\"/></animation_clip>");
        ImportScene s = importDae(b);
        assertThat(s.clips()).extracting(ImportScene.Clip::name).containsExactly("walk", "by-id", "animation_clip_2", "walk_2");
        assertThat(s.clips()).extracting(ImportScene.Clip::duration).containsExactly(1.0, 2.0, null, 1.0);
        Curve shifted = ((NodeTransformTrack.Translate) s.clips().get(0).nodeTransforms().getFirst().elements().getFirst()).x();
        assertThat(shifted.times()).containsExactly(0, 1);
        Curve unshifted = ((NodeTransformTrack.Translate) s.clips().get(3).nodeTransforms().getFirst().elements().getFirst()).x();
        assertThat(unshifted.times()).containsExactly(0.5f, 1.5f);
        // instancing a parent animation brings its nested ones
        Curve nested = ((NodeTransformTrack.Translate) s.clips().get(1).nodeTransforms().getFirst().elements().getFirst()).y();
        assertThat(nested.values()).containsExactly(0, 2);
        assertThat(s.warnings()).containsExactly("1 animation channel is not part of any <animation_clip>; ignored");
        Model model = build(b);
        assertThat(model.clips()).extracting(io.posekit.clip.Clip::duration).containsExactly(1.0, 2.0, 2.0, 1.0);
        // where each clip lies in the document's scene time: its start (0 when it states none)
        assertThat(s.clips()).extracting(ImportScene.Clip::sceneStart).containsExactly(0.5, 0.0, 0.0, 0.0);
        assertThat(model.clips()).extracting(io.posekit.clip.Clip::sceneStart).containsExactly(0.5, 0.0, 0.0, 0.0);
        assertThat(model.clips()).extracting(io.posekit.clip.Clip::sceneEnd).containsExactly(1.5, 2.0, 2.0, 1.0);
    }

    @Test
    void clipStartShiftsBakedMatrixKeysToo() {
        DaeBuilder b = matrixNode().animation(linear("a", "n/transform", new double[] {1, 2}, 16,
                concat(IDENTITY, rz(90, 0, 0, 0))))
                .clip("<animation_clip name=\"c\" start=\"1\" end=\"2\"><instance_animation url=\"#a\"/></animation_clip>");
        ImportScene.Clip clip = importDae(b).clips().getFirst();
        assertThat(track(clip, TrackProperty.ROTATION).times()).containsExactly(0, 1);
        assertThat(clip.duration()).isEqualTo(1.0);
    }

    @Test
    void animatedLibraryNodesAnimateEveryInstance() {
        DaeBuilder b = new DaeBuilder().libraryNode("<node id=\"lib\" name=\"Lib\"><translate sid=\"t\">0 0 0</translate></node>")
                .node("<node id=\"a\"><instance_node url=\"#lib\"/><instance_node url=\"#lib\"/></node>")
                .animation(linear("a", "lib/t.X", new double[] {0, 1}, 1, 0, 1));
        ImportScene s = importDae(b);
        assertThat(s.clips().getFirst().nodeTransforms()).extracting(NodeTransformTrack::node).containsExactly(2, 3);
        build(b);
    }

    @Test
    void channelsToUnknownTargetsAreSkippedWithWarnings() {
        DaeBuilder b = boxNode()
                .animation(linear("a1", "ghost/t.X", new double[] {0}, 1, 0))
                .animation(linear("a2", "n/nosid", new double[] {0}, 1, 0))
                .animation(linear("a3", "n/t.W", new double[] {0}, 1, 0))
                .animation(linear("a4", "n/rx(0)", new double[] {0}, 1, 0))
                .animation(linear("a5", "n", new double[] {0}, 1, 0))
                .animation(linear("a6", "n/t.X", new double[] {0, 1}, 1, 0, 1));
        ImportScene s = importDae(b);
        assertThat(s.warnings()).containsExactly(
                "animation 'a1' channel 'ghost/t.X': 'ghost' is not a node of the scene; skipped",
                "animation 'a2' channel 'n/nosid': node 'n' has no transform element with sid 'nosid'; skipped",
                "animation 'a3' channel 'n/t.W': '.W' is not a parameter of <translate>; skipped",
                "animation 'a4' channel 'n/rx(0)': animating a rotation's axis is not supported; skipped",
                "animation 'a5' channel 'n' does not address a transform element (id/sid); skipped");
        assertThat(s.clips().getFirst().nodeTransforms()).hasSize(1);
    }

    @Test
    void malformedSamplersAreRejected() {
        assertInvalid(() -> importDae(boxNode().animation(linear("a", "n/t", new double[] {0, 1}, 2, 0, 0, 1, 1))),
                "animation 'a' channel 'n/t': sampler 'a-sampler' has 2 output values per key but <translate> needs 3");
        assertInvalid(() -> importDae(boxNode().animation(linear("a", "n/t.X", new double[] {0, 1}, 3, 0, 0, 0, 1, 1, 1))),
                "animation 'a' channel 'n/t.X': sampler 'a-sampler' has 3 output values per key but the target is a single value");
        assertInvalid(() -> importDae(boxNode().animation(linear("a", "n/t.X", new double[] {1, 0.5}, 1, 0, 1))),
                "sampler 'a-sampler': INPUT key 1 time 0.5 is less than key 0 time 1.0");
        String mismatch = linear("a", "n/t.X", new double[] {0, 1, 2}, 1, 0, 1);
        assertInvalid(() -> importDae(boxNode().animation(mismatch)),
                "sampler 'a-sampler': OUTPUT source 'a-output' has 2 elements but INPUT source 'a-input' has 3 keys");
        assertInvalid(() -> importDae(boxNode().animation(animation("a", "n/t.X", new double[] {0, 1}, 1,
                new double[] {0, 1}, repeat("LINEAR", 3), null, null))),
                "sampler 'a-sampler': INTERPOLATION source 'a-interp' has 3 elements but there are 2 keys");
    }

    @Test
    void unsupportedInterpolationsFallBackToLinear() {
        DaeBuilder b = boxNode().animation(animation("a", "n/t.X", new double[] {0, 1}, 1, new double[] {0, 1},
                repeat("BSPLINE", 2), null, null));
        ImportScene s = importDae(b);
        assertThat(s.warnings()).containsExactly("sampler 'a-sampler': interpolation 'BSPLINE' is not supported; LINEAR is used");
        DaeBuilder noTangents = boxNode().animation(animation("a", "n/t.X", new double[] {0, 1}, 1, new double[] {0, 1},
                repeat("BEZIER", 2), null, null));
        assertThat(importDae(noTangents).warnings()).containsExactly(
                "sampler 'a-sampler': BEZIER/HERMITE keys without IN_TANGENT and OUT_TANGENT are interpolated linearly");
    }
}
