package io.posekit.config;

import io.posekit.math.Kernels;
import io.posekit.sampling.KernelWarmUp;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Runs {@link KernelWarmUp} once the application is ready, on a daemon thread of low priority, so requests are
 * served meanwhile; {@code posekit.warm-up.rounds} poses (0: not at all). Only when the start-up warm-up is off
 * ({@code posekit.warm-up.duration} 0): else {@link WarmUpRunner} runs the check before readiness. A disagreement between the Vector API and the
 * scalar kernels above 1e-5 (relative) is logged as a warning naming {@code -Dposekit.kernels=scalar} as the way out.
 */
@Component
class KernelWarmUpRunner {

    private static final Logger log = LoggerFactory.getLogger(KernelWarmUpRunner.class);
    private static final double AGREEMENT = 1e-5;

    private final int rounds;
    private final boolean inStartUpWarmUp;

    KernelWarmUpRunner(PosekitProperties properties) {
        this.rounds = properties.warmUp().rounds();
        this.inStartUpWarmUp = !properties.warmUp().duration().isZero();
    }

    @EventListener(ApplicationReadyEvent.class)
    void start() {
        // the start-up warm-up (WarmUpRunner) checks the kernels itself, before readiness, when it runs
        if (rounds == 0 || inStartUpWarmUp) {
            return;
        }
        Thread thread = new Thread(this::warmUp, "posekit-warm-up");
        thread.setDaemon(true);
        thread.setPriority(Thread.MIN_PRIORITY);
        thread.start();
    }

    private void warmUp() {
        long start = System.nanoTime();
        double difference = KernelWarmUp.run(rounds);
        report(difference, rounds, (System.nanoTime() - start) / 1_000_000);
    }

    /** Logs the check's outcome: a warning when the paths disagree; {@code rounds} -1 when not counted. */
    static void report(double difference, int rounds, long ms) {
        if (difference > AGREEMENT) {
            log.warn("the {} kernels differ from the scalar ones by {} (relative) on the warm-up data; start with "
                    + "-D{}=scalar to use the scalar kernels", Kernels.selected().label(), difference, Kernels.PROPERTY);
        } else if (rounds < 0) {
            log.info("kernels checked after the start-up warm-up in {} ms: {} path, agreement with the scalar path {}",
                    ms, Kernels.selected().label(), difference);
        } else {
            log.info("kernels warmed up: {} path, {} poses in {} ms, agreement with the scalar path {}",
                    Kernels.selected().label(), rounds, ms, difference);
        }
    }
}
