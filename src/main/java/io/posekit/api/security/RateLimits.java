package io.posekit.api.security;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import java.time.Duration;
import java.util.function.Function;

/**
 * Requests per second per tenant: a token bucket per tenant (Bucket4j), refilled at the tenant's sustained rate
 * and as large as its burst. A tenant's bucket is forgotten after ten minutes unused (it is full again by then).
 * Thread-safe; a decision costs a map lookup and a compare-and-set.
 */
public final class RateLimits {

    /**
     * A tenant's rate.
     *
     * @param perSecond requests per second, sustained; 0 for no limit
     * @param burst the bucket's size (at least 1 when limited)
     */
    public record Rate(long perSecond, long burst) {

        public static final Rate UNLIMITED = new Rate(0, 0);

        public boolean limited() {
            return perSecond > 0;
        }
    }

    /**
     * What a request was told.
     *
     * @param allowed whether it may proceed
     * @param limit the bucket's size
     * @param remaining requests left now
     * @param resetSeconds seconds until the bucket is full again (RateLimit's {@code t}), or until one request is
     *     allowed when refused ({@code Retry-After})
     * @param perSecond the sustained rate
     */
    public record Decision(boolean allowed, long limit, long remaining, long resetSeconds, long perSecond) {
    }

    private final Function<String, Rate> rates;
    private final Cache<String, Bucket> buckets = Caffeine.newBuilder().expireAfterAccess(Duration.ofMinutes(10))
            .maximumSize(1_000_000).executor(Runnable::run).build();

    /** @param rates each tenant's rate */
    public RateLimits(Function<String, Rate> rates) {
        this.rates = rates;
    }

    /** Takes one request from {@code tenant}'s bucket; {@code null} when the tenant is not limited. */
    public Decision take(String tenant) {
        Rate rate = rates.apply(tenant);
        if (!rate.limited()) {
            return null;
        }
        Bucket bucket = buckets.get(tenant, t -> Bucket.builder()
                .addLimit(Bandwidth.builder().capacity(Math.max(1, rate.burst()))
                        .refillGreedy(rate.perSecond(), Duration.ofSeconds(1)).build())
                .build());
        ConsumptionProbe probe = bucket.tryConsumeAndReturnRemaining(1);
        long capacity = Math.max(1, rate.burst());
        if (probe.isConsumed()) {
            long missing = capacity - probe.getRemainingTokens();
            long reset = (missing + rate.perSecond() - 1) / rate.perSecond();
            return new Decision(true, capacity, probe.getRemainingTokens(), reset, rate.perSecond());
        }
        long wait = Math.max(1, (probe.getNanosToWaitForRefill() + 999_999_999L) / 1_000_000_000L);
        return new Decision(false, capacity, 0, wait, rate.perSecond());
    }
}
