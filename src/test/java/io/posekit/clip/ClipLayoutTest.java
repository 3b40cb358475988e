package io.posekit.clip;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The invariants of {@link ClipLayout}: what it groups, where each value lands, what it says about the clip. */
class ClipLayoutTest {

    private static final float[] SHARED = {0, 0.5f, 1, 1, 2};

    private static Track track(int node, TrackProperty property, Interpolation interpolation, float[] times,
            float... values) {
        int n = property == TrackProperty.ROTATION ? 4 : 3;
        return new Track(node, property, interpolation, n, times, values);
    }

    /** {@code keys} keys of distinct values, {@code perKey} floats each, starting at {@code start}. */
    private static float[] ramp(int keys, int perKey, float start) {
        float[] v = new float[keys * perKey];
        for (int i = 0; i < v.length; i++) {
            v[i] = start + i;
        }
        return v;
    }

    @Test
    void tracksAreGroupedByTimeBasePropertyAndInterpolationWithValuesKeyMajor() {
        float[] equalCopy = SHARED.clone();
        float[] own = {0, 3};
        Track r0 = track(0, TrackProperty.ROTATION, Interpolation.LINEAR, SHARED, ramp(5, 4, 0));
        Track t0 = track(0, TrackProperty.TRANSLATION, Interpolation.LINEAR, SHARED, ramp(5, 3, 100));
        Track r1 = track(1, TrackProperty.ROTATION, Interpolation.LINEAR, equalCopy, ramp(5, 4, 200));
        Track r2 = track(2, TrackProperty.ROTATION, Interpolation.CUBICSPLINE, SHARED, ramp(5, 12, 300));
        Track r3 = track(3, TrackProperty.ROTATION, Interpolation.CUBICSPLINE, SHARED, ramp(5, 12, 400));
        Track s3 = track(3, TrackProperty.SCALE, Interpolation.STEP, own, ramp(2, 3, 500));
        Clip clip = Clip.of("c", List.of(r0, t0, r1, r2, r3, s3));
        ClipLayout layout = clip.layout();

        assertThat(layout.wellFormed()).isTrue();
        assertThat(layout.minNode()).isZero();
        assertThat(layout.maxNode()).isEqualTo(3);
        // the shared array and its equal copy are one time base; the scale track's own times another
        assertThat(layout.timeBaseCount()).isEqualTo(2);
        assertThat(layout.times(0)).isSameAs(SHARED);
        assertThat(layout.times(1)).isSameAs(own);
        assertThat(layout.firstGroup(0)).isZero();
        assertThat(layout.firstGroup(1)).isEqualTo(3);
        assertThat(layout.firstGroup(2)).isEqualTo(4);
        assertThat(layout.groupCount()).isEqualTo(4);
        assertThat(layout.constantGroupCount()).isZero();

        ClipLayout.Group rotations = layout.group(0);
        assertThat(rotations.property()).isEqualTo(TrackProperty.ROTATION);
        assertThat(rotations.interpolation()).isEqualTo(Interpolation.LINEAR);
        assertThat(rotations.nodes()).containsExactly(0, 1);
        // LINEAR rotations component-major: key 0's x of node 0 and node 1, their y, z, w; then key 1's, …
        assertThat(rotations.componentMajor()).isTrue();
        assertThat(Arrays.copyOfRange(rotations.values(), 0, 12)).containsExactly(0, 200, 1, 201, 2, 202, 3, 203, 4,
                204, 5, 205);
        assertThat(rotations.index(1, 1, 2)).isEqualTo(8 + 2 * 2 + 1);
        assertThat(layout.group(1).nodes()).containsExactly(0);
        // a group of one track shares the track's array
        assertThat(layout.group(1).values()).isSameAs(t0.values());
        ClipLayout.Group cubic = layout.group(2);
        assertThat(cubic.interpolation()).isEqualTo(Interpolation.CUBICSPLINE);
        assertThat(cubic.stride()).isEqualTo(12);
        assertThat(Arrays.copyOfRange(cubic.values(), 12, 24)).containsExactly(ramp(1, 12, 400));
        assertThat(layout.group(3).values()).isSameAs(s3.values());
        assertThat(layout.group(3).timeBase()).isEqualTo(1);
        // two copies: the 2-track rotation groups (LINEAR 2 × 20 floats, CUBICSPLINE 2 × 60)
        assertThat(layout.footprintBytes()).isGreaterThanOrEqualTo(4L * (40 + 120))
                .isLessThanOrEqualTo(ClipLayout.maxFootprintBytes(clip.tracks()));
    }

