package io.steadfast.router;

import io.steadfast.router.leadership.RouterStartup;
import io.steadfast.runtime.concurrent.AsyncCompletions;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** The control plane: validates and places topologies, tracks hosts by their heartbeats, serves results. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class RouterApplication {

    public static void main(String[] args) throws Exception {
        AsyncCompletions.onThePoolEvenOnSmallMachines(); // before anything creates the pool
        RouterStartup.run(RouterApplication.class, args);
    }
}
