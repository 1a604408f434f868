package io.steadfast.runtime.dataplane;

import java.util.ArrayDeque;
import java.util.Deque;

/** Closes test resources in reverse order of creation, continuing past failures. */
final class AutoCloseableList implements AutoCloseable {

    private final Deque<AutoCloseable> resources = new ArrayDeque<>();

    <T extends AutoCloseable> T add(T resource) {
        resources.push(resource);
        return resource;
    }

    @Override
    public void close() {
        RuntimeException failure = null;
        while (!resources.isEmpty()) {
            try {
                resources.pop().close();
            } catch (Exception e) {
                if (failure == null) {
                    failure = new IllegalStateException("closing test resources failed", e);
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
