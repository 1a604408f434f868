package io.steadfast.router;

import io.steadfast.runtime.concurrent.AsyncCompletions;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** The control plane: validates and places topologies, tracks hosts by their heartbeats, serves results. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class RouterApplication {

    public static void main(String[] args) {
        AsyncCompletions.onThePoolEvenOnSmallMachines(); // before anything creates the pool
        SpringApplication.run(RouterApplication.class, args);
    }
}
