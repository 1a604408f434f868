package io.steadfast.router;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** The control plane: validates and places topologies, tracks hosts by their heartbeats, serves results. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class RouterApplication {

    public static void main(String[] args) {
        SpringApplication.run(RouterApplication.class, args);
    }
}
