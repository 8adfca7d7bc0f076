package io.envbench.jmeter;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;

import org.apache.jmeter.util.JMeterUtils;

/**
 * The {@code envbench.*} JMeter properties, read in one place. Defaults and descriptions are in the
 * assembled JMeter's {@code bin/user.properties}; each can be set with {@code -Jname=value}.
 */
public final class EnvBenchProperties {
    /** Which environments of a plan run: {@code all} or a comma-separated list of names. */
    public static final String ENV = "envbench.env";
    /** Set by the Target Environment Sampler: where load goes. */
    public static final String HOST = "envbench.host";
    public static final String PORT = "envbench.port";
    /** The JMeter variable (saved in the JTL via sample_variables) naming each sample's environment. */
    public static final String ENV_VARIABLE = "envbench.env";

    private EnvBenchProperties() {
    }

    /** {@code envbench.NAME.host}: where one environment's load goes when several run at once. */
    public static String hostOf(String environment) {
        return "envbench." + environment + ".host";
    }

    /** {@code envbench.NAME.port}. */
    public static String portOf(String environment) {
        return "envbench." + environment + ".port";
    }

    public static Path targetsDir() {
        String dir = JMeterUtils.getPropDefault("envbench.targets.dir", "");
        return dir.isBlank() ? Path.of("targets").toAbsolutePath() : Path.of(dir);
    }

    public static String dockerHost() {
        return JMeterUtils.getPropDefault("envbench.docker.host", "");
    }

    public static Duration defaultReadyTimeout() {
        return Duration.ofSeconds(Long.parseLong(JMeterUtils.getPropDefault("envbench.ready.timeout.seconds", "60").trim()));
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
        return Arrays.stream(s.split(",")).map(String::trim).anyMatch(n -> n.equals(environment.trim().toLowerCase(Locale.ROOT)));
    }
}