    @Test
    void constantTranslationsAndScalesKeepOneValueButNotRotationsSplinesNegativeZeroOrNonFinite() {
        float[] times = {0, 1, 2};
        Track constant = track(0, TrackProperty.TRANSLATION, Interpolation.LINEAR, times, 1, 2, 3, 1, 2, 3, 1, 2, 3);
        Track constantStep = track(1, TrackProperty.SCALE, Interpolation.STEP, times, 0, 2, 0, 0, 2, 0, 0, 2, 0);
        Track single = track(2, TrackProperty.TRANSLATION, Interpolation.LINEAR, new float[] {4}, 7, 8, 9);
        Track negativeZero = track(3, TrackProperty.TRANSLATION, Interpolation.LINEAR, times, 1, -0f, 3, 1, -0f, 3,
                1, -0f, 3);
        Track nan = track(4, TrackProperty.SCALE, Interpolation.STEP, times, 1, Float.NaN, 3, 1, Float.NaN, 3, 1,
                Float.NaN, 3);
        Track rotation = track(5, TrackProperty.ROTATION, Interpolation.LINEAR, times, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0,
                0, 1);
        Track spline = track(6, TrackProperty.TRANSLATION, Interpolation.CUBICSPLINE, new float[] {0},
                0, 0, 0, 1, 1, 1, 0, 0, 0);
        Track varying = track(7, TrackProperty.TRANSLATION, Interpolation.LINEAR, times, 1, 2, 3, 1, 2, 3, 1, 2, 4);
        ClipLayout layout = Clip.of("c", List.of(constant, constantStep, single, negativeZero, nan, rotation, spline,
                varying)).layout();
        assertThat(layout.constantGroupCount()).isEqualTo(2);
        ClipLayout.Group translations = layout.constantGroup(0);
        assertThat(translations.property()).isEqualTo(TrackProperty.TRANSLATION);
        assertThat(translations.timeBase()).isEqualTo(-1);
        assertThat(translations.nodes()).containsExactly(0, 2);
        assertThat(translations.values()).containsExactly(1, 2, 3, 7, 8, 9);
        assertThat(layout.constantGroup(1).nodes()).containsExactly(1);
        assertThat(layout.constantGroup(1).values()).containsExactly(0, 2, 0);
        List<Integer> keyed = new ArrayList<>();
        for (int g = 0; g < layout.groupCount(); g++) {
            for (int node : layout.group(g).nodes()) {
                keyed.add(node);
            }
        }
        assertThat(keyed).containsExactlyInAnyOrder(3, 4, 5, 6, 7);
    }

    @Test
    void restRunsAreTheNodesNoTrackDrivesAndTheLastOfTwoTracksWins() {
        float[] times = {0, 1};
        Track early = track(4, TrackProperty.TRANSLATION, Interpolation.LINEAR, times, ramp(2, 3, 0));
        Track late = track(4, TrackProperty.TRANSLATION, Interpolation.LINEAR, times, ramp(2, 3, 50));
        Track other = track(1, TrackProperty.TRANSLATION, Interpolation.LINEAR, times, ramp(2, 3, 10));
        Track rotation = track(0, TrackProperty.ROTATION, Interpolation.STEP, times, ramp(2, 4, 0));
        Track weights = new Track(9, TrackProperty.WEIGHTS, Interpolation.LINEAR, 1, times, new float[] {0, 1});
        ClipLayout layout = Clip.of("c", List.of(early, other, rotation, late, weights)).layout();
        // translations drive 1 and 4: 0 and 2..3 come from the rest pose, and everything from 5 on
        assertThat(layout.restRuns(TrackProperty.TRANSLATION)).containsExactly(0, 1, 2, 4);
        assertThat(layout.coveredEnd(TrackProperty.TRANSLATION)).isEqualTo(5);
        assertThat(layout.restRuns(TrackProperty.ROTATION)).isEmpty();
        assertThat(layout.coveredEnd(TrackProperty.ROTATION)).isEqualTo(1);
        assertThat(layout.restRuns(TrackProperty.SCALE)).isEmpty();
        assertThat(layout.coveredEnd(TrackProperty.SCALE)).isZero();
        // morph weights are not compiled, but their node counts for the range a rig must cover
        assertThat(layout.maxNode()).isEqualTo(9);
        ClipLayout.Group translations = layout.group(0);
        assertThat(translations.nodes()).containsExactly(1, 4);
        assertThat(Arrays.copyOfRange(translations.values(), 0, 6)).containsExactly(10, 11, 12, 50, 51, 52);
    }

