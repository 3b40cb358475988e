package io.posekit;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.security.oauth2.server.resource.autoconfigure.reactive.ReactiveOAuth2ResourceServerAutoConfiguration;
import org.springframework.boot.security.oauth2.server.resource.autoconfigure.web.reactive.ReactiveOAuth2ResourceServerWebSecurityAutoConfiguration;

/**
 * Entry point of the posekit service. Boot's reactive resource-server auto-configuration is left out: the JWT decoder
 * is made from the environment at start-up (see {@code api.security.JwtDecoders}), because the packaged context is
 * processed ahead of time and an auto-configuration's conditions would then be fixed when the jar is built.
 */
@SpringBootApplication(exclude = {ReactiveOAuth2ResourceServerAutoConfiguration.class,
        ReactiveOAuth2ResourceServerWebSecurityAutoConfiguration.class})
public class PosekitApplication {

    public static void main(String[] args) {
        // one event loop per core: the API answers cheap requests on it (see ApiServer), more loops than cores only switch
        if (System.getProperty("reactor.netty.ioWorkerCount") == null) {
            System.setProperty("reactor.netty.ioWorkerCount",
                    Integer.toString(Runtime.getRuntime().availableProcessors()));
        }
        // Netty's leak detector records a stack trace for one buffer in 128 (1 % of a small request's CPU); the tests,
        // which do not start here, keep it on
        if (System.getProperty("io.netty.leakDetection.level") == null) {
            System.setProperty("io.netty.leakDetection.level", "disabled");
        }
        SpringApplication.run(PosekitApplication.class, args);
    }
}
