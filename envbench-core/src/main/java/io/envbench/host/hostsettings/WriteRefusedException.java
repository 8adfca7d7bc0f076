package io.envbench.host.hostsettings;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The kernel refused a new value for a host file that exists (an IRQ it manages answers EIO or EPERM, a mask naming an
 * offline CPU EINVAL). The value before was written down; the file is as it was.
 */
public final class WriteRefusedException extends IOException {
    private final Path file;
    private final String reason;

    public WriteRefusedException(Path file, String value, String reason, IOException cause) {
        super("cannot write '" + value + "' to " + file + ": " + reason, cause);
        this.file = file;
        this.reason = reason;
    }

    public Path file() {
        return file;
    }

    /** The kernel's words, e.g. {@code Input/output error}. */
    public String reason() {
        return reason;
    }
}
