package io.posekit.api.security;

import java.util.Locale;
import java.util.Optional;

/**
 * What a caller may do, per operation: the OAuth2 scopes of posekit's API ({@code posekit:read} …), carried by JWTs
 * in their {@code scope}/{@code scp} claim and by API keys in the key file. Spring Security's authority for a scope
 * is {@code SCOPE_} + its name.
 */
public enum Scope {
    /** Sample, describe, list one's own assets, export and render them. */
    READ("posekit:read"),
    /** Upload, add clips, retarget: anything that stores a new asset. */
    WRITE("posekit:write"),
    /** Delete one's reference to an asset. */
    DELETE("posekit:delete"),
    /** Every tenant's assets, metrics, Prometheus, health details, the service's info. */
    ADMIN("posekit:admin");

    private final String scopeName;

    Scope(String scopeName) {
        this.scopeName = scopeName;
    }

    /** The OAuth2 scope, e.g. {@code posekit:read}. */
    public String scopeName() {
        return scopeName;
    }

    /** Spring Security's authority for it, e.g. {@code SCOPE_posekit:read}. */
    public String authority() {
        return "SCOPE_" + scopeName;
    }

    /** The scope named {@code name} ({@code posekit:read}, case-insensitive), or empty for another scope. */
    public static Optional<Scope> byName(String name) {
        String n = name.strip().toLowerCase(Locale.ROOT);
        for (Scope s : values()) {
            if (s.scopeName.equals(n)) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }

    /** The scope whose authority is {@code authority} ({@code SCOPE_posekit:read}), or empty. */
    public static Optional<Scope> byAuthority(String authority) {
        return authority.startsWith("SCOPE_") ? byName(authority.substring(6)) : Optional.empty();
    }
}
