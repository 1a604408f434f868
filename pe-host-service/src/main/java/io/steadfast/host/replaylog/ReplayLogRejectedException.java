package io.steadfast.host.replaylog;

/** The replay-log store refused a request as invalid (a 4xx answer): sending it again would not help. */
public class ReplayLogRejectedException extends RuntimeException {

    public ReplayLogRejectedException(String message, Throwable cause) {
        super(message, cause);
    }
}
