package io.steadfast.host.execution;

import io.steadfast.runtime.host.HostDeployment;

/**
 * A deployment this host cancelled because the router's view no longer has it here.
 *
 * @param deployment what ran here
 * @param reason why the router's view ruled it out, for people
 */
public record StaleDeployment(HostDeployment deployment, String reason) {
}
