package io.envbench.readiness;

import io.envbench.settings.InvalidSettingException;

import java.time.Duration;
import java.util.Objects;

/**
 * When a started target counts as ready.
 *
 * @param kind    what is checked
 * @param detail  HTTP path (HTTP) or text the log must contain (LOG); empty for TCP
 * @param timeout how long to wait before the start fails
 */
public record Readiness(Kind kind, String detail, Duration timeout) {
    public enum Kind { TCP, HTTP, LOG }

    public Readiness {
        Objects.requireNonNull(kind, "kind");
        detail = detail == null ? "" : detail;
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new InvalidSettingException("readyTimeoutSeconds", "must be a positive number of seconds");
        }
    }

    public static Readiness tcp(Duration timeout) {
        return new Readiness(Kind.TCP, "", timeout);
    }

    public static Readiness http(String path, Duration timeout) {
        return new Readiness(Kind.HTTP, path.startsWith("/") ? path : "/" + path, timeout);
    }

    public static Readiness logLine(String text, Duration timeout) {
        return new Readiness(Kind.LOG, text, timeout);
    }

    public Readiness withTimeout(Duration t) {
        return new Readiness(kind, detail, t);
    }

    @Override
    public String toString() {
        return switch (kind) {
            case TCP -> "TCP port open";
            case HTTP -> "HTTP 200 from " + detail;
            case LOG -> "log line containing '" + detail + "'";
        } + " within " + timeout.toSeconds() + " s";
    }
}
