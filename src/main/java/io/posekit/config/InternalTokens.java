package io.posekit.config;

import java.time.Duration;

/**
 * Bearer tokens for the service's own calls to its API (the start-up warm-up drives the API over loopback as a
 * client would), made by the security configuration, which {@code config} may not name: on a secured service a key
 * known only in memory, for the reserved tenant {@value #TENANT} with the read, write and delete scopes; on an open
 * service none is needed.
 */
public interface InternalTokens {

    /** The tenant the service's own calls act as; a key file or token naming it gets no more than any tenant. */
    String TENANT = "posekit-internal";

    /**
     * A token valid for at most {@code ttl}, or {@code null} when the service is open (no token is needed).
     */
    String issue(Duration ttl);

    /** Revokes a token from {@link #issue}: it is refused from now on. */
    void revoke(String token);
}
