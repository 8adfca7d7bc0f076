package io.envbench.launch.docker;

/**
 * A Docker call that got no answer: the daemon is gone (nothing listens at its address, or the connection failed,
 * TLS included) or frozen (it does not answer within the call's {@link DockerDeadlines deadline}). The message names
 * the daemon's address and what to do; it is meant for the user as it is. Unchecked, as docker-java's own exceptions
 * are.
 */
public final class DockerUnavailableException extends RuntimeException {
    private final String address;
    private final boolean noAnswerInTime;

    public DockerUnavailableException(String address, String message) {
        this(address, message, null, false);
    }

    /**
     * @param cause          what the transport threw (null when the daemon was known lost and nothing was sent)
     * @param noAnswerInTime the deadline passed (a frozen or overloaded daemon), rather than the connection failing
     */
    public DockerUnavailableException(String address, String message, Throwable cause, boolean noAnswerInTime) {
        super(message, cause);
        this.address = address;
        this.noAnswerInTime = noAnswerInTime;
    }

    /** The daemon's address, e.g. {@code unix:///var/run/docker.sock}. */
    public String address() {
        return address;
    }

    /** Whether the deadline passed (the daemon frozen or overloaded), rather than the connection failing. */
    public boolean noAnswerInTime() {
        return noAnswerInTime;
    }
}
