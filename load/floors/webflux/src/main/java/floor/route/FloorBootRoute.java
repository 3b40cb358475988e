package floor.route;

import floor.FloorHandler;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.reactor.netty.NettyRouteProvider;
import org.springframework.context.annotation.Bean;

/**
 * The floor of a Reactor Netty route inside a Spring Boot WebFlux application: {@code GET /floor} is a
 * {@link NettyRouteProvider} route, answered before Spring's handler; everything else (none here) would go to WebFlux.
 */
@SpringBootApplication
public class FloorBootRoute {

    public static void main(String[] args) {
        SpringApplication.run(FloorBootRoute.class, args);
    }

    @Bean
    NettyRouteProvider floor() {
        return routes -> routes.get("/floor", FloorHandler::handle);
    }
}
