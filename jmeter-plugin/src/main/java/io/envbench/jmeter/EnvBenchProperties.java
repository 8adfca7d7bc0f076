package io.envbench.jmeter;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.envbench.base.definition.EnvironmentDefinition;
import io.envbench.base.settings.InvalidSettingException;
import io.envbench.launch.docker.DockerDaemon;
import io.envbench.measure.influxdb.InfluxDbTarget;
import io.envbench.measure.metrics.MetricsCollector;
import io.envbench.measure.publish.PublishSetting;
import io.envbench.measure.publish.Publishing;
import io.envbench.measure.publish.SettingSpelling;
import io.envbench.measure.results.JtlReader;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.testelement.property.NullProperty;
import org.apache.jmeter.util.JMeterUtils;

/**
 * The {@code envbench.*} JMeter properties, read in one place. Defaults and descriptions are in the
 * assembled JMeter's {@code bin/user.properties}; each can be set with {@code -Jname=value}. A bad number
 * is an {@link InvalidSettingException} naming the property, the value and a valid example.
 */
public final class EnvBenchProperties {
    /**
     * Which environments of a plan run: {@code all} or a comma-separated list of names. The property has the name of the
     * variable that tags each sample with its environment (the JTL's column): one name for "the environment".
     */
    public static final String ENV = JtlReader.ENV_COLUMN;
    /** Set by the Target Environment Sampler: where load goes. */
    public static final String HOST = "envbench.host";

    public static final String PORT = "envbench.port";
    /** The JMeter variable (saved in the JTL via sample_variables) naming each sample's environment. */
    public static final String ENV_VARIABLE = JtlReader.ENV_COLUMN;
    /** Seconds a target may take to get ready. */
    public static final String READY_TIMEOUT_SECONDS = "envbench.ready.timeout.seconds";
    /** The Resource Monitor's interval (milliseconds) and metrics file, the defaults of its two fields. */
    public static final String METRICS_INTERVAL_MS = "envbench.metrics.interval.ms";

    public static final String METRICS_FILE = "envbench.metrics.file";
    /** What a failed write of the JTL or the metrics file does to the test: {@code stop} (the default) or {@code mark}. */
    public static final String ON_WRITE_FAILURE = "envbench.onWriteFailure";

    /** The Resource Monitor's Prometheus endpoint: its port (unset or 0: none) and its loopback address. */
    public static final String PROMETHEUS_PORT = "envbench.prometheus.port";

    public static final String PROMETHEUS_HOST = "envbench.prometheus.host";
    static final String DEFAULT_PROMETHEUS_HOST = Publishing.DEFAULT_PROMETHEUS_HOST;

    /** The Resource Monitor's InfluxDB 1.x: its URL (unset: none), database, and whether another machine's may be. */
    public static final String INFLUXDB_URL = "envbench.influxdb.url";

    public static final String INFLUXDB_DB = "envbench.influxdb.db";
    public static final String INFLUXDB_ALLOW_REMOTE = "envbench.influxdb.allowRemote";
    static final String DEFAULT_INFLUXDB_DB = Publishing.DEFAULT_INFLUXDB_DB;

    /** What the Resource Monitor does when a file of the test cannot be written any more. */
    public enum OnWriteFailure {
        /** The test stops, as after a sampler error with "Stop Test"; {@code jmeter -n} exits with 1. */
        STOP,
        /** The test runs to its end; the failure is said again at its end and {@code jmeter -n} exits with 1. */
        MARK
    }

    /** A target that needs more than a day to get ready is a mistake (and days overflow milliseconds). */
    static final long MAX_READY_TIMEOUT_SECONDS = EnvironmentDefinition.MAX_READY_TIMEOUT.toSeconds();
    /** Readings an hour apart show nothing; longer ones would overflow the collector's nanosecond clock. */
    static final long MAX_METRICS_INTERVAL_MS = MetricsCollector.MAX_INTERVAL.toMillis();

    private EnvBenchProperties() {}

