package io.steadfast.protocol.registration;

import io.steadfast.runtime.plan.HostId;

/**
 * The router's answer to a registration.
 *
 * @param hostId            the host's id
 * @param heartbeatInterval the interval the router suggests, ISO-8601 (e.g. PT0.25S)
 * @param lease             how long after sending a heartbeat that was answered the host may keep running its tasks
 *                          without a newer answer, ISO-8601; past it the host must stop them
 */
public record Registered(HostId hostId, String heartbeatInterval, String lease) {
}
