package io.posekit.api.security;

import java.time.Instant;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * Who is asking: the tenant whose assets a request sees, the scopes it holds, a name for logs (the token's subject
 * or the API key's name) and until when the credentials are valid.
 *
 * @param tenant the tenant (non-blank); assets belong to tenants
 * @param scopes what the caller may do (unmodifiable)
 * @param principal who the credentials name, for the access log
 * @param expiresAt when the credentials stop being valid ({@link Instant#MAX} for API keys and the open mode)
 */
public record Caller(String tenant, Set<Scope> scopes, String principal, Instant expiresAt) {

    /** The tenant of every request when posekit runs open (no authentication). */
    public static final String DEFAULT_TENANT = io.posekit.store.Reference.DEFAULT_TENANT;
    /** The caller of every request when posekit runs open: the default tenant, every scope. */
    public static final Caller OPEN = new Caller(DEFAULT_TENANT, EnumSet.allOf(Scope.class), "anonymous", Instant.MAX);
    /** The longest tenant name, in characters. */
    public static final int MAX_TENANT_LENGTH = 200;

    public Caller {
        Objects.requireNonNull(tenant, "tenant");
        if (tenant.isBlank() || tenant.length() > MAX_TENANT_LENGTH) {
            throw new IllegalArgumentException("a tenant is 1 to " + MAX_TENANT_LENGTH + " characters, not blank");
        }
        scopes = scopes.isEmpty() ? Set.of() : java.util.Collections.unmodifiableSet(EnumSet.copyOf(scopes));
        Objects.requireNonNull(principal, "principal");
        Objects.requireNonNull(expiresAt, "expiresAt");
    }

    /** Whether the caller holds {@code scope}. */
    public boolean has(Scope scope) {
        return scopes.contains(scope);
    }
}
