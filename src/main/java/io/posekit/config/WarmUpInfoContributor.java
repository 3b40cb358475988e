package io.posekit.config;

import io.posekit.warmup.WarmUp;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.actuate.info.Info;
import org.springframework.boot.actuate.info.InfoContributor;
import org.springframework.stereotype.Component;

/**
 * Reports the start-up warm-up in {@code /actuator/info} as {@code warmUp}: {@code status} ({@code off},
 * {@code pending}, {@code running}, {@code done}, or {@code failed: <the exception>}), and once done how long it took
 * ({@code millis}, of which the exercises after the upload {@code exerciseMillis}), why they stopped ({@code stop}:
 * {@code steady}, {@code limit} — cut short at {@code posekit.warm-up.duration} —, {@code nothing_left}), the rate the
 * every-round exercises reached ({@code rate}, steps per second in the last window; {@code bestRate}; over
 * {@code windows} windows), the methods still in the compile queues then ({@code queued}, -1 unknown), the JIT's
 * compilation time meanwhile ({@code compileMillis}), the last windows' evidence ({@code curve}: per window its end in
 * milliseconds, its rate, its percent compiling and the methods queued), whether the HTTP paths were driven ({@code http}), the rounds of each exercise
 * ({@code rounds}), the failures ({@code failures}, by exercise) and the kernel check's difference
 * ({@code kernelDifference}, relative).
 */
@Component
class WarmUpInfoContributor implements InfoContributor {

    private final WarmUpRunner runner;

    WarmUpInfoContributor(WarmUpRunner runner) {
        this.runner = runner;
    }

    @Override
    public void contribute(Info.Builder builder) {
        WarmUpRunner.State state = runner.state();
        Map<String, Object> warmUp = new LinkedHashMap<>();
        warmUp.put("status", state.status());
        WarmUp.Report report = state.report();
        if (report != null) {
            warmUp.put("millis", state.millis());
            warmUp.put("exerciseMillis", report.millis());
            warmUp.put("stop", report.stop().name().toLowerCase(java.util.Locale.ROOT));
            warmUp.put("cutShort", report.stop() == WarmUp.Stop.LIMIT);
            warmUp.put("rate", Math.round(report.rate()));
            warmUp.put("bestRate", Math.round(report.bestRate()));
            warmUp.put("windows", report.windows());
            warmUp.put("queued", report.queued());
            warmUp.put("compileMillis", report.compileMillis());
            // the curve, window by window: end ms, steps/s, percent compiling, methods queued
            warmUp.put("curve", report.curve().stream().map(w -> new long[] {w.endMillis(), Math.round(w.rate()),
                    w.compilePercent(), w.queued()}).toList());
            warmUp.put("http", state.http());
            Map<String, Long> rounds = new LinkedHashMap<>();
            Map<String, String> failures = new LinkedHashMap<>();
            for (WarmUp.Outcome o : report.exercises()) {
                rounds.put(o.name(), o.rounds());
                if (o.failure() != null) {
                    failures.put(o.name(), o.failure());
                }
            }
            warmUp.put("rounds", rounds);
            warmUp.put("failures", failures);
            if (!Double.isNaN(state.kernelDifference())) {
                warmUp.put("kernelDifference", state.kernelDifference());
            }
        }
        builder.withDetail("warmUp", warmUp);
    }
}
