package io.steadfast.voter;

import io.steadfast.host.PeHostApplication;
import io.steadfast.runtime.concurrent.AsyncCompletions;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Import;

/**
 * The voter-service: a host of kind VOTER ({@code steadfast.host.kind} in its application.yml), which the router gives
 * the vote tasks of N-version operators and nothing else. It is the processing-node host itself, imported whole
 * ({@link PeHostApplication}: registration and heartbeats, the runtime and data plane, deployments, checkpoints and
 * local recovery), so that a vote task runs, checkpoints and recovers like any other task; what differs is its kind,
 * its name and its ports.
 */
@SpringBootApplication
@Import(PeHostApplication.class)
public class VoterServiceApplication {

    public static void main(String[] args) {
        AsyncCompletions.onThePoolEvenOnSmallMachines(); // before anything creates the pool, as on any host
        SpringApplication.run(VoterServiceApplication.class, args);
    }
}
