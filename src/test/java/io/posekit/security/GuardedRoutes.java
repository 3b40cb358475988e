package io.posekit.security;

import io.posekit.api.http.ApiServer;
import io.posekit.api.http.Route;
import io.posekit.api.security.AccessPolicy;
import io.posekit.api.security.Scope;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.context.ApplicationContext;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.reactive.handler.SimpleUrlHandlerMapping;
import org.springframework.web.reactive.result.method.RequestMappingInfo;
import org.springframework.web.reactive.result.method.RequestMappingInfoHandlerMapping;
import org.springframework.web.util.pattern.PathPattern;

/**
 * Every route a running posekit answers, read from its own tables: the API server's router, and Spring WebFlux's
 * handler mappings (request mappings: Actuator's endpoints, Swagger UI's redirects; URL mappings: static resources,
 * expanded to the files they serve). Each as a request to make, with what the configured {@link AccessPolicy} says
 * it needs.
 */
final class GuardedRoutes {

    /**
     * @param method the request method
     * @param path a concrete path (variables filled in)
     * @param scope the scope it needs ({@code null} when open)
     * @param open whether it is answered without credentials
     * @param body a body for routes that read one, or {@code null}
     * @param headers request headers (name, value, …)
     */
    record Probe(String method, String path, Scope scope, boolean open, byte[] body, String[] headers) {

        @Override
        public String toString() {
            return method + " " + path;
        }
    }

    private GuardedRoutes() {
    }

    static List<Probe> all(ApplicationContext context, int port) {
        AccessPolicy policy = context.getBean(AccessPolicy.class);
        Map<String, Probe> probes = new LinkedHashMap<>();
        for (Route r : context.getBean(ApiServer.class).router().routes()) {
            String path = concrete(r.template().text());
            Scope scope = r.scope() != null ? r.scope() : policy.isOpenPath(path) ? null : Scope.READ;
            byte[] body = null;
            String[] headers = {};
            if (r.maxBody() > 0) {
                boolean json = r.consumes().contains("application/json");
                body = (json ? "{}" : "not a model").getBytes(StandardCharsets.UTF_8);
                headers = new String[] {"Content-Type", json ? "application/json" : "application/octet-stream"};
            }
            add(probes, new Probe(r.method(), path, scope, scope == null, body, headers));
            if (r.method().equals("GET")) {
                add(probes, new Probe("HEAD", path, scope, scope == null, null, headers));
            }
        }
        for (RequestMappingInfoHandlerMapping mapping : context.getBeansOfType(RequestMappingInfoHandlerMapping.class)
                .values()) {
            for (RequestMappingInfo info : mapping.getHandlerMethods().keySet()) {
                List<String> methods = info.getMethodsCondition().getMethods().isEmpty() ? List.of("GET")
                        : info.getMethodsCondition().getMethods().stream().map(RequestMethod::name).toList();
                for (PathPattern pattern : info.getPatternsCondition().getPatterns()) {
                    for (String method : methods) {
                        add(probes, webFlux(policy, method, concrete(pattern.getPatternString())));
                    }
                }
            }
        }
        for (SimpleUrlHandlerMapping mapping : context.getBeansOfType(SimpleUrlHandlerMapping.class).values()) {
            for (String pattern : mapping.getUrlMap().keySet()) {
                for (String path : resourcesOf(pattern)) {
                    add(probes, webFlux(policy, "GET", path));
                }
            }
        }
        return new ArrayList<>(probes.values());
    }

    private static void add(Map<String, Probe> probes, Probe p) {
        probes.putIfAbsent(p.method() + " " + p.path(), p);
    }

    /** A route Spring WebFlux serves: open paths need nothing, the Actuator the admin scope, the rest read. */
    private static Probe webFlux(AccessPolicy policy, String method, String path) {
        if (policy.isOpenPath(path)) {
            return new Probe(method, path, null, true, null, new String[0]);
        }
        Scope scope = path.startsWith("/actuator") ? Scope.ADMIN : Scope.READ;
        return new Probe(method, path, scope, false, null, new String[0]);
    }

    /** A path for a template or pattern: variables and wildcards filled with values its handler takes. */
    static String concrete(String template) {
        return template.replace("{id}", "0".repeat(64)).replace("{skin}", "0").replace("{mesh}", "0")
                .replace("{a}", "liveness").replace("{b}", "store").replace("{requiredMetricName}", "jvm.threads.live")
                .replace("{*path}", "x").replaceAll("\\{[^}]*}", "x").replace("/**", "/x").replace("**", "x")
                .replace("*", "x");
    }

    /** The files a static resource pattern serves ({@code /**}: the viewer's; {@code /webjars/**}: three.js). */
    private static List<String> resourcesOf(String pattern) {
        if (pattern.startsWith("/webjars/")) {
            return List.of("/webjars/three/build/three.module.js");
        }
        if (!pattern.equals("/**")) {
            return List.of(concrete(pattern));
        }
        List<String> files = new ArrayList<>();
        try {
            for (Resource r : new PathMatchingResourcePatternResolver().getResources("classpath:/static/**/*.*")) {
                String url = r.getURL().toString();
                files.add(url.substring(url.indexOf("/static/") + "/static".length()));
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        files.add("/");
        return files;
    }
}
