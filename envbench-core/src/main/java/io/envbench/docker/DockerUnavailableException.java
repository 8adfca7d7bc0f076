package io.envbench.docker;

/**
 * A Docker call that got no answer: the daemon is gone (nothing listens at its address) or frozen (it does not
 * answer within the call's {@link DockerDeadlines deadline}). The message names the daemon's address and what to
 * do; it is meant for the user as it is. Unchecked, as docker-java's own exceptions are.
 */
public final class DockerUnavailableException extends RuntimeException {
    private final String address;

    public DockerUnavailableException(String address, String message) {
        super(message);
        this.address = address;
    }

    /** The daemon's address, e.g. {@code unix:///var/run/docker.sock}. */
    public String address() {
        return address;
    }
}
