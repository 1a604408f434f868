package io.steadfast.checkpoint;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

@SpringBootApplication
@ConfigurationPropertiesScan
public class CheckpointServiceApplication {

    public static void main(String[] args) {
        SpringApplication.run(CheckpointServiceApplication.class, args);
    }
}
