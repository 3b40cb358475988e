package io.posekit.warmup;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * Drives a list of {@link Exercise}s round after round, so the JIT compiles the code they run before real requests
 * need it, until the JIT falls quiet or a time budget is spent, whichever comes first.
 *
 * <p>Why: a fresh JVM runs the request paths interpreted and then through C1 for tens of seconds under load (on one
 * core the first 10 s of the Fox matrices load were served at an eighth of the steady rate); a service that says it is
 * ready only after this has run takes full traffic at full speed. With the AOT cache's method profiles (JEP 515) most of
 * the compilation happens at once and the JIT falls quiet early.
 *
 * <p>Quiet: over the last {@code window}, the JIT spent less than {@value #QUIET_SHARE_PERCENT} % of it compiling
 * ({@link CompilationMXBean#getTotalCompilationTime}, summed over the compiler threads), after every exercise has run
 * at least once and the others at least twice. Without compilation time monitoring the whole budget is used. An exercise that fails is reported with
 * its failure and not run again; the others go on. The first round always runs to its end, whatever the budget, so
 * every path has been taken once. Not thread-safe; one run at a time.
 */
public final class WarmUp {

    /** The JIT is quiet when it spends less than this share of a window compiling. */
    static final int QUIET_SHARE_PERCENT = 5;

    /** One hot path, run once per round. */
    @FunctionalInterface
    public interface Step {
        /**
         * @param round the round, from 0 (to vary the inputs, e.g. the sampled time)
         * @throws Exception when the path fails: the exercise is reported failed and not run again
         */
        void run(long round) throws Exception;
    }

    /**
     * A named hot path.
     *
     * @param name what it drives, e.g. {@code "matrices json"}
     * @param every it runs in every {@code every}-th round (1: each round; more for a path that costs many times what
     *     the others do, such as a parse or a render, so that the cheap paths that serve most requests get most rounds)
     */
    public record Exercise(String name, int every, Step step) {
        public Exercise {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(step, "step");
            if (every < 1) {
                throw new IllegalArgumentException("every must be at least 1, not " + every);
            }
        }

        /** An exercise run in each round. */
        public Exercise(String name, Step step) {
            this(name, 1, step);
        }
    }

    /**
     * What one exercise did.
     *
     * @param rounds how many times it ran to the end
     * @param millis the time it took, all rounds together, milliseconds
     * @param failure why it failed ({@code null} when it did not)
     */
    public record Outcome(String name, long rounds, long millis, String failure) {
    }

    /** Why a run stopped. */
    public enum Stop {
        /** The JIT fell quiet. */
        QUIET,
        /** The time budget was spent. */
        BUDGET,
        /** Every exercise failed (or there were none). */
        NOTHING_LEFT
    }

    /**
     * One run's account.
     *
     * @param millis how long it took, milliseconds
     * @param stop why it stopped
     * @param compileMillis the JIT's compilation time during the run (summed over its threads), milliseconds; -1
     *     when the JVM does not measure it
     * @param exercises each exercise's outcome, in the order given
     */
    public record Report(long millis, Stop stop, long compileMillis, List<Outcome> exercises) {
        public Report {
            exercises = List.copyOf(exercises);
        }

        /** The exercises that failed. */
        public List<Outcome> failures() {
            return exercises.stream().filter(o -> o.failure() != null).toList();
        }

        /** All rounds of all exercises. */
        public long rounds() {
            return exercises.stream().mapToLong(Outcome::rounds).sum();
        }
    }

    private final Duration budget;
    private final Duration window;
    private final LongSupplier nanoTime;
    private final LongSupplier compileMillis;

    /**
     * @param budget the longest a run may take after its first round (checked between two steps: a step started is
     *     finished)
     * @param window the span over which the JIT must be quiet for a run to stop early, positive
     */
    public WarmUp(Duration budget, Duration window) {
        this(budget, window, System::nanoTime, jitMillis());
    }

    /** With a clock and a compilation-time source of the caller's (tests); {@code compileMillis} null: never quiet. */
    WarmUp(Duration budget, Duration window, LongSupplier nanoTime, LongSupplier compileMillis) {
        if (budget.isNegative()) {
            throw new IllegalArgumentException("budget must not be negative: " + budget);
        }
        if (window.isNegative() || window.isZero()) {
            throw new IllegalArgumentException("window must be positive: " + window);
        }
        this.budget = budget;
        this.window = window;
        this.nanoTime = nanoTime;
        this.compileMillis = compileMillis;
    }

    private static LongSupplier jitMillis() {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit::getTotalCompilationTime : null;
    }

    private static int maxEvery(List<Exercise> exercises) {
        return exercises.stream().mapToInt(Exercise::every).max().orElse(1);
    }

    /** Runs the exercises round-robin until the JIT is quiet or the budget is spent. */
    public Report run(List<Exercise> exercises) {
        int n = exercises.size();
        long[] rounds = new long[n];
        long[] nanos = new long[n];
        String[] failures = new String[n];
        long start = nanoTime.getAsLong();
        long end = start + budget.toNanos();
        long windowNanos = window.toNanos();
        long compileAtStart = compileMillis == null ? -1 : compileMillis.getAsLong();
        long windowStart = start;
        long compileAtWindowStart = compileAtStart;
        Stop stop = Stop.BUDGET;
        int alive = n;
        outer:
        for (long round = 0; ; round++) {
            if (alive == 0) {
                stop = Stop.NOTHING_LEFT;
                break;
            }
            for (int i = 0; i < n; i++) {
                if (round > 0 && nanoTime.getAsLong() >= end) {
                    break outer;
                }
                Exercise exercise = exercises.get(i);
                if (failures[i] != null || round % exercise.every() != 0) {
                    continue;
                }
                long before = nanoTime.getAsLong();
                try {
                    exercise.step().run(round);
                    rounds[i]++;
                } catch (Exception | AssertionError | LinkageError e) {
                    failures[i] = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
                    alive--;
                }
                nanos[i] += nanoTime.getAsLong() - before;
            }
            long now = nanoTime.getAsLong();
            if (compileMillis != null && now - windowStart >= windowNanos) {
                long compiled = compileMillis.getAsLong();
                boolean quiet = (compiled - compileAtWindowStart) * 1_000_000L * 100
                        < (now - windowStart) * QUIET_SHARE_PERCENT;
                if (quiet && round >= maxEvery(exercises)) {
                    stop = Stop.QUIET;
                    break;
                }
                windowStart = now;
                compileAtWindowStart = compiled;
            }
        }
        List<Outcome> outcomes = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            outcomes.add(new Outcome(exercises.get(i).name(), rounds[i], nanos[i] / 1_000_000, failures[i]));
        }
        long compiled = compileMillis == null ? -1 : compileMillis.getAsLong() - compileAtStart;
        return new Report((nanoTime.getAsLong() - start) / 1_000_000, stop, compiled, outcomes);
    }
}
