package io.steadfast.cluster.progress;

import io.steadfast.protocol.router.HostView;
import io.steadfast.runtime.plan.HostKind;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Formats the router's hosts as one line of the progress output, by kind: the LIVE ones by id, and how many are not
 * (dead hosts stay listed by the router, so a long run would otherwise fill the line with them), e.g.
 * {@code   hosts LIVE: host-1 host-3 host-4 (1 DEAD)   voters LIVE: voter-1}.
 */
public final class HostsLine {

    private HostsLine() {
    }

    public static String format(List<HostView> hosts) {
        return "  hosts LIVE: " + ofKind(hosts, HostKind.PE) + "   voters LIVE: " + ofKind(hosts, HostKind.VOTER)
                + System.lineSeparator();
    }

    private static String ofKind(List<HostView> hosts, HostKind kind) {
        List<HostView> ofKind = hosts.stream().filter(host -> host.kind() == kind).toList();
        String live = ofKind.stream().filter(HostView::isLive).map(host -> host.hostId().value()).sorted()
                .collect(Collectors.joining(" "));
        long others = ofKind.stream().filter(host -> !host.isLive()).count();
        return (live.isEmpty() ? "none" : live) + (others == 0 ? "" : " (" + others + " DEAD)");
    }
}
