package io.envbench.base.container;

import java.util.List;
import java.util.Locale;

import io.envbench.base.settings.InvalidSettingException;

/**
 * The seccomp filter on a container's system calls. Docker's default profile checks every system call of the
 * container's processes; turning it off measures what that costs.
 */
public enum Seccomp {
    /** The engine's own profile: what a container gets when nothing is said. */
    DEFAULT,
    /** No filter ({@code docker run --security-opt seccomp=unconfined}). */
    UNCONFINED;

    public static Seccomp parse(String field, String text) {
        String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        return switch (t) {
            case "default", "" -> DEFAULT;
            case "unconfined" -> UNCONFINED;
            default ->
                throw new InvalidSettingException(
                        field,
                        "'" + text + "' is not a seccomp setting; use default (the engine's own profile) or"
                                + " unconfined (no filter)");
        };
    }

    /** As a file and the JMeter field write it: {@code default} or {@code unconfined}. */
    public String fieldValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The container's {@code --security-opt} values: none for the engine's own profile. */
    public List<String> securityOpts() {
        return this == UNCONFINED ? List.of("seccomp=unconfined") : List.of();
    }
}
