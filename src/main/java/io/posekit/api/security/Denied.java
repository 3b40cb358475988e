package io.posekit.api.security;

/**
 * A request refused for want of credentials or scope: {@code 401} (no credentials, or credentials that are not
 * valid), {@code 403} (valid credentials without the scope the operation needs) or {@code 400} (an
 * {@code Authorization} header that is not a bearer token's). Carries the RFC 6750 {@code WWW-Authenticate}
 * challenge to answer with.
 */
public final class Denied extends RuntimeException {

    /** The realm of every challenge. */
    public static final String REALM = "posekit";

    private final int status;
    private final String title;
    private final String challenge;

    private Denied(int status, String title, String detail, String challenge) {
        super(detail, null, false, false);
        this.status = status;
        this.title = title;
        this.challenge = challenge;
    }

    /** No credentials: {@code 401}, a challenge without an error code (RFC 6750 §3.1). */
    public static Denied missing() {
        return new Denied(401, "Unauthorized", "this operation needs credentials: send 'Authorization: Bearer <token>' "
                + "with an OAuth2 access token or an API key", "Bearer realm=\"" + REALM + "\"");
    }

    /** Credentials that are not valid (unknown key, bad signature, expired, another issuer): {@code 401 invalid_token}. */
    public static Denied invalidToken(String why) {
        return new Denied(401, "Unauthorized", "the bearer token is not valid: " + why,
                challenge("invalid_token", why, null));
    }

    /** An {@code Authorization} header that is not a well-formed bearer token: {@code 400 invalid_request}. */
    public static Denied invalidRequest(String why) {
        return new Denied(400, "Bad request", why, challenge("invalid_request", why, null));
    }

    /** Valid credentials without {@code scope}: {@code 403 insufficient_scope}. */
    public static Denied insufficientScope(Scope scope) {
        String why = "this operation needs the scope " + scope.scopeName();
        return new Denied(403, "Forbidden", why + ", which the credentials do not grant",
                challenge("insufficient_scope", why, scope.scopeName()));
    }

    private static String challenge(String error, String description, String scope) {
        StringBuilder b = new StringBuilder("Bearer realm=\"").append(REALM).append("\", error=\"").append(error)
                .append("\", error_description=\"").append(quotable(description)).append('"');
        if (scope != null) {
            b.append(", scope=\"").append(scope).append('"');
        }
        return b.toString();
    }

    /** RFC 6750 §3: the description's characters are %x20-21 / %x23-5B / %x5D-7E (no '"' or '\'). */
    private static String quotable(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            b.append(c >= 0x20 && c <= 0x7E && c != '"' && c != '\\' ? c : '\'');
        }
        return b.toString();
    }

    public int status() {
        return status;
    }

    public String title() {
        return title;
    }

    /** The {@code WWW-Authenticate} value. */
    public String challenge() {
        return challenge;
    }
}
