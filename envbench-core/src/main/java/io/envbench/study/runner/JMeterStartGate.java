package io.envbench.study.runner;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How the runner starts a run's JMeter ahead: the plan holds the EnvBench Start Gate (the plugin's
 * {@code io.envbench.jmeter.startgate.StartGate}, as the built-in HTTP load does), the runner starts the next run's
 * JMeter with {@link #ENABLED_PROPERTY} while the run before it ends, and JMeter loads its plan, starts its engine and
 * waits at the gate, before any thread group starts. Once the run's environment is ready the runner opens the gate on
 * JMeter's standard input: the properties only known then ({@code envbench.host=127.0.0.1}, one {@code name=value} a
 * line), then an empty line. Standard input closed before the empty line: the run will not happen (the experiment
 * ended, was cancelled, or the runner is gone), and JMeter exits without a sample. Both ends of that exchange are here.
 */
public final class JMeterStartGate {
    /** The element's class, as a plan names it ({@code testclass}). */
    public static final String ELEMENT = "io.envbench.jmeter.startgate.StartGate";
    /** Set ({@code true}) by the runner on a JMeter it started ahead: only then does the gate wait. */
    public static final String ENABLED_PROPERTY = "envbench.start.gate";
    /** What JMeter prints when it waits at the gate. */
    public static final String WAITING = "EnvBench: JMeter is up and waits at the start gate for its run";

    private static final Pattern ELEMENT_TAG = Pattern.compile("<" + Pattern.quote(ELEMENT) + "\\b([^>]*)>");
    private static final Pattern DISABLED = Pattern.compile("\\benabled=\"false\"");

    private JMeterStartGate() {}

    /** Whether {@code plan} (a JMX) holds an enabled Start Gate; a plan that cannot be read does not. */
    static boolean in(Path plan) {
        String jmx;
        try {
            jmx = Files.readString(plan, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            return false; // JMeter says what is wrong with it when the run starts it
        }
        Matcher m = ELEMENT_TAG.matcher(jmx);
        while (m.find()) {
            if (!DISABLED.matcher(m.group(1)).find()) {
                return true;
            }
        }
        return false;
    }

    /** The runner's side: the properties, then the empty line that opens the gate. */
    static void open(Writer out, Map<String, String> properties) throws IOException {
        StringBuilder s = new StringBuilder();
        properties.forEach((k, v) -> {
            if (k.isEmpty() || k.contains("=") || k.contains("\n") || v.contains("\n")) {
                throw new IllegalArgumentException("property '" + k + "' cannot pass the start gate");
            }
            s.append(k).append('=').append(v).append('\n');
        });
        s.append('\n');
        out.write(s.toString());
        out.flush();
    }

    /**
     * JMeter's side: reads the runner's lines until the empty one; the properties sent, or empty when standard input
     * ended first.
     *
     * @throws IOException a line that is not {@code name=value}: the runner and the plugin are of different versions
     */
    public static Optional<Map<String, String>> await(BufferedReader in) throws IOException {
        Map<String, String> props = new LinkedHashMap<>();
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isEmpty()) {
                return Optional.of(props);
            }
            int eq = line.indexOf('=');
            if (eq <= 0) {
                throw new IOException("EnvBench Start Gate: '" + line + "' on standard input is not name=value; "
                        + "the runner and envbench-jmeter-plugin.jar in JMeter's lib/ext are of different versions: "
                        + "run ./envbench setup");
            }
            props.put(line.substring(0, eq), line.substring(eq + 1));
        }
        return Optional.empty();
    }
}
