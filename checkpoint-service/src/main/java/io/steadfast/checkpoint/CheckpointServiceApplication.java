package io.steadfast.checkpoint;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

@SpringBootApplication
public class CheckpointServiceApplication {

    public static void main(String[] args) {
        SpringApplication.run(CheckpointServiceApplication.class, args);
    }
}
