package io.posekit.api.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.security.oauth2.server.resource.InvalidBearerTokenException;
import org.springframework.security.oauth2.server.resource.authentication.BearerTokenAuthenticationToken;

class AuthenticatorTest {

    /** A clock the test moves. */
    static final class Hands extends Clock {
        Instant now = Instant.parse("2026-11-27T00:00:00Z");

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    @Test
    void anIssuedKeyActsAsItsTenantUntilRevokedOrExpiredWithoutAKeyFile() {
        Hands clock = new Hands();
        // JWT-only deployments have no key file: the service's own keys work there too
        Authenticator auth = new Authenticator(null, null, "tenant", 10, clock);
        String key = auth.issue("posekit-internal", EnumSet.of(Scope.READ, Scope.WRITE), "warm-up", Duration.ofSeconds(30));
        assertThat(key).startsWith(ApiKeys.PREFIX).hasSize(ApiKeys.PREFIX.length() + 43);
        Caller caller = auth.known(key);
        assertThat(caller.tenant()).isEqualTo("posekit-internal");
        assertThat(caller.scopes()).isEqualTo(EnumSet.of(Scope.READ, Scope.WRITE));
        assertThat(caller.principal()).isEqualTo("warm-up");
        assertThat(caller.expiresAt()).isEqualTo(Instant.parse("2026-11-27T00:00:30Z"));
        // the same through Spring Security's path (the WebFlux routes)
        assertThat(((CallerAuthentication) auth.authenticate(new BearerTokenAuthenticationToken(key)).block())
                .caller()).isEqualTo(caller);

        String other = auth.issue("posekit-internal", EnumSet.of(Scope.READ), "warm-up", Duration.ofSeconds(30));
        auth.revoke(key);
        assertThatThrownBy(() -> auth.known(key)).isInstanceOf(InvalidBearerTokenException.class);
        assertThat(auth.known(other).scopes()).containsExactly(Scope.READ);

        clock.now = clock.now.plusSeconds(30);
        assertThatThrownBy(() -> auth.known(other)).isInstanceOf(InvalidBearerTokenException.class);
        // an expired key is forgotten, not only refused
        assertThat(auth.issuedCount()).isZero();
    }

    @Test
    void issuedKeysSitBesideTheKeyFilesKeys() {
        String fileKey = ApiKeys.generate();
        ApiKeys keys = new ApiKeys(List.of(new ApiKeys.Entry(ApiKeys.sha256(fileKey),
                new Caller("acme", EnumSet.of(Scope.READ), "acme", Instant.MAX))));
        Authenticator auth = new Authenticator(keys, null, "tenant", 10, Clock.systemUTC());
        String own = auth.issue("posekit-internal", EnumSet.of(Scope.DELETE), "warm-up", Duration.ofMinutes(1));
        assertThat(auth.known(fileKey).tenant()).isEqualTo("acme");
        assertThat(auth.known(own).tenant()).isEqualTo("posekit-internal");
        auth.revoke(own);
        assertThat(auth.known(fileKey).tenant()).isEqualTo("acme");
        assertThatThrownBy(() -> auth.known(own)).isInstanceOf(InvalidBearerTokenException.class)
                .hasMessageContaining("not known");
        assertThatThrownBy(() -> auth.known(ApiKeys.generate())).isInstanceOf(InvalidBearerTokenException.class);
    }
}
