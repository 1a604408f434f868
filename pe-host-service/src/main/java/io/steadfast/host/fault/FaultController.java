package io.steadfast.host.fault;

import io.steadfast.host.execution.ProcessingNode;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * Fault injection for demos and tests, present only with {@code steadfast.host.fault-injection.enabled=true}
 * (otherwise the path is 404): {@code POST /api/v1/fault/kill} answers 202 and then halts the process with
 * status 137, like SIGKILL: no shutdown hooks, no goodbye to the router; {@code POST
 * /api/v1/fault/stall-data-plane?for=PT15S} (ISO-8601 or e.g. {@code 15s}) hangs the data plane's IO thread for that
 * long while the rest of the process, its heartbeats included, goes on: a gray failure.
 */
@RestController
@Tag(name = "fault-injection", description = "Present only with steadfast.host.fault-injection.enabled=true")
@ConditionalOnProperty(name = "steadfast.host.fault-injection.enabled", havingValue = "true")
class FaultController {

    private static final Logger LOG = LoggerFactory.getLogger(FaultController.class);
    /** The longest stall injected at once: enough for any drill, short enough that a typo does not wedge a host. */
    private static final Duration LONGEST_STALL = Duration.ofMinutes(10);

    private final ProcessHalter halter;
    private final ProcessingNode node;

    FaultController(ProcessHalter halter, ProcessingNode node) {
        this.halter = halter;
        this.node = node;
    }

    @PostMapping("/api/v1/fault/kill")
    @ApiResponse(responseCode = "202", description = "The process halts now, with status 137")
    ResponseEntity<Void> kill() {
        LOG.warn("Fault injection: halting this host now (exit 137)");
        // halt a moment later, so that the 202 reaches the caller first
        CompletableFuture.delayedExecutor(50, TimeUnit.MILLISECONDS).execute(() -> halter.halt(137));
        return ResponseEntity.accepted().build();
    }

    @PostMapping("/api/v1/fault/stall-data-plane")
    @ApiResponse(responseCode = "202", description = "The data plane's IO thread hangs for that long")
    ResponseEntity<Void> stallDataPlane(@RequestParam("for") String duration) {
        Duration length;
        try {
            length = DurationStyle.detectAndParse(duration);
        } catch (IllegalArgumentException e) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "for: '" + duration + "' is not a duration;"
                    + " give e.g. ?for=15s or ?for=PT15S");
        }
        if (length.isNegative() || length.isZero() || length.compareTo(LONGEST_STALL) > 0) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "for: must be between 1 ms and "
                    + LONGEST_STALL.toMinutes() + " minutes, was " + length + "; e.g. ?for=15s");
        }
        node.injectDataPlaneStall(length);
        return ResponseEntity.accepted().build();
    }
}
