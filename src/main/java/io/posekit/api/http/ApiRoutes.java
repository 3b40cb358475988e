package io.posekit.api.http;

/** A set of API operations: each controller registers its routes with the server's router. */
public interface ApiRoutes {

    void register(Router.Builder routes);
}
