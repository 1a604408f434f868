package io.steadfast.cluster;

import io.steadfast.cluster.process.ServiceProcess;

/** A service process did not become ready: it exited, or it was not ready in time. Names the process and its log. */
public final class ServiceStartupException extends RuntimeException {

    private static final int EXCERPT_LINES = 25;

    private final transient ServiceProcess process;

    public ServiceStartupException(ServiceProcess process, String reason) {
        super(process.describe() + " " + reason + ".\nLog: " + process.logFile()
                + "\n" + String.join("\n", process.logExcerpt(EXCERPT_LINES).stream().map(l -> "  | " + l).toList()));
        this.process = process;
    }

    public ServiceProcess process() {
        return process;
    }
}
