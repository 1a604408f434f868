package io.steadfast.checkpoint.store;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Explains a startup that failed because another process holds the embedded store's file. */
class CheckpointStoreLockedFailureAnalyzer extends AbstractFailureAnalyzer<CheckpointStoreLockedException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, CheckpointStoreLockedException cause) {
        String file = cause.file().toAbsolutePath().toString();
        return new FailureAnalysis(
                "Another checkpoint-service uses " + file + " (the embedded store's file can be open in one process"
                        + " only).",
                "Stop the other checkpoint-service, or set steadfast.checkpoint.embedded.data-dir to another"
                        + " directory, or set spring.mongodb.uri to use a MongoDB server instead of the embedded store.",
                cause);
    }
}
