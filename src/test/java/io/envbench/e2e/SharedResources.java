package io.envbench.e2e;

/**
 * What two test classes running at once must not both use: the keys of their {@code @ResourceLock}s. A class that
 * uses one of them and is not {@code @Isolated} declares its lock, so JUnit never runs it beside another that does.
 */
final class SharedResources {
    /**
     * The local Docker engine's labelled resources: a class that makes them, or checks after each test that none are
     * left (the check sees every class's).
     */
    static final String LABELLED_DOCKER = "labelled resources of the local Docker engine";

    /** Loopback port 18080, where static-web.jmx and http-load.jmx load unless told otherwise. */
    static final String PORT_18080 = "loopback port 18080";

    private SharedResources() {}
}
