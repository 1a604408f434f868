package io.steadfast.examples.scoring;

/** A scoring version fails on purpose, as its {@code throwAtInput} said: a transient fault to be masked. */
public final class InjectedFaultException extends RuntimeException {

    InjectedFaultException(String message) {
        super(message);
    }
}
