package io.steadfast.host.fault;

/** Ends the process at once; a bean so that tests can replace {@link Runtime#halt(int)}. */
@FunctionalInterface
public interface ProcessHalter {

    void halt(int status);
}
