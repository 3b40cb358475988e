package io.posekit.api.ops;

import io.posekit.config.PosekitProperties;
import io.posekit.store.AssetRepository;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.boot.actuate.endpoint.ApiVersion;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.jackson.EndpointJsonMapper;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.WebServerNamespace;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.health.actuate.endpoint.HealthDescriptor;
import org.springframework.boot.health.actuate.endpoint.ReactiveHealthEndpointWebExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;

/**
 * Health off the request path: Actuator's health answers computed by its web extension (so {@code show-details},
 * groups and status mapping are as configured), kept by {@link HealthSnapshots} and served by {@link HealthRoutes}.
 */
@Configuration(proxyBeanMethods = false)
class OpsConfiguration {

    /** Changes of liveness and readiness, which the health answers show. */
    private final AtomicLong availabilityChanges = new AtomicLong();

    @EventListener
    void availabilityChanged(AvailabilityChangeEvent<?> event) {
        availabilityChanges.incrementAndGet();
    }

    @Bean(destroyMethod = "close")
    HealthSnapshots healthSnapshots(ReactiveHealthEndpointWebExtension health, EndpointJsonMapper json,
            AssetRepository repository, PosekitProperties properties) {
        return new HealthSnapshots(path -> {
            WebEndpointResponse<? extends HealthDescriptor> r = health.health(ApiVersion.V3, WebServerNamespace.SERVER,
                    SecurityContext.NONE, path.toArray(String[]::new)).block();
            if (r == null || r.getBody() == null) {
                return new HealthSnapshots.Snapshot(404, new byte[0], new byte[0], 0);
            }
            return new HealthSnapshots.Snapshot(r.getStatus(), json.get().writeValueAsBytes(r.getBody()),
                    json.get().writeValueAsBytes(java.util.Map.of("status", r.getBody().getStatus().getCode())), 0);
        }, () -> repository.healthEpoch() + availabilityChanges.get(), properties.health().refresh());
    }

    @Bean
    HealthRoutes healthRoutes(HealthSnapshots snapshots) {
        return new HealthRoutes(snapshots);
    }
}
