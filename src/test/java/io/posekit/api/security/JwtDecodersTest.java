package io.posekit.api.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.mock.env.MockEnvironment;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.NimbusReactiveJwtDecoder;
import org.springframework.security.oauth2.jwt.SupplierReactiveJwtDecoder;

class JwtDecodersTest {

    private static Jwt token(String issuer, List<String> audience, Instant expires) {
        Jwt.Builder b = Jwt.withTokenValue("t").header("alg", "RS256").issuedAt(expires.minusSeconds(60))
                .expiresAt(expires).subject("studio");
        if (issuer != null) {
            b.issuer(issuer);
        }
        if (audience != null) {
            b.audience(audience);
        }
        return b.build();
    }

    @Test
    void noIssuerAndNoKeySetMeansNoDecoder() {
        assertThat(JwtDecoders.fromEnvironment(new MockEnvironment())).isEmpty();
        assertThat(JwtDecoders.fromEnvironment(new MockEnvironment()
                .withProperty("spring.security.oauth2.resourceserver.jwt.issuer-uri", " "))).isEmpty();
    }

    @Test
    void anIssuerIsAskedForItsKeysOnTheFirstTokenNotAtStartUp() {
        // an address nothing answers: building the decoder must not contact it
        assertThat(JwtDecoders.fromEnvironment(new MockEnvironment()
                .withProperty("spring.security.oauth2.resourceserver.jwt.issuer-uri", "http://127.0.0.1:9/realms/x")))
                .get().isInstanceOf(SupplierReactiveJwtDecoder.class);
    }

    @Test
    void aKeySetUriMakesANimbusDecoder() {
        assertThat(JwtDecoders.fromEnvironment(new MockEnvironment()
                .withProperty("spring.security.oauth2.resourceserver.jwt.jwk-set-uri", "http://127.0.0.1:9/certs")
                .withProperty("spring.security.oauth2.resourceserver.jwt.jws-algorithms", "ES256")))
                .get().isInstanceOf(NimbusReactiveJwtDecoder.class);
    }

    @Test
    void anUnknownAlgorithmIsNamed() {
        assertThatThrownBy(() -> JwtDecoders.fromEnvironment(new MockEnvironment()
                .withProperty("spring.security.oauth2.resourceserver.jwt.jwk-set-uri", "http://127.0.0.1:9/certs")
                .withProperty("spring.security.oauth2.resourceserver.jwt.jws-algorithms", "XX999")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("spring.security.oauth2.resourceserver.jwt.jws-algorithms: XX999 is not a JWS signature "
                        + "algorithm (RS256, ES256, …)");
    }

    @Test
    void theValidatorChecksIssuerAudienceAndExpiry() {
        var v = JwtDecoders.validator("https://login.example.com", List.of("posekit", "other"));
        Instant later = Instant.now().plusSeconds(600);
        assertThat(v.validate(token("https://login.example.com", List.of("posekit"), later)).hasErrors()).isFalse();
        assertThat(v.validate(token("https://login.example.com", List.of("x", "other"), later)).hasErrors()).isFalse();
        assertThat(v.validate(token("https://evil.example.com", List.of("posekit"), later)).hasErrors()).isTrue();
        assertThat(v.validate(token("https://login.example.com", List.of("x"), later)).hasErrors()).isTrue();
        assertThat(v.validate(token("https://login.example.com", null, later)).hasErrors()).isTrue();
        assertThat(v.validate(token("https://login.example.com", List.of("posekit"),
                Instant.now().minusSeconds(600))).hasErrors()).isTrue();
        // no audiences configured: any audience, or none
        var any = JwtDecoders.validator("https://login.example.com", List.of());
        assertThat(any.validate(token("https://login.example.com", null, later)).hasErrors()).isFalse();
        // neither (a key set alone): the timestamps still
        var none = JwtDecoders.validator(null, List.of());
        assertThat(none.validate(token(null, null, later)).hasErrors()).isFalse();
        assertThat(none.validate(token(null, null, Instant.now().minusSeconds(600))).hasErrors()).isTrue();
    }
}
