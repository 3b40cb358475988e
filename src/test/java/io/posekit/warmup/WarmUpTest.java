package io.posekit.warmup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** {@link WarmUp} on a clock of its own: a step takes 10 ms of it unless said otherwise. */
class WarmUpTest {

    private static final Duration NEVER = Duration.ofHours(1);

    private final AtomicLong nanos = new AtomicLong();

    private WarmUp.Step tenMillis() {
        return round -> nanos.addAndGet(10_000_000);
    }

    @Test
    void runsRoundRobinUntilTheLimitTheExpensiveOnesInEveryNthRound() {
        // A every round, B every 2nd: A 0-10, B 10-20, A 20-30, A 30-40, B 40-50, A 50-60, A 60-70, B 70-80, A 80-90,
        // A 90-100, then B finds the limit passed
        WarmUp warmUp = new WarmUp(Duration.ofMillis(100), NEVER, nanos::get, null, null);
        WarmUp.Report report = warmUp.run(List.of(new WarmUp.Exercise("a", tenMillis()),
                new WarmUp.Exercise("b", 2, tenMillis())));
        assertThat(report.stop()).isEqualTo(WarmUp.Stop.LIMIT);
        assertThat(report.millis()).isEqualTo(100);
        assertThat(report.compileMillis()).isEqualTo(-1);
        assertThat(report.exercises()).containsExactly(new WarmUp.Outcome("a", 7, 70, null),
                new WarmUp.Outcome("b", 3, 30, null));
        assertThat(report.rounds()).isEqualTo(10);
        assertThat(report.windows()).isZero();
        assertThat(report.rate()).isZero();
        assertThat(report.queued()).isEqualTo(-1);
    }

    @Test
    void stopsSteadyOnAPlateauWithTheCompilersIdleOnceEveryExerciseHasRun() {
        // windows of 20 ms end after rounds 0 (20 ms), 2 (50), 4 (80), 6 (110), 8 (140) and 10 (170), each with A at
        // 100 steps/s: the sixth is the first with three windows to compare with the three before
        WarmUp warmUp = new WarmUp(Duration.ofSeconds(10), Duration.ofMillis(20), nanos::get, () -> 1234, () -> 0);
        WarmUp.Report report = warmUp.run(List.of(new WarmUp.Exercise("a", tenMillis()),
                new WarmUp.Exercise("b", 2, tenMillis())));
        assertThat(report.stop()).isEqualTo(WarmUp.Stop.STEADY);
        assertThat(report.millis()).isEqualTo(170);
        assertThat(report.compileMillis()).isZero();
        assertThat(report.windows()).isEqualTo(6);
        assertThat(report.curve()).containsExactly(new WarmUp.Window(20, 100, 0, 0), new WarmUp.Window(50, 100, 0, 0),
                new WarmUp.Window(80, 100, 0, 0), new WarmUp.Window(110, 100, 0, 0), new WarmUp.Window(140, 100, 0, 0),
                new WarmUp.Window(170, 100, 0, 0));
        assertThat(report.rate()).isEqualTo(100.0);
        assertThat(report.bestRate()).isEqualTo(100.0);
        assertThat(report.queued()).isZero();
        assertThat(report.exercises()).extracting(WarmUp.Outcome::rounds).containsExactly(11L, 6L);
    }

    @Test
    void aRateStillClimbingKeepsItGoingUntilItLevelsOff() {
        // the step's cost falls from 10 ms to 1 ms over the first second, then stays: no stop before the plateau has
        // lasted PLATEAU_WINDOWS windows of 100 ms after the second (the three before them all slower), and one
        // within two more
        WarmUp warmUp = new WarmUp(Duration.ofSeconds(30), Duration.ofMillis(100), nanos::get, () -> 0, () -> 0);
        WarmUp.Report report = warmUp.run(List.of(new WarmUp.Exercise("climbs", round -> {
            long t = nanos.get();
            nanos.addAndGet(t >= 1_000_000_000L ? 1_000_000 : 10_000_000 - 9 * t / 1000);
        })));
        assertThat(report.stop()).isEqualTo(WarmUp.Stop.STEADY);
        assertThat(report.millis()).isBetween(1000L + WarmUp.PLATEAU_WINDOWS * 100L,
                1000L + (2 * WarmUp.PLATEAU_WINDOWS + 2) * 100L);
        assertThat(report.rate()).isEqualTo(1000.0);
        assertThat(report.bestRate()).isEqualTo(1000.0);
    }

    @Test
    void busyCompilersKeepItGoingUntilTheLimitWhichReportsTheRateItReached() {
        // compiling 6 % of the time (5 % is quiet): never steady, cut short at the limit
        WarmUp warmUp = new WarmUp(Duration.ofMillis(1000), Duration.ofMillis(100), nanos::get,
                () -> nanos.get() * 6 / 100 / 1_000_000, () -> 0);
        WarmUp.Report report = warmUp.run(List.of(new WarmUp.Exercise("a", tenMillis())));
        assertThat(report.stop()).isEqualTo(WarmUp.Stop.LIMIT);
        assertThat(report.exercises().getFirst().rounds()).isEqualTo(100);
        assertThat(report.compileMillis()).isEqualTo(60);
        assertThat(report.rate()).isEqualTo(100.0);
        assertThat(report.windows()).isEqualTo(10);
        assertThat(report.curve()).hasSize(10).allMatch(w -> w.compilePercent() == 6 && w.rate() == 100);

        // 3 %: steady after the sixth window
        nanos.set(0);
        WarmUp.Report quiet = new WarmUp(Duration.ofMillis(1000), Duration.ofMillis(100), nanos::get,
                () -> nanos.get() * 3 / 100 / 1_000_000, () -> 0).run(List.of(new WarmUp.Exercise("a", tenMillis())));
        assertThat(quiet.stop()).isEqualTo(WarmUp.Stop.STEADY);
        assertThat(quiet.millis()).isEqualTo(600);
    }

