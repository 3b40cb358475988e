package io.posekit.export;

import static org.assertj.core.api.Assertions.assertThat;

import io.posekit.clip.TrackProperty;
import io.posekit.math.Quaternions;
import org.junit.jupiter.api.Test;

/**
 * Known answers and invariants of {@link KeyReduction}: collinear keys go, a kink stays, every check frame stays within
 * the tolerance (or within what the full candidate set missed it by), and a rotation's error is its angle.
 */
class KeyReductionTest {

    private static float[] frames(int n) {
        float[] f = new float[n];
        for (int i = 0; i < n; i++) {
            f[i] = (float) (i / 60.0);
        }
        return f;
    }

    private static int[] all(int n) {
        int[] c = new int[n];
        for (int i = 0; i < n; i++) {
            c[i] = i;
        }
        return c;
    }

    @Test
    void aStraightLineKeepsItsEnds() {
        float[] f = frames(61);
        float[] v = new float[3 * 61];
        for (int i = 0; i < 61; i++) {
            v[3 * i] = i; // one unit per frame along x
        }
        // tolerance 0 would keep keys: float32 frame times make the line's lerp miss by a few ulps
        KeyReduction.Reduced r = KeyReduction.reduce(TrackProperty.TRANSLATION, f, v, all(61), 1e-4);
        assertThat(r.times()).containsExactly(0, 1);
        assertThat(r.values()).containsExactly(0, 0, 0, 60, 0, 0);
        assertThat(r.keysBefore()).isEqualTo(61);
        assertThat(r.maxError()).isLessThan(1e-5);
    }

    @Test
    void aKinkStays() {
        float[] f = frames(21);
        float[] v = new float[3 * 21];
        for (int i = 0; i < 21; i++) {
            v[3 * i + 1] = Math.min(i, 10); // up for 10 frames, then flat
        }
        KeyReduction.Reduced r = KeyReduction.reduce(TrackProperty.TRANSLATION, f, v, all(21), 1e-4);
        assertThat(r.times()).containsExactly(f[0], f[10], f[20]);
        assertThat(r.maxError()).isLessThan(1e-5);
    }

    @Test
    void everyFrameStaysWithinTheTolerance() {
        int n = 241;
        float[] f = frames(n);
        float[] q = new float[4 * n];
        for (int i = 0; i < n; i++) {
            double angle = Math.sin(f[i]) * 0.5; // swinging slowly about a tilted axis
            double s = Math.sin(angle / 2);
            Quaternions.normalizeTo(0.6 * s, 0.8 * s, 0, Math.cos(angle / 2), q, 4 * i);
        }
        double tolerance = 1e-3;
        KeyReduction.Reduced r = KeyReduction.reduce(TrackProperty.ROTATION, f, q, all(n), tolerance);
        assertThat(r.keysAfter()).isLessThan(n / 4);
        assertThat(r.maxError()).isLessThanOrEqualTo(tolerance);
        // play the reduced keys back as glTF LINEAR does (slerp) at every frame
        float[] out = new float[4];
        for (int i = 0, k = 0; i < n; i++) {
            while (k + 2 < r.times().length && r.times()[k + 1] <= f[i]) {
                k++;
            }
            double s = (f[i] - r.times()[k]) / (r.times()[k + 1] - r.times()[k]);
            Quaternions.slerp(r.values(), 4 * k, r.values(), 4 * k + 4, Math.min(1, s), out, 0);
            assertThat(KeyReduction.angle(out, 0, q, 4 * i)).as("frame %d", i).isLessThanOrEqualTo(tolerance + 1e-9);
        }
    }

    @Test
    void aCoarseGridNeverGetsWorseThanItWas() {
        float[] f = frames(61);
        float[] v = new float[3 * 61];
        for (int i = 0; i < 61; i++) {
            v[3 * i + 2] = (float) Math.sin(i / 60.0 * Math.PI); // an arch
        }
        int[] every10 = {0, 10, 20, 30, 40, 50, 60};
        KeyReduction.Reduced r = KeyReduction.reduce(TrackProperty.TRANSLATION, f, v, every10, 0);
        // the grid misses the arch between its keys; with tolerance 0 nothing more may be lost: every key stays
        assertThat(r.keysAfter()).isEqualTo(7);
        assertThat(r.maxError()).isGreaterThan(0).isLessThan(0.04);
    }

    @Test
    void theAngleBetweenRotationsIgnoresTheirSign() {
        float s = (float) Math.sin(0.05);
        float c = (float) Math.cos(0.05);
        float[] a = {0, 0, 0, 1};
        float[] b = {0, 0, -s, -c}; // 0.1 rad about z, the other sign
        assertThat(KeyReduction.angle(a, 0, b, 0)).isCloseTo(0.1, org.assertj.core.data.Offset.offset(1e-7));
        assertThat(KeyReduction.angle(a, 0, a, 0)).isZero();
    }
}