    /**
     * This JMeter's name as a remote engine: what the controlling JMeter's {@code -R} calls it ({@code HOST:PORT}), which
     * JMeter gives the engine when it configures a test (and puts before its thread names); empty in a JMeter that is no
     * engine. Two engines on one machine differ by their port, where the host name of the JTL's hostname column is one.
     */
    public static String engine() {
        return JMeterUtils.getPropDefault(JMeterUtils.THREAD_GROUP_DISTRIBUTED_PREFIX_PROPERTY_NAME, "");
    }

    /** {@code envbench.NAME.host}: where one environment's load goes when several run at once. */
    public static String hostOf(String environment) {
        return "envbench." + environment + ".host";
    }

    /** {@code envbench.NAME.port}. */
    public static String portOf(String environment) {
        return "envbench." + environment + ".port";
    }

    /** Which environment {@code envbench.host}/{@code envbench.port} point at now. */
    private static final String ENDPOINT_OF = "envbench.endpoint.environment";

    /**
     * {@code envbench.host}/{@code envbench.port} (the last environment started) and
     * {@code envbench.NAME.host}/{@code envbench.NAME.port} (each one, when several run at once).
     */
    public static synchronized void publishEndpoint(String environment, String host, int port) {
        JMeterUtils.setProperty(HOST, host);
        JMeterUtils.setProperty(PORT, Integer.toString(port));
        JMeterUtils.setProperty(ENDPOINT_OF, environment);
        JMeterUtils.setProperty(hostOf(environment), host);
        JMeterUtils.setProperty(portOf(environment), Integer.toString(port));
    }

    /**
     * Removes an environment's endpoint properties (and {@code envbench.host}/{@code envbench.port} when they
     * point at it), so expressions fall back to their loopback defaults, never to a stale address.
     */
    public static synchronized void forgetEndpoint(String environment) {
        var props = JMeterUtils.getJMeterProperties();
        if (props == null) {
            return;
        }
        props.remove(hostOf(environment));
        props.remove(portOf(environment));
        if (environment.equals(props.getProperty(ENDPOINT_OF))) {
            props.remove(HOST);
            props.remove(PORT);
            props.remove(ENDPOINT_OF);
        }
    }

    /**
     * Removes {@code envbench.host}/{@code envbench.port} whichever environment they point at: while a start runs
     * and after it failed, load written {@code ${__P(envbench.host,127.0.0.1)}} falls back to loopback instead of
     * going to the environment started before (each one stays reachable by its {@code envbench.NAME.*}).
     */
    public static synchronized void forgetLatestEndpoint() {
        var props = JMeterUtils.getJMeterProperties();
        if (props != null) {
            props.remove(HOST);
            props.remove(PORT);
            props.remove(ENDPOINT_OF);
        }
    }

    public static Path targetsDir() {
        String dir = JMeterUtils.getPropDefault("envbench.targets.dir", "");
        return dir.isBlank() ? Path.of("targets").toAbsolutePath() : Path.of(dir);
    }

    /**
     * The Docker daemon: {@code envbench.docker.host}, {@code envbench.docker.tls.verify} and {@code envbench.docker.cert.path},
     * each blank one falling back to the docker CLI's {@code DOCKER_HOST}, {@code DOCKER_TLS_VERIFY}, {@code DOCKER_CERT_PATH}.
     */
    public static DockerDaemon dockerDaemon() {
        DockerDaemon.Settings names = DockerDaemon.Settings.JMETER_PROPERTIES;
        return DockerDaemon.configured(
                names,
                JMeterUtils.getPropDefault(names.host(), ""),
                JMeterUtils.getPropDefault(names.tlsVerify(), ""),
                JMeterUtils.getPropDefault(names.certPath(), ""));
    }

    public static Duration defaultReadyTimeout() {
        return readyTimeout(JMeterUtils.getPropDefault(READY_TIMEOUT_SECONDS, "60"));
    }

    /** {@code envbench.ready.timeout.seconds}: whole seconds, 1 to a day. */
    static Duration readyTimeout(String text) {
        return Duration.ofSeconds(wholeNumber(
                READY_TIMEOUT_SECONDS,
                text,
                1,
                MAX_READY_TIMEOUT_SECONDS,
                "seconds",
                "-J" + READY_TIMEOUT_SECONDS + "=60"));
    }