    @Test
    void methodsWaitingInTheCompileQueueKeepItGoingAnUnknownQueueDoesNot() {
        WarmUp.Report waiting = new WarmUp(Duration.ofMillis(200), Duration.ofMillis(20), nanos::get, () -> 0,
                () -> 3).run(List.of(new WarmUp.Exercise("a", tenMillis())));
        assertThat(waiting.stop()).isEqualTo(WarmUp.Stop.LIMIT);
        assertThat(waiting.queued()).isEqualTo(3);

        nanos.set(0);
        WarmUp.Report unknown = new WarmUp(Duration.ofMillis(200), Duration.ofMillis(20), nanos::get, () -> 0,
                () -> -1).run(List.of(new WarmUp.Exercise("a", tenMillis())));
        assertThat(unknown.stop()).isEqualTo(WarmUp.Stop.STEADY);
        assertThat(unknown.queued()).isEqualTo(-1);
    }

    @Test
    void aFailingExerciseIsReportedAndDroppedTheOthersGoOn() {
        WarmUp warmUp = new WarmUp(Duration.ofMillis(60), NEVER, nanos::get, null, null);
        WarmUp.Report report = warmUp.run(List.of(new WarmUp.Exercise("fails at 1", round -> {
            nanos.addAndGet(10_000_000);
            if (round == 1) {
                throw new java.io.IOException("answered 500");
            }
        }), new WarmUp.Exercise("fine", tenMillis())));
        assertThat(report.exercises()).containsExactly(new WarmUp.Outcome("fails at 1", 1, 20, "IOException: answered 500"),
                new WarmUp.Outcome("fine", 4, 40, null));
        assertThat(report.failures()).extracting(WarmUp.Outcome::name).containsExactly("fails at 1");
    }

    @Test
    void stopsWhenNothingIsLeft() {
        WarmUp warmUp = new WarmUp(Duration.ofSeconds(5), Duration.ofMillis(20), nanos::get, null, null);
        WarmUp.Report report = warmUp.run(List.of(new WarmUp.Exercise("broken", round -> {
            throw new IllegalStateException("no");
        })));
        assertThat(report.stop()).isEqualTo(WarmUp.Stop.NOTHING_LEFT);
        assertThat(report.exercises()).containsExactly(new WarmUp.Outcome("broken", 0, 0, "IllegalStateException: no"));
        assertThat(new WarmUp(Duration.ofSeconds(5), Duration.ofMillis(20), nanos::get, null, null).run(List.of())
                .stop()).isEqualTo(WarmUp.Stop.NOTHING_LEFT);
    }

    @Test
    void theFirstRoundRunsWhateverTheLimit() {
        WarmUp.Report report = new WarmUp(Duration.ZERO, Duration.ofMillis(20), nanos::get, null, null)
                .run(List.of(new WarmUp.Exercise("a", tenMillis()), new WarmUp.Exercise("b", 5, tenMillis())));
        assertThat(report.stop()).isEqualTo(WarmUp.Stop.LIMIT);
        assertThat(report.exercises()).extracting(WarmUp.Outcome::rounds).containsExactly(1L, 1L);
        assertThat(report.millis()).isEqualTo(20);
    }

    @Test
    void aPlateauIsNoRiseOfTheLastWindowsOverTheOnesBefore() {
        assertThat(WarmUp.plateau(List.of(10.0, 10.0, 10.0, 10.0, 10.0))).as("too few windows").isFalse();
        assertThat(WarmUp.plateau(List.of(10.0, 10.0, 10.0, 10.0, 10.0, 10.0))).isTrue();
        assertThat(WarmUp.plateau(List.of(1.0, 2.0, 3.0, 4.0, 5.0, 6.0))).as("climbing").isFalse();
        assertThat(WarmUp.plateau(List.of(10.0, 10.0, 10.0, 10.5, 10.5, 10.5))).as("5 % up").isTrue();
        assertThat(WarmUp.plateau(List.of(10.0, 10.0, 10.0, 10.6, 10.6, 10.6))).as("6 % up").isFalse();
        assertThat(WarmUp.plateau(List.of(9.0, 12.0, 9.0, 10.0, 10.0, 10.5))).as("noise about 10").isTrue();
        assertThat(WarmUp.plateau(List.of(1.0, 10.0, 10.0, 10.0, 9.0, 8.0, 7.0))).as("falling").isTrue();
    }

    @Test
    void refusesNonsense() {
        assertThatThrownBy(() -> new WarmUp(Duration.ofSeconds(-1), Duration.ofMillis(20)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("limit");
        assertThatThrownBy(() -> new WarmUp(Duration.ofSeconds(1), Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("window");
        assertThatThrownBy(() -> new WarmUp.Exercise("a", 0, round -> { }))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("every");
    }
}
