package io.envbench.launch.dockerdaemon;

import java.io.IOException;

/**
 * The daemon's configuration cannot be read or changed as asked: {@code daemon.json} is not valid JSON, or a setting is
 * also given on dockerd's command line (then dockerd refuses to start). The message names the file or the flag and the
 * fix; nothing was changed.
 */
public final class DaemonConfigException extends IOException {
    public DaemonConfigException(String message) {
        super(message);
    }

    public DaemonConfigException(String message, Throwable cause) {
        super(message, cause);
    }
}
