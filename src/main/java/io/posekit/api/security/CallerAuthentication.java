package io.posekit.api.security;

import java.util.List;
import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.core.authority.SimpleGrantedAuthority;

/** An authenticated {@link Caller} as Spring Security holds it: its scopes are the authorities. */
public final class CallerAuthentication extends AbstractAuthenticationToken {

    private final Caller caller;

    public CallerAuthentication(Caller caller) {
        super(caller.scopes().stream().map(s -> new SimpleGrantedAuthority(s.authority())).toList());
        this.caller = caller;
        setAuthenticated(true);
    }

    public Caller caller() {
        return caller;
    }

    @Override
    public Object getCredentials() {
        return "";
    }

    @Override
    public Object getPrincipal() {
        return caller;
    }

    @Override
    public String getName() {
        return caller.principal();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CallerAuthentication c && c.caller.equals(caller);
    }

    @Override
    public int hashCode() {
        return caller.hashCode();
    }

    static List<String> authorities(Caller caller) {
        return caller.scopes().stream().map(Scope::authority).toList();
    }
}
