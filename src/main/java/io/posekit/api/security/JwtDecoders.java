package io.posekit.api.security;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.security.oauth2.server.resource.autoconfigure.OAuth2ResourceServerProperties;
import org.springframework.core.env.Environment;
import org.springframework.security.oauth2.core.OAuth2TokenValidator;
import org.springframework.security.oauth2.jose.jws.SignatureAlgorithm;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtClaimNames;
import org.springframework.security.oauth2.jwt.JwtClaimValidator;
import org.springframework.security.oauth2.jwt.JwtIssuerValidator;
import org.springframework.security.oauth2.jwt.JwtValidators;
import org.springframework.security.oauth2.jwt.NimbusReactiveJwtDecoder;
import org.springframework.security.oauth2.jwt.ReactiveJwtDecoder;
import org.springframework.security.oauth2.jwt.SupplierReactiveJwtDecoder;

/**
 * The JWT decoder that Boot's resource-server properties describe ({@code spring.security.oauth2.resourceserver.jwt.}
 * {@code issuer-uri}, {@code jwk-set-uri}, {@code audiences}, {@code jws-algorithms}), built from the environment when
 * the context starts. Why not Boot's auto-configuration: the packaged service's context is processed ahead of time
 * (issue 32), which fixes every auto-configuration's conditions when the jar is built, and an issuer is a deployment's
 * setting, not the build's; so that auto-configuration is excluded and this is the one way a decoder is made, with
 * Boot's rules: Spring Security's Nimbus decoder with the issuer's keys, validating the timestamps, the issuer (when
 * named) and the audience (when given).
 *
 * <p>With an {@code issuer-uri} the issuer's metadata and keys are fetched on the first token, never at start-up (a
 * slow or unreachable issuer delays that request only); a {@code jwk-set-uri} names the keys directly.
 */
final class JwtDecoders {

    private static final String PREFIX = "spring.security.oauth2.resourceserver.jwt";

    private JwtDecoders() {
    }

    /**
     * The decoder the environment configures, or empty when it names neither an issuer nor a key set.
     *
     * @throws IllegalArgumentException when a {@code jws-algorithms} entry is not a JWS signature algorithm
     */
    static Optional<ReactiveJwtDecoder> fromEnvironment(Environment env) {
        OAuth2ResourceServerProperties.Jwt jwt = Binder.get(env)
                .bind(PREFIX, OAuth2ResourceServerProperties.Jwt.class)
                .orElseGet(OAuth2ResourceServerProperties.Jwt::new);
        String issuer = blankToNull(jwt.getIssuerUri());
        String jwkSet = blankToNull(jwt.getJwkSetUri());
        if (issuer == null && jwkSet == null) {
            return Optional.empty();
        }
        List<SignatureAlgorithm> algorithms = jwt.getJwsAlgorithms().stream().map(name -> {
            SignatureAlgorithm a = SignatureAlgorithm.from(name);
            if (a == null) {
                throw new IllegalArgumentException(PREFIX + ".jws-algorithms: " + name
                        + " is not a JWS signature algorithm (RS256, ES256, …)");
            }
            return a;
        }).toList();
        OAuth2TokenValidator<Jwt> validator = validator(issuer, jwt.getAudiences());
        if (jwkSet != null) {
            return Optional.of(build(NimbusReactiveJwtDecoder.withJwkSetUri(jwkSet), algorithms, validator));
        }
        return Optional.of(new SupplierReactiveJwtDecoder(
                () -> build(NimbusReactiveJwtDecoder.withIssuerLocation(issuer), algorithms, validator)));
    }

    private static NimbusReactiveJwtDecoder build(NimbusReactiveJwtDecoder.JwkSetUriReactiveJwtDecoderBuilder builder,
            List<SignatureAlgorithm> algorithms, OAuth2TokenValidator<Jwt> validator) {
        if (!algorithms.isEmpty()) {
            builder.jwsAlgorithms(set -> {
                set.clear();
                set.addAll(algorithms);
            });
        }
        NimbusReactiveJwtDecoder decoder = builder.build();
        decoder.setJwtValidator(validator);
        return decoder;
    }

    /** The timestamps always; the issuer when named; one of {@code audiences} in {@code aud} when any is given. */
    static OAuth2TokenValidator<Jwt> validator(String issuer, List<String> audiences) {
        List<OAuth2TokenValidator<Jwt>> validators = new ArrayList<>();
        if (issuer != null) {
            validators.add(new JwtIssuerValidator(issuer));
        }
        if (audiences != null && !audiences.isEmpty()) {
            validators.add(new JwtClaimValidator<List<String>>(JwtClaimNames.AUD,
                    aud -> aud != null && aud.stream().anyMatch(audiences::contains)));
        }
        return validators.isEmpty() ? JwtValidators.createDefault() : JwtValidators.createDefaultWithValidators(validators);
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }
}
