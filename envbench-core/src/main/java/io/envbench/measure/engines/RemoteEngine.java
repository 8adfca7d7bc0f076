package io.envbench.measure.engines;

import java.util.regex.Pattern;

import io.envbench.base.settings.InvalidSettingException;
import net.jcip.annotations.Immutable;

/**
 * A JMeter engine ({@code jmeter-server}) as {@code -R} names it: host and RMI registry port ({@code server_port}).
 * JMeter hands the engine this very text when it configures a test (its thread names start with it), so the engine
 * tags its samples and metrics with it: two engines on one machine differ by their port. Immutable.
 *
 * @param host a host name or IP literal, without spaces or commas
 * @param port the engine's RMI registry port, 1 to 65535
 */
@Immutable
public record RemoteEngine(String host, int port) {
    /** JMeter's default {@code server_port}. */
    public static final int DEFAULT_PORT = 1099;

    private static final Pattern HOST = Pattern.compile("[A-Za-z0-9._-]+|\\[[0-9A-Fa-f:.]+\\]");
    private static final Pattern LOOPBACK_V4 = Pattern.compile("127\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}");

    public RemoteEngine {
        if (host == null || !HOST.matcher(host).matches()) {
            throw new InvalidSettingException(
                    "engine",
                    "'" + host + "' is not a host name or IP address; write the engine as "
                            + "HOST:PORT, e.g. 127.0.0.1:1099");
        }
        if (port < 1 || port > 65535) {
            throw new InvalidSettingException(
                    "engine",
                    host + ":" + port + ": port " + port + " is not a TCP port (1 to 65535); "
                            + "give the engine's server_port, e.g. 127.0.0.1:1099");
        }
    }

    /** {@code HOST:PORT}, or {@code HOST} for JMeter's default port 1099; IPv6 in brackets: {@code [::1]:1099}. */
    public static RemoteEngine parse(String text) {
        String t = text == null ? "" : text.strip();
        int colon = t.lastIndexOf(':');
        boolean hasPort = colon > 0 && (!t.startsWith("[") || t.lastIndexOf(']') < colon);
        if (!hasPort) {
            return new RemoteEngine(t, DEFAULT_PORT);
        }
        String port = t.substring(colon + 1);
        if (!port.matches("\\d{1,5}")) {
            throw new InvalidSettingException(
                    "engine",
                    "'" + t + "': '" + port + "' is not a port; write the engine as HOST:PORT, "
                            + "e.g. 127.0.0.1:1099");
        }
        return new RemoteEngine(t.substring(0, colon), Integer.parseInt(port));
    }

    /** Whether the engine runs on this machine's loopback (127.0.0.0/8, ::1, localhost), judged from the text alone. */
    public boolean loopback() {
        return host.equals("localhost")
                || host.equals("[::1]")
                || LOOPBACK_V4.matcher(host).matches();
    }

    /** A file name part: {@code 127.0.0.1_1099}. */
    public String fileTag() {
        return tagOf(toString());
    }

    /** The file name part of an engine's tag as JMeter passes it ({@code HOST:PORT}): every other character than letters, digits, '.', '-' made '_'. */
    public static String tagOf(String engine) {
        return engine.replaceAll("[^A-Za-z0-9.-]", "_");
    }

    /** As {@code -R} takes it, and as the engine tags its samples. */
    @Override
    public String toString() {
        return host + ":" + port;
    }
}
