package io.posekit;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** Entry point of the posekit service. */
@SpringBootApplication
public class PosekitApplication {

    public static void main(String[] args) {
        SpringApplication.run(PosekitApplication.class, args);
    }
}
