package io.posekit.api.ops;

import io.posekit.api.http.ApiRoutes;
import io.posekit.api.http.Exchange;
import io.posekit.api.http.Reply;
import io.posekit.api.http.Router;
import io.posekit.api.security.Scope;
import java.util.List;
import java.util.Locale;

/**
 * {@code GET /actuator/health}, its groups ({@code liveness}, {@code readiness}) and components ({@code store},
 * {@code readiness/store}…): Actuator's answers — the same JSON, status codes and media types — kept ready by
 * {@link HealthSnapshots}, so a probe never runs the health indicators' I/O. A kept answer is served on the event
 * loop; one that must be computed first goes to the worker pool. Details (the store's location and contents, the
 * components) are shown to callers with the admin scope; everyone else gets the status alone.
 */
final class HealthRoutes implements ApiRoutes {

    /** Actuator's own media type, its default answer. */
    static final String ACTUATOR_V3 = "application/vnd.spring-boot.actuator.v3+json";
    static final String JSON = "application/json";
    static final String BASE = "/actuator/health";

    private final HealthSnapshots snapshots;

    HealthRoutes(HealthSnapshots snapshots) {
        this.snapshots = snapshots;
    }

    @Override
    public void register(Router.Builder routes) {
        routes.get(BASE).produces(ACTUATOR_V3, JSON).inline(e -> snapshots.isCurrent(List.of()))
                .handle(e -> answer(e, List.of()));
        routes.get(BASE + "/{a}").produces(ACTUATOR_V3, JSON).inline(e -> snapshots.isCurrent(List.of(e.variable("a"))))
                .handle(e -> answer(e, List.of(e.variable("a"))));
        routes.get(BASE + "/{a}/{b}").produces(ACTUATOR_V3, JSON)
                .inline(e -> snapshots.isCurrent(List.of(e.variable("a"), e.variable("b"))))
                .handle(e -> answer(e, List.of(e.variable("a"), e.variable("b"))));
    }

    private Reply answer(Exchange e, List<String> path) {
        HealthSnapshots.Snapshot s = snapshots.get(path);
        if (s.status() == 404) {
            return Reply.empty(404);
        }
        // the probes are open; what the store holds and where it is are shown to the admin scope only
        byte[] body = e.caller().has(Scope.ADMIN) ? s.body() : s.statusOnly();
        return Reply.of(s.status(), contentType(e.header("Accept")), body);
    }

    /** Actuator's choice: its v3 type unless the client asks for plain JSON and not for it. */
    static String contentType(String accept) {
        if (accept == null) {
            return ACTUATOR_V3;
        }
        String a = accept.toLowerCase(Locale.ROOT);
        return a.contains(JSON) && !a.contains(ACTUATOR_V3) ? JSON : ACTUATOR_V3;
    }
}
