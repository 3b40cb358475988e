package io.posekit.warmup;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

/**
 * Drives a list of {@link Exercise}s round after round, so the JIT compiles the code they run before real requests
 * need it, until the evidence says the paths run at full speed — or a safety limit passes.
 *
 * <p>Why: a fresh JVM runs the request paths interpreted and then through C1 for tens of seconds under load; a replica
 * that says it is ready before its compilers are done takes its full share of traffic at a fraction of its speed (on
 * one core, a fixed 5 s warm-up left 6 s of compiling to the first requests: the first 10 s after readiness ran at a
 * fifth of the steady rate).
 *
 * <p><b>Steady</b>, the early stop, needs all of, at the end of a window (a span of {@code window}, checked between
 * rounds):
 * <ul>
 *   <li>every exercise has run at least once and the every-round ones at least {@code every} times;</li>
 *   <li>a plateau: the rate of the every-round exercises (steps per second of their own time, so the rarer expensive
 *       ones do not blur it), averaged over the last {@value #PLATEAU_WINDOWS} windows, is no more than
 *       {@value #RISE_PERCENT} % above its average over the {@value #PLATEAU_WINDOWS} before;</li>
 *   <li>the compilers have nothing left: less than {@value #QUIET_SHARE_PERCENT} % of the window spent compiling
 *       ({@link CompilationMXBean#getTotalCompilationTime}, summed over the compiler threads) and, where the JVM tells,
 *       an empty compile queue ({@link CompilerQueue}).</li>
 * </ul>
 * Evidence the JVM cannot give is not waited for (no compilation time monitoring: the rate alone decides). A run that
 * reaches {@code limit} stops there, cut short; its report says at what rate. An exercise that fails is reported with
 * its failure and not run again; the others go on. The first round always runs to its end, whatever the limit, so
 * every path has been taken once. Not thread-safe; one run at a time.
 */
public final class WarmUp {

    /** The compilers are quiet when they spend less than this share of a window compiling. */
    static final int QUIET_SHARE_PERCENT = 5;
    /** The windows averaged on each side of the plateau's comparison. */
    static final int PLATEAU_WINDOWS = 3;
    /** A rise of the rate by more than this over the best window before is still climbing. */
    static final int RISE_PERCENT = 5;

    /** The windows a report keeps. */
    static final int CURVE = 120;

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
     * @param every it runs in every {@code every}-th round (1: each round, and its rate counts for the plateau; more
     *     for a path that costs many times what the others do, such as a parse or a render, so that the cheap paths
     *     that serve most requests get most rounds)
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

    /**
     * One window's evidence.
     *
     * @param endMillis when it ended, milliseconds since the run started
     * @param rate the every-round exercises' steps per second of their own time; 0 when none ran in it
     * @param compilePercent the share of the window the compilers spent compiling, percent; -1 when not known
     * @param queued the methods in the compile queues at its end; -1 when not known
     */
    public record Window(long endMillis, double rate, int compilePercent, int queued) {
    }