    /**
     * The Resource Monitor's interval: its field "Interval (ms)", whose default is
     * {@code envbench.metrics.interval.ms}; whole milliseconds, 100 to an hour.
     */
    public static Duration metricsInterval(String text) {
        return Duration.ofMillis(wholeNumber(
                "Interval (ms)",
                text,
                MetricsCollector.MIN_INTERVAL.toMillis(),
                MAX_METRICS_INTERVAL_MS,
                "milliseconds",
                "1000 in the Resource Monitor's field or -J" + METRICS_INTERVAL_MS + "=1000"));
    }

    /**
     * Where the Resource Monitor writes: an absolute name as given, a relative one in the folder of the
     * results file given with {@code -l}, else in the working directory (where JMeter also puts a relative
     * {@code -l}); empty when no file is wanted.
     */
    public static Optional<Path> metricsFile(String configured, Optional<Path> resultsFile) {
        String name = configured == null ? "" : configured.trim();
        if (name.isEmpty()) {
            return Optional.empty();
        }
        Path file = Path.of(name);
        if (file.isAbsolute()) {
            return Optional.of(file);
        }
        Path folder = resultsFile
                .map(r -> r.toAbsolutePath().getParent())
                .orElse(Path.of("").toAbsolutePath());
        return Optional.of(folder.resolve(file).normalize());
    }

    /** {@code envbench.onWriteFailure}: {@code stop} (default) or {@code mark}, in any case. */
    public static OnWriteFailure onWriteFailure() {
        return onWriteFailure(JMeterUtils.getPropDefault(ON_WRITE_FAILURE, "stop"));
    }

    static OnWriteFailure onWriteFailure(String text) {
        String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        return switch (t) {
            case "", "stop" -> OnWriteFailure.STOP;
            case "mark" -> OnWriteFailure.MARK;
            default ->
                throw new InvalidSettingException(
                        ON_WRITE_FAILURE,
                        "'" + text + "' is neither stop nor mark; give -J" + ON_WRITE_FAILURE
                                + "=stop (stop the test when a file cannot be written) or =mark (run on, exit 1)");
        };
    }

    /**
     * Where the Resource Monitor serves Prometheus while a test runs: {@code envbench.prometheus.host} (default
     * 127.0.0.1, a loopback address only) and the port of its field "Prometheus port", or when that is empty
     * {@code envbench.prometheus.port}; empty when the port is unset or 0.
     */
    public static Optional<InetSocketAddress> prometheusEndpoint(String portField) {
        String port =
                portField == null || portField.isBlank() ? JMeterUtils.getPropDefault(PROMETHEUS_PORT, "") : portField;
        return prometheusEndpoint(port, JMeterUtils.getPropDefault(PROMETHEUS_HOST, DEFAULT_PROMETHEUS_HOST));
    }

    /** The checks are core's ({@link Publishing#prometheus}); the messages name the properties. */
    static Optional<InetSocketAddress> prometheusEndpoint(String portText, String hostText) {
        return Publishing.prometheus(portText, hostText, SPELLING);
    }

    /**
     * Where the Resource Monitor writes InfluxDB line protocol: the URL of its field "InfluxDB URL", or when that is
     * empty {@code envbench.influxdb.url}, and {@code envbench.influxdb.db} (default {@value #DEFAULT_INFLUXDB_DB});
     * empty when no URL is given.
     */
    public static Optional<InfluxDbTarget> influxDb(String urlField) {
        String url = urlField == null || urlField.isBlank() ? JMeterUtils.getPropDefault(INFLUXDB_URL, "") : urlField;
        return influxDb(
                url,
                JMeterUtils.getPropDefault(INFLUXDB_DB, DEFAULT_INFLUXDB_DB),
                JMeterUtils.getPropDefault(INFLUXDB_ALLOW_REMOTE, "false"));
    }

