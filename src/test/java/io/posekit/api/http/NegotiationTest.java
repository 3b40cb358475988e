package io.posekit.api.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NegotiationTest {

    @Test
    void binaryOnlyWhenOctetStreamIsAskedForExplicitly() {
        assertThat(Negotiation.wantsBinary("application/octet-stream")).isTrue();
        assertThat(Negotiation.wantsBinary("application/json, application/octet-stream;q=0.5")).isFalse();
        assertThat(Negotiation.wantsBinary("application/octet-stream, application/json;q=0.5")).isTrue();
        assertThat(Negotiation.wantsBinary("*/*")).isFalse();
        assertThat(Negotiation.wantsBinary(null)).isFalse();
        assertThat(Negotiation.wantsBinary("application/octet-stream;q=0")).isFalse();
        assertThat(Negotiation.wantsBinary("not a media type;;")).isFalse();
    }
}
