package io.envbench.launch.dockerdaemon;

/**
 * Whether EnvBench may restart the Docker daemon to change its settings. A restart stops every container of the
 * daemon, so it is never implied: the caller passes {@link #GRANTED} only when its user asked for it (an experiment's
 * field, {@code --allow-docker-restart}); with {@link #REFUSED} a change that needs a restart is refused with a message
 * saying how to allow it.
 */
public enum RestartPermission {
    /** The user allowed restarting the daemon. */
    GRANTED,
    /** The user did not: settings that differ are refused. */
    REFUSED
}
