package io.posekit;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** Entry point of the posekit service. */
@SpringBootApplication
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
