package floor.webflux;

import floor.FloorHandler;

import java.util.Optional;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

/** The floor of Spring WebFlux functional routes on Reactor Netty: {@code GET /floor} answers pre-built bytes. */
@SpringBootApplication
public class FloorWebFlux {

    public static void main(String[] args) {
        SpringApplication.run(FloorWebFlux.class, args);
    }

    @Bean
    RouterFunction<ServerResponse> floor() {
        return RouterFunctions.route().GET("/floor", request -> {
            Optional<String> clip = request.queryParam("clip");
            Optional<String> time = request.queryParam("time");
            Optional<String> loop = request.queryParam("loop");
            boolean binary = request.headers().accept().contains(MediaType.APPLICATION_OCTET_STREAM);
            return ServerResponse.ok()
                    .contentType(binary ? MediaType.APPLICATION_OCTET_STREAM : MediaType.APPLICATION_JSON)
                    .bodyValue(binary ? FloorHandler.BINARY : FloorHandler.JSON);
        }).build();
    }
}