    /** The checks are core's ({@link Publishing#influxDb}); the messages name the properties. */
    static Optional<InfluxDbTarget> influxDb(String urlText, String dbText, String allowRemoteText) {
        return Publishing.influxDb(urlText, dbText, allowRemoteText, SPELLING);
    }

    /** The publishing settings as JMeter properties, the two with a field of the Resource Monitor with its label. */
    static final SettingSpelling SPELLING = new SettingSpelling() {
        @Override
        public String field(PublishSetting setting) {
            return switch (setting) {
                case PROMETHEUS_PORT -> "Prometheus port (" + PROMETHEUS_PORT + ")";
                case INFLUXDB_URL -> "InfluxDB URL (" + INFLUXDB_URL + ")";
                default -> property(setting);
            };
        }

        @Override
        public String give(PublishSetting setting, String value) {
            return "-J" + property(setting) + "=" + value;
        }

        private static String property(PublishSetting setting) {
            return switch (setting) {
                case PROMETHEUS_PORT -> PROMETHEUS_PORT;
                case PROMETHEUS_HOST -> PROMETHEUS_HOST;
                case INFLUXDB_URL -> INFLUXDB_URL;
                case INFLUXDB_DB -> INFLUXDB_DB;
                case INFLUXDB_ALLOW_REMOTE -> INFLUXDB_ALLOW_REMOTE;
            };
        }
    };

    private static long wholeNumber(String field, String text, long min, long max, String unit, String example) {
        String t = text == null ? "" : text.trim();
        String fix = "; give a whole number from " + min + " to " + max + ", e.g. " + example;
        if (t.isEmpty()) {
            throw new InvalidSettingException(field, "is empty" + fix);
        }
        long v;
        try {
            v = Long.parseLong(t);
        } catch (NumberFormatException e) {
            if (t.matches("[+-]?\\d+")) { // beyond a long: out of range, not malformed
                v = t.startsWith("-") ? Long.MIN_VALUE : Long.MAX_VALUE;
            } else {
                throw new InvalidSettingException(field, "'" + text + "' is not a whole number of " + unit + fix);
            }
        }
        if (v < min) {
            throw new InvalidSettingException(field, "'" + t + "' is below the minimum of " + min + " " + unit + fix);
        }
        if (v > max) {
            throw new InvalidSettingException(field, "'" + t + "' is above the maximum of " + max + " " + unit + fix);
        }
        return v;
    }

    /** A field's default: {@code ${__P(property,fallback)}}, the property's value or the fallback without it. */
    private static final Pattern PROPERTY_DEFAULT = Pattern.compile("\\$\\{__P\\(([^,()]+),([^()]*)\\)}");

    /**
     * A field of an element as the running test takes it, whose default is {@code ${__P(property,fallback)}}. JMeter
     * evaluates the expressions of the fields a plan holds only; a plan saved before a field existed, or written by
     * hand without it, would hand the default over unevaluated, so the property it names decides here instead.
     *
     * @throws IllegalArgumentException when {@code defaultExpression} is not of that form (a programming error)
     */
    public static String fieldAsRun(TestElement element, String key, String defaultExpression) {
        if (!(element.getProperty(key) instanceof NullProperty)) {
            return element.getPropertyAsString(key);
        }
        Matcher m = PROPERTY_DEFAULT.matcher(defaultExpression);
        if (!m.matches()) {
            throw new IllegalArgumentException("not a property's default: " + defaultExpression);
        }
        return JMeterUtils.getPropDefault(m.group(1), m.group(2));
    }

    /** Whether the environment of this name runs, given {@code -Jenvbench.env=...} (default: all). */
    public static boolean selected(String environment) {
        return selected(JMeterUtils.getPropDefault(ENV, "all"), environment);
    }

    static boolean selected(String selection, String environment) {
        String s = selection == null ? "" : selection.trim().toLowerCase(Locale.ROOT);
        if (s.isEmpty() || s.equals("all")) {
            return true;
        }
        return Arrays.stream(s.split(","))
                .map(String::trim)
                .anyMatch(n -> n.equals(environment.trim().toLowerCase(Locale.ROOT)));
    }
}
