package io.envbench.base.container;

import java.util.Locale;

import io.envbench.base.settings.InvalidSettingException;

/** How a container reaches the network. */
public enum NetworkMode {
    /** The host's network namespace: no port mapping, no NAT. */
    HOST,
    /** Docker's default bridge; the target port is published on 127.0.0.1 (through Docker's port mapping). */
    BRIDGE;

    public static NetworkMode parse(String field, String text) {
        String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        return switch (t) {
            case "host" -> HOST;
            case "bridge", "" -> BRIDGE;
            default ->
                throw new InvalidSettingException(field, "'" + text + "' is not a network mode; use host or bridge");
        };
    }

    public String dockerName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
