package io.steadfast.host;

import io.steadfast.runtime.concurrent.AsyncCompletions;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** The processing-node host: runs tasks placed here by the router and reports them with heartbeats. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class PeHostApplication {

    public static void main(String[] args) {
        AsyncCompletions.onThePoolEvenOnSmallMachines(); // before anything creates the pool
        SpringApplication.run(PeHostApplication.class, args);
    }
}
