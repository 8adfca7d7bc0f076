package io.envbench.base.environment;

/** A target could not be started or did not get ready; nothing it made is left behind. */
public final class TargetStartException extends Exception {
    public TargetStartException(String message) {
        super(message);
    }

    public TargetStartException(String message, Throwable cause) {
        super(message, cause);
    }
}
