package io.steadfast.host.registration;

/**
 * Says when this host may register with the router: a host the router knows is a placement target and may be made
 * a standby that takes over a failed host's tasks, so it registers once it is ready for that.
 */
@FunctionalInterface
public interface RegistrationGate {

    /** Registers at once. */
    RegistrationGate OPEN = () -> true;

    /** Whether the host may register now; asked before every registration attempt. */
    boolean isOpen();
}