    /** Why a run stopped. */
    public enum Stop {
        /** The rate reached its plateau and the compilers had nothing left. */
        STEADY,
        /** The safety limit passed first: cut short. */
        LIMIT,
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
     * @param rate the every-round exercises' steps per second of their own time in the last whole window; 0 when no
     *     window ended
     * @param bestRate the best window's rate, steps per second; 0 when no window ended
     * @param windows the windows that ended
     * @param queued the methods in the compile queues at the last window's end; -1 when not known
     * @param exercises each exercise's outcome, in the order given
     * @param curve the last {@value #CURVE} windows, oldest first
     */
    public record Report(long millis, Stop stop, long compileMillis, double rate, double bestRate, int windows,
            int queued, List<Outcome> exercises, List<Window> curve) {
        public Report {
            exercises = List.copyOf(exercises);
            curve = List.copyOf(curve);
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

    private final Duration limit;
    private final Duration window;
    private final LongSupplier nanoTime;
    private final LongSupplier compileMillis;
    private final IntSupplier queued;

    /**
     * On this JVM's clock, compilation time and compile queue.
     *
     * @param limit the longest a run may take after its first round (checked between two steps: a step started is
     *     finished)
     * @param window the span over which the rate is measured and the compilers must be quiet, positive
     */
    public WarmUp(Duration limit, Duration window) {
        this(limit, window, System::nanoTime, jitMillis(), CompilerQueue.probe());
    }

    /**
     * With a clock and evidence of the caller's (tests).
     *
     * @param compileMillis the compilers' total time, milliseconds; {@code null}: not known
     * @param queued the compile queues' length; {@code null}, or -1 from it: not known
     */
    WarmUp(Duration limit, Duration window, LongSupplier nanoTime, LongSupplier compileMillis, IntSupplier queued) {
        if (limit.isNegative()) {
            throw new IllegalArgumentException("limit must not be negative: " + limit);
        }
        if (window.isNegative() || window.isZero()) {
            throw new IllegalArgumentException("window must be positive: " + window);
        }
        this.limit = limit;
        this.window = window;
        this.nanoTime = nanoTime;
        this.compileMillis = compileMillis;
        this.queued = queued;
    }

    private static LongSupplier jitMillis() {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit::getTotalCompilationTime : null;
    }

    private static int maxEvery(List<Exercise> exercises) {
        return exercises.stream().mapToInt(Exercise::every).max().orElse(1);
    }

    /** Runs the exercises round-robin until steady or the limit passes. */
    public Report run(List<Exercise> exercises) {
        int n = exercises.size();
        long[] rounds = new long[n];
        long[] nanos = new long[n];
        String[] failures = new String[n];
        long start = nanoTime.getAsLong();
        long end = start + limit.toNanos();
        long windowNanos = window.toNanos();
        long compileAtStart = compileMillis == null ? -1 : compileMillis.getAsLong();
        long windowStart = start;
        long compileAtWindowStart = compileAtStart;
        // the every-round steps of the current window: how many, and their own time
        long windowSteps = 0;
        long windowStepNanos = 0;
        List<Double> rates = new ArrayList<>();
        java.util.ArrayDeque<Window> curve = new java.util.ArrayDeque<>();
        int lastQueued = -1;
        Stop stop = Stop.LIMIT;
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
                long took = nanoTime.getAsLong() - before;
                nanos[i] += took;
                if (exercise.every() == 1 && failures[i] == null) {
                    windowSteps++;
                    windowStepNanos += took;
                }
            }
            long now = nanoTime.getAsLong();
            if (now - windowStart < windowNanos) {
                continue;
            }
            double rate = windowSteps == 0 ? 0 : windowSteps * 1e9 / Math.max(1, windowStepNanos);
            if (windowSteps > 0) {
                rates.add(rate);
            }
            boolean quiet = true;
            int compilePercent = -1;
            if (compileMillis != null) {
                long compiled = compileMillis.getAsLong();
                long compiling = (compiled - compileAtWindowStart) * 1_000_000L;
                quiet = compiling * 100 < (now - windowStart) * QUIET_SHARE_PERCENT;
                compilePercent = (int) Math.min(Integer.MAX_VALUE, compiling * 100 / (now - windowStart));
                compileAtWindowStart = compiled;
            }
            lastQueued = queued == null ? -1 : queued.getAsInt();
            if (curve.size() == CURVE) {
                curve.removeFirst();
            }
            curve.addLast(new Window((now - start) / 1_000_000, rate, compilePercent, lastQueued));
            boolean drained = quiet && lastQueued <= 0;
            if (drained && round >= maxEvery(exercises) && plateau(rates)) {
                stop = Stop.STEADY;
                break;
            }
            windowStart = nanoTime.getAsLong();
            windowSteps = 0;
            windowStepNanos = 0;
        }
        List<Outcome> outcomes = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            outcomes.add(new Outcome(exercises.get(i).name(), rounds[i], nanos[i] / 1_000_000, failures[i]));
        }
        long compiled = compileMillis == null ? -1 : compileMillis.getAsLong() - compileAtStart;
        double best = rates.stream().mapToDouble(Double::doubleValue).max().orElse(0);
        return new Report((nanoTime.getAsLong() - start) / 1_000_000, stop, compiled,
                rates.isEmpty() ? 0 : rates.getLast(), best, rates.size(), lastQueued, outcomes, List.copyOf(curve));
    }

    /**
     * Whether the window rates have levelled off: the mean of the last {@link #PLATEAU_WINDOWS} is at most
     * {@link #RISE_PERCENT} % above the mean of the {@link #PLATEAU_WINDOWS} before them. Means of several windows,
     * because one window's rate varies by tens of percent with a collection or a compile burst on a busy core.
     */
    static boolean plateau(List<Double> rates) {
        int size = rates.size();
        if (size < 2 * PLATEAU_WINDOWS) {
            return false;
        }
        double before = 0;
        double recent = 0;
        for (int i = 0; i < PLATEAU_WINDOWS; i++) {
            before += rates.get(size - 2 * PLATEAU_WINDOWS + i);
            recent += rates.get(size - PLATEAU_WINDOWS + i);
        }
        return recent * 100 <= before * (100 + RISE_PERCENT);
    }
}
