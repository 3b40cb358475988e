package io.posekit.sampling;

import static io.posekit.sampling.LoopMode.CLAMP;
import static io.posekit.sampling.LoopMode.PINGPONG;
import static io.posekit.sampling.LoopMode.REPEAT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class LoopModeTest {

    private static final double D = 2;

    @Test
    void clamp() {
        assertThat(CLAMP.localTime(-1, D)).isZero();
        assertThat(CLAMP.localTime(0, D)).isZero();
        assertThat(CLAMP.localTime(0.5, D)).isEqualTo(0.5);
        assertThat(CLAMP.localTime(2, D)).isEqualTo(2);
        assertThat(CLAMP.localTime(4, D)).isEqualTo(2);
        assertThat(CLAMP.localTime(1.37 * D, D)).isEqualTo(2);
        assertThat(CLAMP.localTime(Double.POSITIVE_INFINITY, D)).isEqualTo(2);
        assertThat(CLAMP.localTime(Double.NEGATIVE_INFINITY, D)).isZero();
    }

    @Test
    void repeat() {
        assertThat(REPEAT.localTime(-0.5, D)).isEqualTo(1.5);
        assertThat(REPEAT.localTime(-4.5, D)).isEqualTo(1.5);   // floor(−2.25) = −3: −4.5 + 6
        assertThat(REPEAT.localTime(-2, D)).isZero();
        assertThat(REPEAT.localTime(0, D)).isZero();
        assertThat(REPEAT.localTime(0.5, D)).isEqualTo(0.5);
        // whole multiples of the duration wrap to 0, including t = d
        assertThat(REPEAT.localTime(2, D)).isZero();
        assertThat(REPEAT.localTime(4, D)).isZero();
        assertThat(REPEAT.localTime(6, D)).isZero();
        // 1.37·d: floor(1.37) = 1, so t − d (exact in double by Sterbenz' lemma)
        assertThat(REPEAT.localTime(1.37 * D, D)).isEqualTo(1.37 * D - D).isCloseTo(0.74, within(1e-15));
        assertThat(REPEAT.localTime(5.5, D)).isEqualTo(1.5);
    }

    @Test
    void pingpong() {
        assertThat(PINGPONG.localTime(-0.5, D)).isEqualTo(0.5);  // k = −1 (odd), r = 1.5: d − r
        assertThat(PINGPONG.localTime(0, D)).isZero();
        assertThat(PINGPONG.localTime(0.5, D)).isEqualTo(0.5);
        assertThat(PINGPONG.localTime(2, D)).isEqualTo(2);       // k = 1, r = 0: d
        assertThat(PINGPONG.localTime(2.5, D)).isEqualTo(1.5);
        assertThat(PINGPONG.localTime(3, D)).isEqualTo(1);
        assertThat(PINGPONG.localTime(4, D)).isZero();           // k = 2, r = 0
        assertThat(PINGPONG.localTime(4.5, D)).isEqualTo(0.5);
        assertThat(PINGPONG.localTime(6, D)).isEqualTo(2);       // k = 3
        // 1.37·d: k = 1, r = 0.74: d − r = 1.26
        assertThat(PINGPONG.localTime(1.37 * D, D)).isEqualTo(D - (1.37 * D - D)).isCloseTo(1.26, within(1e-15));
    }

    @Test
    void zeroDurationGivesZeroForEveryMode() {
        for (LoopMode mode : LoopMode.values()) {
            assertThat(mode.localTime(-1, 0)).isZero();
            assertThat(mode.localTime(0, 0)).isZero();
            assertThat(mode.localTime(3.7, 0)).isZero();
        }
    }

    @Test
    void degenerateInputsNeverGiveNaN() {
        for (LoopMode mode : LoopMode.values()) {
            assertThat(mode.localTime(Double.NaN, D)).isZero();
            assertThat(mode.localTime(1, Double.NaN)).isZero();
            assertThat(mode.localTime(1, -3)).isZero();
        }
        assertThat(REPEAT.localTime(Double.POSITIVE_INFINITY, D)).isZero();
        assertThat(PINGPONG.localTime(Double.NEGATIVE_INFINITY, D)).isZero();
    }

    @Test
    void resultStaysInsideTheClipUnderRounding() {
        // −1e−20 / d rounds so that r = d exactly; it must not leave [0, d]
        assertThat(REPEAT.localTime(-1e-20, D)).isBetween(0.0, D);
        double justBelow = Math.nextDown(3 * 0.1);
        assertThat(REPEAT.localTime(justBelow, 0.1)).isBetween(0.0, 0.1);
        assertThat(PINGPONG.localTime(justBelow, 0.1)).isBetween(0.0, 0.1);
    }

    @Test
    void wireNames() {
        assertThat(CLAMP.wireName()).isEqualTo("clamp");
        assertThat(REPEAT.wireName()).isEqualTo("repeat");
        assertThat(PINGPONG.wireName()).isEqualTo("pingpong");
        for (LoopMode mode : LoopMode.values()) {
            assertThat(LoopMode.byWireName(mode.wireName())).contains(mode);
        }
        assertThat(LoopMode.byWireName("Clamp")).isEqualTo(Optional.empty());
        assertThat(LoopMode.byWireName("loop")).isEmpty();
        assertThat(LoopMode.byWireName("")).isEmpty();
        assertThat(LoopMode.byWireName(null)).isEmpty();
    }
}
