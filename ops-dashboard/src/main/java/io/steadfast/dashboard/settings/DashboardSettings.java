package io.steadfast.dashboard.settings;

import java.net.URI;
import java.util.List;

/**
 * What the page needs to know about the dashboard before it draws: {@code GET /api/v1/settings}.
 *
 * @param routerUrls     the router URLs the dashboard was given (those of every replica), shown in the header
 * @param faultInjection whether the page shows a Kill button per host (steadfast.dashboard.fault-injection.enabled)
 * @param votes          whether the page shows the votes of N-version operators; the router serves them since
 *                       N-version operators exist, so always true now
 * @param version        the dashboard's version, from its build
 */
public record DashboardSettings(List<URI> routerUrls, boolean faultInjection, boolean votes, String version) {
}
