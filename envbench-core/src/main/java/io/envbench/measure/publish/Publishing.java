package io.envbench.measure.publish;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

import io.envbench.base.settings.InvalidSettingException;
import io.envbench.measure.influxdb.InfluxDbTarget;
import net.jcip.annotations.Immutable;

/**
 * Where metrics are published while load runs, checked: a Prometheus endpoint on a loopback address, and an InfluxDB
 * 1.x to write to. The one reading of these settings for the Resource Monitor and for {@code envbench run}; each front
 * end names them its own way ({@link SettingSpelling}).
 *
 * @param prometheus where the endpoint serves; empty: none
 * @param influxDb   where points are written; empty: nowhere
 * @param spelling   how the settings were given, for what is said about them later (a port in use at the start)
 */
@Immutable
public record Publishing(
        Optional<InetSocketAddress> prometheus, Optional<InfluxDbTarget> influxDb, SettingSpelling spelling) {
    public static final String DEFAULT_PROMETHEUS_HOST = "127.0.0.1";
    public static final String DEFAULT_INFLUXDB_DB = "envbench";

    /** Nothing published. */
    public static final Publishing NONE = new Publishing(Optional.empty(), Optional.empty(), new SettingSpelling() {
        @Override
        public String field(PublishSetting setting) {
            return setting.name();
        }

        @Override
        public String give(PublishSetting setting, String value) {
            return setting.name() + "=" + value;
        }
    });

    public Publishing {
        Objects.requireNonNull(prometheus, "prometheus");
        Objects.requireNonNull(influxDb, "influxDb");
        Objects.requireNonNull(spelling, "spelling");
    }

    public boolean any() {
        return prometheus.isPresent() || influxDb.isPresent();
    }

    /**
     * The Prometheus endpoint's address: empty when the port is empty or 0. A host that is not a loopback address is
     * refused, whatever it resolves through: the endpoint has no authentication and names the load's samplers, so it
     * serves this machine only; Prometheus elsewhere reaches it through a tunnel or a Prometheus here that it federates.
     *
     * @param hostText empty: {@value #DEFAULT_PROMETHEUS_HOST}
     * @throws InvalidSettingException naming the setting as {@code spelling} spells it, with the fix
     */
    public static Optional<InetSocketAddress> prometheus(String portText, String hostText, SettingSpelling spelling) {
        String p = portText == null ? "" : portText.trim();
        if (p.isEmpty() || p.equals("0")) {
            return Optional.empty();
        }
        int port;
        try {
            port = Integer.parseInt(p);
        } catch (NumberFormatException e) {
            port = -1;
        }
        if (port < 1 || port > 65535) {
            throw new InvalidSettingException(
                    spelling.field(PublishSetting.PROMETHEUS_PORT),
                    "'" + portText + "' is not a TCP port; give a whole number from 1 to 65535, e.g. "
                            + spelling.give(PublishSetting.PROMETHEUS_PORT, "9270")
                            + ", or 0 for no Prometheus endpoint");
        }
        String h = hostText == null || hostText.isBlank() ? DEFAULT_PROMETHEUS_HOST : hostText.trim();
        String fix = "; the endpoint has no authentication, so it serves this machine only: give "
                + spelling.give(PublishSetting.PROMETHEUS_HOST, "127.0.0.1")
                + " (or ::1, localhost), and scrape it from a Prometheus on this machine or through a tunnel"
                + " (ssh -L " + port + ":127.0.0.1:" + port + " this-host)";
        String field = spelling.field(PublishSetting.PROMETHEUS_HOST);
        InetAddress address;
        try {
            address = InetAddress.getByName(unbracketed(h));
        } catch (UnknownHostException e) {
            throw new InvalidSettingException(field, "'" + hostText + "' is not a known host" + fix);
        }
        if (!address.isLoopbackAddress()) {
            throw new InvalidSettingException(
                    field, "'" + hostText + "' (" + address.getHostAddress() + ") is not a loopback address" + fix);
        }
        return Optional.of(new InetSocketAddress(address, port));
    }

    /**
     * The InfluxDB written to: empty when no URL is given. An InfluxDB on another machine is refused unless allowed:
     * the points name the load's samplers and the host's figures, and InfluxDB 1.x's HTTP API here sends them
     * unencrypted and without credentials; a URL on this machine (or a tunnel to the other) needs no permission.
     *
     * @param dbText          empty: {@value #DEFAULT_INFLUXDB_DB}
     * @param allowRemoteText {@code true} or {@code false} (empty: false)
     * @throws InvalidSettingException naming the setting as {@code spelling} spells it, with the fix
     */
    public static Optional<InfluxDbTarget> influxDb(
            String urlText, String dbText, String allowRemoteText, SettingSpelling spelling) {
        String u = urlText == null ? "" : urlText.trim();
        if (u.isEmpty()) {
            return Optional.empty();
        }
        String field = spelling.field(PublishSetting.INFLUXDB_URL);
        String example = "; give an InfluxDB 1.x's HTTP URL, e.g. "
                + spelling.give(PublishSetting.INFLUXDB_URL, "http://127.0.0.1:8086");
        URI uri;
        try {
            uri = new URI(u);
        } catch (URISyntaxException e) {
            throw new InvalidSettingException(
                    field, "'" + urlText + "' is not a URL (" + e.getReason() + ")" + example);
        }
        if (!"http".equalsIgnoreCase(uri.getScheme()) && !"https".equalsIgnoreCase(uri.getScheme())
                || uri.getHost() == null) {
            throw new InvalidSettingException(
                    field, "'" + urlText + "' is not an http:// or https:// URL with a host" + example);
        }
        if (uri.getRawQuery() != null || uri.getRawFragment() != null || uri.getRawUserInfo() != null) {
            throw new InvalidSettingException(
                    field,
                    "'" + urlText + "' has a query, fragment or user; give the server's URL alone" + example
                            + " (the database is " + spelling.give(PublishSetting.INFLUXDB_DB, DEFAULT_INFLUXDB_DB)
                            + ")");
        }
        String db = dbText == null || dbText.isBlank() ? DEFAULT_INFLUXDB_DB : dbText.trim();
        boolean allowRemote =
                switch (allowRemoteText == null ? "" : allowRemoteText.trim().toLowerCase(Locale.ROOT)) {
                    case "", "false" -> false;
                    case "true" -> true;
                    default ->
                        throw new InvalidSettingException(
                                spelling.field(PublishSetting.INFLUXDB_ALLOW_REMOTE),
                                "'" + allowRemoteText + "' is neither true nor false; give "
                                        + spelling.give(PublishSetting.INFLUXDB_ALLOW_REMOTE, "true")
                                        + " to write to an InfluxDB on another machine");
                };
        if (!allowRemote) {
            String h = uri.getHost();
            String fix = "; the points name your samplers and this host's figures and go unencrypted without"
                    + " credentials, so EnvBench writes to this machine only unless you allow it: give "
                    + spelling.give(PublishSetting.INFLUXDB_ALLOW_REMOTE, "true")
                    + " to write there, or a URL on 127.0.0.1 (an InfluxDB on this"
                    + " machine, or a tunnel: ssh -L 8086:127.0.0.1:8086 influx-host, then http://127.0.0.1:8086)";
            InetAddress address;
            try {
                address = InetAddress.getByName(unbracketed(h));
            } catch (UnknownHostException e) {
                throw new InvalidSettingException(field, "'" + urlText + "': " + h + " is not a known host" + fix);
            }
            if (!address.isLoopbackAddress()) {
                throw new InvalidSettingException(
                        field,
                        "'" + urlText + "': " + h + " (" + address.getHostAddress() + ") is not a loopback address"
                                + fix);
            }
        }
        return Optional.of(new InfluxDbTarget(uri, db));
    }

    private static String unbracketed(String host) {
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }
}
