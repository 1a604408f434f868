package io.steadfast.dashboard;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

@SpringBootApplication
public class OpsDashboardApplication {

    public static void main(String[] args) {
        SpringApplication.run(OpsDashboardApplication.class, args);
    }
}
