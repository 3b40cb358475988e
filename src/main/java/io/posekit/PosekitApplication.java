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
        SpringApplication.run(PosekitApplication.class, args);
    }
}