    @Test
    void malformedClipsAreReportedAndNotCompiled() {
        float[] times = {0};
        ClipLayout badRotation = Clip.of("c", List.of(new Track(0, TrackProperty.ROTATION, Interpolation.LINEAR, 3,
                times, new float[] {0, 0, 0}))).layout();
        assertThat(badRotation.wellFormed()).isFalse();
        assertThat(badRotation.groupCount()).isZero();
        ClipLayout negative = Clip.of("c", List.of(track(-1, TrackProperty.SCALE, Interpolation.LINEAR, times, 1, 1,
                1))).layout();
        assertThat(negative.wellFormed()).isTrue();
        assertThat(negative.minNode()).isEqualTo(-1);
        assertThat(negative.groupCount()).isZero();
        ClipLayout empty = Clip.of("c", List.of()).layout();
        assertThat(empty.minNode()).isZero();
        assertThat(empty.maxNode()).isEqualTo(-1);
        assertThat(empty.timeBaseCount()).isZero();
        assertThat(empty.coveredEnd(TrackProperty.ROTATION)).isZero();
    }

    @Test
    void onRandomClipsEveryTrackValueIsWhereTheLayoutSays() {
        SplittableRandom random = new SplittableRandom(23);
        for (int round = 0; round < 200; round++) {
            List<float[]> bases = List.of(new float[] {0, 1, 2}, new float[] {0, 0.5f}, new float[] {1});
            List<Track> tracks = new ArrayList<>();
            int nodes = 1 + random.nextInt(10);
            for (int node = 0; node < nodes; node++) {
                for (TrackProperty p : new TrackProperty[] {TrackProperty.TRANSLATION, TrackProperty.ROTATION,
                    TrackProperty.SCALE}) {
                    if (random.nextInt(3) == 0) {
                        continue;
                    }
                    float[] times = bases.get(random.nextInt(3));
                    times = random.nextBoolean() ? times : times.clone();
                    Interpolation in = Interpolation.values()[random.nextInt(3)];
                    int n = p == TrackProperty.ROTATION ? 4 : 3;
                    int perKey = in == Interpolation.CUBICSPLINE ? 3 * n : n;
                    tracks.add(new Track(node, p, in, n, times, ramp(times.length, perKey, random.nextInt(1000))));
                }
            }
            Clip clip = Clip.of("r", tracks);
            ClipLayout layout = clip.layout();
            assertThat(clip.layout()).isSameAs(layout);
            Map<Long, Track> seen = new HashMap<>();
            for (int b = 0; b < layout.timeBaseCount(); b++) {
                for (int g = layout.firstGroup(b); g < layout.firstGroup(b + 1); g++) {
                    ClipLayout.Group group = layout.group(g);
                    assertThat(group.timeBase()).isEqualTo(b);
                    for (int i = 0; i < group.count(); i++) {
                        Track t = find(tracks, group.nodes()[i], group.property());
                        assertThat(seen.put((long) group.property().ordinal() << 32 | t.node(), t)).isNull();
                        assertThat(t.times()).containsExactly(layout.times(b));
                        assertThat(t.interpolation()).isEqualTo(group.interpolation());
                        int stride = group.stride();
                        for (int k = 0; k < t.keyCount(); k++) {
                            for (int c = 0; c < stride; c++) {
                                assertThat(group.values()[group.index(k, i, c)]).isEqualTo(t.values()[k * stride + c]);
                            }
                        }
                    }
                }
            }
            // ramps are never constant unless single-keyed
            for (int c = 0; c < layout.constantGroupCount(); c++) {
                ClipLayout.Group group = layout.constantGroup(c);
                for (int i = 0; i < group.count(); i++) {
                    Track t = find(tracks, group.nodes()[i], group.property());
                    assertThat(seen.put((long) group.property().ordinal() << 32 | t.node(), t)).isNull();
                    assertThat(Arrays.copyOfRange(group.values(), 3 * i, 3 * i + 3))
                            .containsExactly(Arrays.copyOf(t.values(), 3));
                }
            }
            assertThat(seen).hasSize(tracks.size());
            assertThat(layout.footprintBytes()).isLessThanOrEqualTo(ClipLayout.maxFootprintBytes(tracks));
            assertThat(clip.footprintBytes()).isEqualTo(Clip.of("r", tracks).footprintBytes()
                    - ClipLayout.maxFootprintBytes(tracks) + layout.footprintBytes());
        }
    }

    private static Track find(List<Track> tracks, int node, TrackProperty property) {
        return tracks.stream().filter(t -> t.node() == node && t.property() == property).findFirst().orElseThrow();
    }

    @Test
    void aClipKeepsValueSemantics() {
        Track t = track(0, TrackProperty.SCALE, Interpolation.LINEAR, SHARED, ramp(5, 3, 0));
        Clip a = Clip.of("a", List.of(t));
        Clip b = new Clip("a", a.duration(), List.of(t), List.of());
        a.layout();
        assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
        assertThat(a).isNotEqualTo(new Clip("b", a.duration(), List.of(t), List.of()));
        assertThat(a.toString()).startsWith("Clip[name=a, duration=2.0, tracks=[Track[");
    }
}
