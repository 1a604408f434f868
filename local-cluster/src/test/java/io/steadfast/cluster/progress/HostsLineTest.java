package io.steadfast.cluster.progress;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.protocol.router.HostView;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.HostKind;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class HostsLineTest {

    private static HostView host(String id, HostKind kind, String status) {
        return new HostView(new HostId(id), kind, URI.create("http://127.0.0.1:1"), "tcp://127.0.0.1:2", status,
                Instant.EPOCH, List.of());
    }

    @Test
    void listsTheLiveHostsAndVotersApartAndCountsTheDeadOnes() {
        String line = HostsLine.format(List.of(host("host-2", HostKind.PE, HostView.LIVE),
                host("host-1", HostKind.PE, HostView.LIVE), host("host-3", HostKind.PE, "DEAD"),
                host("voter-1", HostKind.VOTER, "DEAD"), host("voter-2", HostKind.VOTER, HostView.LIVE)));

        assertThat(line).isEqualToNormalizingNewlines(
                "  hosts LIVE: host-1 host-2 (1 DEAD)   voters LIVE: voter-2 (1 DEAD)\n");
    }

    @Test
    void saysNoneForAKindWithoutALiveHost() {
        assertThat(HostsLine.format(List.of(host("host-1", HostKind.PE, HostView.LIVE))))
                .contains("voters LIVE: none");
    }
}
