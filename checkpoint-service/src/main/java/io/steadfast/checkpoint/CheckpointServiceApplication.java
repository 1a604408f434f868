package io.steadfast.checkpoint;

import io.steadfast.runtime.concurrent.AsyncCompletions;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

@SpringBootApplication
@ConfigurationPropertiesScan
public class CheckpointServiceApplication {

    public static void main(String[] args) {
        AsyncCompletions.onThePoolEvenOnSmallMachines(); // before anything creates the pool
        SpringApplication.run(CheckpointServiceApplication.class, args);
    }
}
