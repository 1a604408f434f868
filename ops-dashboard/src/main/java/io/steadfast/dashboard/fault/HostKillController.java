package io.steadfast.dashboard.fault;

import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/** The page's Kill button of a host; see {@link HostKiller} for what it does and the switches that guard it. */
@RestController
class HostKillController {

    private final HostKiller killer;

    HostKillController(HostKiller killer) {
        this.killer = killer;
    }

    /**
     * 202 once the host accepted; 403 FAULT_INJECTION_DISABLED, 404 HOST_NOT_FOUND, 502 HOST_UNREACHABLE,
     * HOST_FAULT_INJECTION_DISABLED, HOST_ERROR or ROUTER_UNREACHABLE otherwise.
     */
    @PostMapping("/api/v1/hosts/{hostId}/kill")
    @ResponseStatus(HttpStatus.ACCEPTED)
    KillAccepted kill(@PathVariable String hostId) {
        return killer.kill(hostId);
    }
}
