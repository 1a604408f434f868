package io.steadfast.host;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

@SpringBootApplication
public class PeHostApplication {

    public static void main(String[] args) {
        SpringApplication.run(PeHostApplication.class, args);
    }
}
