package io.posekit.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/** Waiting for the parsing pool to reach a state, in tests that drive it over HTTP. */
final class ParsingPoolTestSupport {

    private ParsingPoolTestSupport() {
    }

    /** Polls {@code condition} until it holds; fails after 30 s. */
    static void eventually(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("condition not met within 30 s").isLessThan(deadline);
            Thread.sleep(5);
        }
    }
}
