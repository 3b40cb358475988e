package io.posekit.api.security;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RateLimitsTest {

    @Test
    void aTenantMayBurstThenIsRefusedWithTheTimeToWait() {
        RateLimits limits = new RateLimits(t -> t.equals("slow") ? new RateLimits.Rate(1, 3) : RateLimits.Rate.UNLIMITED);
        assertThat(limits.take("fast")).isNull();
        RateLimits.Decision first = limits.take("slow");
        assertThat(first.allowed()).isTrue();
        assertThat(first.limit()).isEqualTo(3);
        assertThat(first.remaining()).isEqualTo(2);
        assertThat(first.resetSeconds()).isEqualTo(1);
        assertThat(limits.take("slow").remaining()).isEqualTo(1);
        assertThat(limits.take("slow").remaining()).isZero();
        RateLimits.Decision refused = limits.take("slow");
        assertThat(refused.allowed()).isFalse();
        assertThat(refused.remaining()).isZero();
        assertThat(refused.resetSeconds()).isEqualTo(1);
        // buckets are per tenant
        assertThat(new RateLimits(t -> new RateLimits.Rate(1, 1)).take("other").allowed()).isTrue();
    }
}
