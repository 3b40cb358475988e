package io.posekit.api.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

class AccessPolicyTest {

    static final String KEY = "pk_reader";

    static AccessPolicy secured() {
        ApiKeys keys = new ApiKeys(List.of(new ApiKeys.Entry(ApiKeys.sha256(KEY),
                new Caller("acme", EnumSet.of(Scope.READ), "reader", java.time.Instant.MAX))));
        return new AccessPolicy(false, new Authenticator(keys, null, "sub", 10, Clock.systemUTC()),
                List.of("/", "/actuator/health/**", "/webjars/**"));
    }

    @Test
    void theOpenModeLetsEveryoneInAsTheDefaultTenantWithEveryScope() {
        AccessPolicy open = new AccessPolicy(true, null, List.of());
        assertThat(open.callerNow(Scope.ADMIN, "/api/v1/admin/assets", null)).isSameAs(Caller.OPEN);
        assertThat(Caller.OPEN.tenant()).isEqualTo("default");
        assertThat(Caller.OPEN.scopes()).isEqualTo(EnumSet.allOf(Scope.class));
    }

    @Test
    void securedAnOperationNeedsAValidTokenWithItsScope() {
        AccessPolicy policy = secured();
        assertThat(policy.callerNow(Scope.READ, "/api/v1/assets", "Bearer " + KEY).tenant()).isEqualTo("acme");
        assertThat(policy.callerNow(Scope.READ, "/api/v1/assets", "bearer   " + KEY).tenant()).isEqualTo("acme");
        assertThatThrownBy(() -> policy.callerNow(Scope.READ, "/api/v1/assets", null))
                .isInstanceOfSatisfying(Denied.class, d -> {
                    assertThat(d.status()).isEqualTo(401);
                    assertThat(d.challenge()).isEqualTo("Bearer realm=\"posekit\"");
                });
        assertThatThrownBy(() -> policy.callerNow(Scope.WRITE, "/api/v1/assets", "Bearer " + KEY))
                .isInstanceOfSatisfying(Denied.class, d -> {
                    assertThat(d.status()).isEqualTo(403);
                    assertThat(d.challenge()).isEqualTo("Bearer realm=\"posekit\", error=\"insufficient_scope\", "
                            + "error_description=\"this operation needs the scope posekit:write\", scope=\"posekit:write\"");
                });
        assertThatThrownBy(() -> policy.callerNow(Scope.READ, "/api/v1/assets", "Bearer pk_nobody"))
                .isInstanceOfSatisfying(Denied.class, d -> assertThat(d.challenge()).contains("error=\"invalid_token\""));
        assertThatThrownBy(() -> policy.callerNow(Scope.READ, "/api/v1/assets", "Basic dXNlcjpwYXNz"))
                .isInstanceOfSatisfying(Denied.class, d -> assertThat(d.status()).isEqualTo(401));
        // a JWT is validated later (no issuer here: refused then)
        assertThat(policy.callerNow(Scope.READ, "/api/v1/assets", "Bearer eyJhbGciOiJSUzI1NiJ9.e30.c2ln")).isNull();
    }

    @Test
    void openPathsNeedNothingAndOtherNonApiPathsTheReadScope() {
        AccessPolicy policy = secured();
        assertThat(policy.callerNow(null, "/actuator/health/readiness", null)).isSameAs(AccessPolicy.ANONYMOUS);
        assertThat(policy.callerNow(null, "/webjars/three/build/three.module.js", null)).isSameAs(AccessPolicy.ANONYMOUS);
        assertThat(policy.callerNow(null, "/actuator/health", "Bearer " + KEY).tenant()).isEqualTo("acme");
        assertThatThrownBy(() -> policy.callerNow(null, "/v3/api-docs", null)).isInstanceOf(Denied.class);
        assertThat(policy.callerNow(null, "/v3/api-docs", "Bearer " + KEY).tenant()).isEqualTo("acme");
        // a token on an open path is still checked
        assertThatThrownBy(() -> policy.callerNow(null, "/", "Bearer pk_nobody")).isInstanceOf(Denied.class);
    }

    @Test
    void bearerTokensAreRfc6750B64Tokens() {
        assertThat(AccessPolicy.bearerToken("Bearer abc-._~+/XYZ09==", true)).isEqualTo("abc-._~+/XYZ09==");
        for (String bad : new String[] {"Bearer ", "Bearer a b", "Bearer a=b", "Bearer ==", "Bearer é"}) {
            assertThatThrownBy(() -> AccessPolicy.bearerToken(bad, true)).as(bad)
                    .isInstanceOfSatisfying(Denied.class, d -> assertThat(d.status()).isEqualTo(400));
        }
        assertThat(AccessPolicy.bearerToken("Digest x", false)).isNull();
    }

    @Test
    void keyHashesAreHex() {
        assertThat(HexFormat.of().formatHex(ApiKeys.sha256(KEY))).hasSize(64);
    }
}
