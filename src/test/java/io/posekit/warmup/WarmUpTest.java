package io.posekit.warmup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** {@link WarmUp} on a clock of its own: every step takes 10 ms of it. */
class WarmUpTest {

    private final AtomicLong nanos = new AtomicLong();

    private WarmUp.Step tenMillis() {
        return round -> nanos.addAndGet(10_000_000);
    }

    @Test
    void runsRoundRobinUntilTheBudgetIsSpentTheExpensiveOnesInEveryNthRound() {
        // A every round, B every 2nd: A 0-10, B 10-20, A 20-30, A 30-40, B 40-50, A 50-60, A 60-70, B 70-80, A 80-90,
        // A 90-100, then B finds the budget spent
        WarmUp warmUp = new WarmUp(Duration.ofMillis(100), Duration.ofMillis(20), nanos::get, null);
        WarmUp.Report report = warmUp.run(List.of(new WarmUp.Exercise("a", tenMillis()),
                new WarmUp.Exercise("b", 2, tenMillis())));
        assertThat(report.stop()).isEqualTo(WarmUp.Stop.BUDGET);
        assertThat(report.millis()).isEqualTo(100);
        assertThat(report.compileMillis()).isEqualTo(-1);
        assertThat(report.exercises()).containsExactly(new WarmUp.Outcome("a", 7, 70, null),
                new WarmUp.Outcome("b", 3, 30, null));
        assertThat(report.rounds()).isEqualTo(10);
    }

    @Test
    void stopsWhenTheJitIsQuietOnceEveryExerciseHasRun() {
        // the JIT compiles nothing: after round 0 (20 ms) the window is quiet but B has not run twice; after round 2
        // (50 ms) it stops
        WarmUp warmUp = new WarmUp(Duration.ofSeconds(10), Duration.ofMillis(20), nanos::get, () -> 1234);
        WarmUp.Report report = warmUp.run(List.of(new WarmUp.Exercise("a", tenMillis()),
                new WarmUp.Exercise("b", 2, tenMillis())));
        assertThat(report.stop()).isEqualTo(WarmUp.Stop.QUIET);
        assertThat(report.millis()).isEqualTo(50);
        assertThat(report.compileMillis()).isZero();
        assertThat(report.exercises()).extracting(WarmUp.Outcome::rounds).containsExactly(3L, 2L);
    }

    @Test
    void aBusyJitKeepsItGoingUntilTheBudget() {
        // compiling 6 % of the time (5 % is quiet): never quiet
        WarmUp warmUp = new WarmUp(Duration.ofMillis(200), Duration.ofMillis(20), nanos::get,
                () -> nanos.get() * 6 / 100 / 1_000_000);
        WarmUp.Report report = warmUp.run(List.of(new WarmUp.Exercise("a", tenMillis())));
        assertThat(report.stop()).isEqualTo(WarmUp.Stop.BUDGET);
        assertThat(report.exercises().getFirst().rounds()).isEqualTo(20);
        assertThat(report.compileMillis()).isEqualTo(12);

        nanos.set(0);
        WarmUp.Report quiet = new WarmUp(Duration.ofMillis(200), Duration.ofMillis(20), nanos::get,
                () -> nanos.get() * 4 / 100 / 1_000_000).run(List.of(new WarmUp.Exercise("a", tenMillis())));
        assertThat(quiet.stop()).isEqualTo(WarmUp.Stop.QUIET);
        assertThat(quiet.millis()).isEqualTo(20);
    }

    @Test
    void aFailingExerciseIsReportedAndDroppedTheOthersGoOn() {
        WarmUp warmUp = new WarmUp(Duration.ofMillis(60), Duration.ofMillis(20), nanos::get, null);
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
        WarmUp warmUp = new WarmUp(Duration.ofSeconds(5), Duration.ofMillis(20), nanos::get, null);
        WarmUp.Report report = warmUp.run(List.of(new WarmUp.Exercise("broken", round -> {
            throw new IllegalStateException("no");
        })));
        assertThat(report.stop()).isEqualTo(WarmUp.Stop.NOTHING_LEFT);
        assertThat(report.exercises()).containsExactly(new WarmUp.Outcome("broken", 0, 0, "IllegalStateException: no"));
        assertThat(new WarmUp(Duration.ofSeconds(5), Duration.ofMillis(20), nanos::get, null).run(List.of()).stop())
                .isEqualTo(WarmUp.Stop.NOTHING_LEFT);
    }

    @Test
    void theFirstRoundRunsWhateverTheBudget() {
        WarmUp.Report report = new WarmUp(Duration.ZERO, Duration.ofMillis(20), nanos::get, null)
                .run(List.of(new WarmUp.Exercise("a", tenMillis()), new WarmUp.Exercise("b", 5, tenMillis())));
        assertThat(report.stop()).isEqualTo(WarmUp.Stop.BUDGET);
        assertThat(report.exercises()).extracting(WarmUp.Outcome::rounds).containsExactly(1L, 1L);
        assertThat(report.millis()).isEqualTo(20);
    }

    @Test
    void refusesNonsense() {
        assertThatThrownBy(() -> new WarmUp(Duration.ofSeconds(-1), Duration.ofMillis(20)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("budget");
        assertThatThrownBy(() -> new WarmUp(Duration.ofSeconds(1), Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("window");
        assertThatThrownBy(() -> new WarmUp.Exercise("a", 0, round -> { }))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("every");
    }
}
