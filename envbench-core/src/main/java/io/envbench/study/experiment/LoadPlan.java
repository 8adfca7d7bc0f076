package io.envbench.study.experiment;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.TreeMap;
import java.util.regex.Pattern;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

import io.envbench.base.settings.InvalidSettingException;
import io.envbench.measure.engines.RemoteEngines;
import io.envbench.measure.stats.Comparison;
import net.jcip.annotations.Immutable;

/**
 * The load every run puts on its environment: a JMeter plan, the built-in {@link HttpLoad}, or a {@link CommandLoad}
 * (a program run in the environment's place whose output is the result), exactly one of them.
 * Immutable. Validation errors name the field as written under {@code load}.
 *
 * @param plan       the JMeter plan (.jmx), absolute; empty with {@code http}
 * @param properties passed to the plan as {@code -Jname=value}; see {@link #jmeterProperties()}
 * @param http       the built-in HTTP load; empty with {@code plan}
 * @param warmup     samples that start within the first {@code warmup} of a run are left out of the figures
 * @param duration   the whole run, warm-up included: for a plan, how long it is expected to run (progress, time
 *                   left), for {@code http} the load's duration, for {@code command} the command's
 * @param engines    the JMeter engines ({@code jmeter-server}) that run the load, or {@link RemoteEngines#NONE} for the
 *                   runner's own JMeter (always with {@code command})
 * @param command    a program run in the environment's place; empty with {@code plan} or {@code http}
 */
@Immutable
public record LoadPlan(
        Optional<Path> plan,
        Map<String, String> properties,
        Optional<HttpLoad> http,
        Duration warmup,
        Duration duration,
        RemoteEngines engines,
        Optional<CommandLoad> command) {
    /** The plan reads its warm-up from this property: it always equals {@link #warmup()}. */
    public static final String WARMUP_PROPERTY = "envbench.warmup.seconds";
    /** The plan reads its length from this property: it always equals {@link #duration()}. */
    public static final String DURATION_PROPERTY = "envbench.duration.seconds";
    /**
     * A plan that paces itself reads its rate from this property: iterations a minute for all its threads together (its
     * timer paces one request an iteration; {@code capacity.rateLabel} names it); 0 or absent, no pacing.
     */
    public static final String RATE_PROPERTY = "envbench.rate.per.minute";

    /** A load run by the runner's own JMeter. */
    public LoadPlan(
            Optional<Path> plan,
            Map<String, String> properties,
            Optional<HttpLoad> http,
            Duration warmup,
            Duration duration) {
        this(plan, properties, http, warmup, duration, RemoteEngines.NONE);
    }

    /** A JMeter plan or the built-in HTTP load, on these engines. */
    public LoadPlan(
            Optional<Path> plan,
            Map<String, String> properties,
            Optional<HttpLoad> http,
            Duration warmup,
            Duration duration,
            RemoteEngines engines) {
        this(plan, properties, http, warmup, duration, engines, Optional.empty());
    }

    public LoadPlan {
        Objects.requireNonNull(engines, "engines");
        Objects.requireNonNull(plan, "plan");
        Objects.requireNonNull(http, "http");
        Objects.requireNonNull(command, "command");
        properties = Map.copyOf(properties == null ? Map.of() : properties);
        if (command.isPresent()) {
            if (plan.isPresent() || http.isPresent()) {
                throw new InvalidSettingException(
                        "load",
                        "has command: and " + (plan.isPresent() ? "plan:" : "http:")
                                + "; keep one (command: a program run in each environment, http: the built-in HTTP load, plan: a JMeter plan)");
            }
            if (!properties.isEmpty()) {
                throw new InvalidSettingException(
                        "properties", "only a plan reads -J properties; remove them, or use plan:");
            }
            if (!warmup.isZero() || !duration.equals(command.get().duration())) {
                throw new InvalidSettingException(
                        "command", "warmup and duration must be the command's; build it with LoadPlan.command(load)");
            }
            if (!engines.equals(RemoteEngines.NONE)) {
                throw new InvalidSettingException(
                        "engines",
                        "a command runs where each environment runs, not on JMeter engines; remove engines:");
            }
        } else if (plan.isPresent() == http.isPresent()) {
            throw new InvalidSettingException(
                    "load",
                    plan.isPresent()
                            ? "has both http: and plan:; keep one (http: the built-in HTTP load, plan: a JMeter plan)"
                            : "has neither http: nor plan:; add http: (path:, threads:, durationSeconds:) or plan: my-plan.jmx "
                                    + "(or command: with run:, output:, durationSeconds: for a program run in each environment)");
        }
        if (plan.isPresent() && !plan.get().isAbsolute()) {
            throw new InvalidSettingException("plan", "'" + plan.get() + "' must be resolved to an absolute path");
        }
        checkWindow(warmup, duration);
        if (http.isPresent()) {
            if (!properties.isEmpty()) {
                throw new InvalidSettingException(
                        "properties", "only a plan reads -J properties; remove them, or use plan:");
            }
            if (!warmup.equals(http.get().warmup())
                    || !duration.equals(http.get().duration())) {
                throw new InvalidSettingException(
                        "http", "warmup and duration must be the HTTP load's; build it with LoadPlan.http(load)");
            }
        }
        for (String reserved : new String[] {WARMUP_PROPERTY, DURATION_PROPERTY}) {
            if (properties.containsKey(reserved)) {
                throw new InvalidSettingException(
                        "properties." + reserved,
                        "is set from load." + (reserved.equals(WARMUP_PROPERTY) ? "warmupSeconds" : "durationSeconds")
                                + "; set that instead (EnvBench passes it to the plan as this property)");
            }
        }
        // the runner sets them for each run, from the environment it started (at the Start Gate, after the plan's own)
        for (String reserved : new String[] {"envbench.host", "envbench.port", "envbench.start.gate"}) {
            if (properties.containsKey(reserved)) {
                throw new InvalidSettingException(
                        "properties." + reserved,
                        "is set by EnvBench for each run (the address of the environment it started); remove it");
            }
        }
    }

    /**
     * Whether a JMeter plan starts environments itself (holds EnvBench Target Environment samplers): the runner
     * refuses such a plan, as it starts each environment of the experiment; the controller does not offer it.
     */
    /**
     * Why a file is no JMeter plan, or empty when it is one: JMeter saves a plan as XML whose root element is
     * {@code jmeterTestPlan}. Read as XML without DTDs or external entities; only up to the root element.
     */
    public static Optional<String> notAPlan(Path jmx) throws IOException {
        XMLInputFactory f = XMLInputFactory.newFactory();
        f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        try (InputStream in = Files.newInputStream(jmx)) {
            XMLStreamReader r = f.createXMLStreamReader(in);
            try {
                while (r.hasNext()) {
                    if (r.next() == XMLStreamConstants.START_ELEMENT) {
                        String root = r.getLocalName();
                        return root.equals("jmeterTestPlan")
                                ? Optional.empty()
                                : Optional.of("its root element is <" + root + ">, not <jmeterTestPlan>");
                    }
                }
                return Optional.of("it holds no XML element");
            } finally {
                r.close();
            }
        } catch (XMLStreamException e) {
            String m = e.getMessage() == null ? "" : e.getMessage();
            int at = m.indexOf("Message: ");
            String why = at >= 0 ? m.substring(at + "Message: ".length()).strip() : m.strip();
            return Optional.of("it is not XML"
                    + (e.getLocation() == null
                            ? ""
                            : " (line " + e.getLocation().getLineNumber() + ", column "
                                    + e.getLocation().getColumnNumber() + ": " + why + ")"));
        }
    }

    public static boolean startsEnvironments(Path jmx) throws IOException {
        return Files.readString(jmx).contains("io.envbench.jmeter.samplers.TargetEnvironmentSampler");
    }

    /**
     * Whether a JMeter plan sends each engine's metrics back (holds an EnvBench Engine Metrics sampler, in a thread
     * group of {@value #ENGINE_METRICS_THREADS_PROPERTY} threads): the runner requires it of a plan run on engines.
     */
    public static boolean sendsEngineMetrics(Path jmx) throws IOException {
        return Files.readString(jmx).contains("io.envbench.jmeter.samplers.EngineMetricsSampler");
    }

    /** How many (enabled or not) JMeter thread groups ({@code ThreadGroup} elements) a plan holds: a multi-tenant plan has one. */
    public static int threadGroups(Path jmx) throws IOException {
        return (int) THREAD_GROUP.matcher(Files.readString(jmx)).results().count();
    }

    private static final Pattern THREAD_GROUP = Pattern.compile("<ThreadGroup\\s");

    /** The number of threads of the plan's engine-metrics thread group: 1 on engines, 0 (none) in a local JMeter. */
    public static final String ENGINE_METRICS_THREADS_PROPERTY = "envbench.engine.metrics.threads";

    /** The same load on these engines. */
    public LoadPlan onEngines(RemoteEngines on) {
        return new LoadPlan(plan, properties, http, warmup, duration, on, command);
    }

    /**
     * Whether a JMeter plan has a sampler or transaction labelled {@value io.envbench.measure.stats.Comparison#TOTAL}, the row
     * EnvBench adds itself: refused before any run, as its figures would be counted twice into that row.
     */
    public static boolean labelsTotal(Path jmx) throws IOException {
        return TOTAL_LABEL.matcher(Files.readString(jmx)).find();
    }

    private static final Pattern TOTAL_LABEL =
            Pattern.compile("<\\w*(Sampler\\w*|TransactionController)\\s[^>]*testname=\"" + Comparison.TOTAL + "\"");

    /** The built-in HTTP load. */
    public static LoadPlan http(HttpLoad load) {
        return new LoadPlan(Optional.empty(), Map.of(), Optional.of(load), load.warmup(), load.duration());
    }

    /** A program run in each environment's place; no warm-up (the program's output is the whole result). */
    public static LoadPlan command(CommandLoad load) {
        return new LoadPlan(
                Optional.empty(),
                Map.of(),
                Optional.empty(),
                Duration.ZERO,
                load.duration(),
                RemoteEngines.NONE,
                Optional.of(load));
    }

    /**
     * The fixed rate this load asks, per second: the built-in HTTP load's requests, or a plan's {@link #RATE_PROPERTY}
     * (iterations); empty for a closed loop, a command, or a rate property that is not a number above 0.
     */
    public OptionalDouble fixedRatePerSecond() {
        if (http.isPresent()) {
            double rps = http.get().requestsPerSecond();
            return rps > 0 ? OptionalDouble.of(rps) : OptionalDouble.empty();
        }
        String perMinute = plan.isPresent() ? properties.get(RATE_PROPERTY) : null;
        if (perMinute == null) {
            return OptionalDouble.empty();
        }
        try {
            double v = Double.parseDouble(perMinute.strip());
            return v > 0 && Double.isFinite(v) ? OptionalDouble.of(v / 60) : OptionalDouble.empty();
        } catch (NumberFormatException e) {
            return OptionalDouble.empty(); // a JMeter expression: the plan's own business, not a rate known here
        }
    }

    /** A JMeter plan, run with {@code properties} as {@code -J}. */
    public static LoadPlan plan(Path jmx, Map<String, String> properties, Duration warmup, Duration duration) {
        return new LoadPlan(Optional.of(jmx), properties, Optional.empty(), warmup, duration);
    }

    /**
     * What to pass a plan as {@code -J}: {@link #properties()}, plus {@value #WARMUP_PROPERTY} and
     * {@value #DURATION_PROPERTY} in seconds, so a plan that reads them follows the file and {@code --quick}.
     */
    public Map<String, String> jmeterProperties() {
        Map<String, String> all = new LinkedHashMap<>(new TreeMap<>(properties));
        all.put(WARMUP_PROPERTY, seconds(warmup));
        all.put(DURATION_PROPERTY, seconds(duration));
        return Collections.unmodifiableMap(all);
    }

    /**
     * The same load, shortened to the least that still gives figures: warm-up at most 1 s, run at most 3 s,
     * ramp-up 0. Never lengthens a load that is already shorter.
     */
    public LoadPlan quick() {
        if (command.isPresent()) {
            return this; // a program's length is its arguments'
        }
        Duration quickWarmup = min(warmup, QUICK_WARMUP);
        Duration quickDuration = min(duration, QUICK_DURATION);
        if (http.isPresent()) {
            HttpLoad h = http.get();
            return http(h.window(Duration.ZERO, quickWarmup, quickDuration)).onEngines(engines);
        }
        return plan(plan.get(), properties, quickWarmup, quickDuration).onEngines(engines);
    }

    static final Duration QUICK_WARMUP = Duration.ofSeconds(1);
    static final Duration QUICK_DURATION = Duration.ofSeconds(3);

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    /** Shared by the plan and the HTTP load, so both say the same about the same fields. */
    static void checkWindow(Duration warmup, Duration duration) {
        Objects.requireNonNull(warmup, "warmup");
        Objects.requireNonNull(duration, "duration");
        if (warmup.isNegative()) {
            throw new InvalidSettingException(
                    "warmupSeconds", seconds(warmup) + " s is negative; give 0 or more seconds, e.g. 5");
        }
        if (duration.isNegative() || duration.isZero()) {
            throw new InvalidSettingException(
                    "durationSeconds",
                    seconds(duration) + " s is not a length; give the run's length in "
                            + "seconds, warm-up included, e.g. 20");
        }
        if (warmup.compareTo(duration) >= 0) {
            throw new InvalidSettingException(
                    "warmupSeconds",
                    seconds(warmup) + " s leaves nothing of the " + seconds(duration)
                            + " s run (durationSeconds includes the warm-up); make it shorter than durationSeconds");
        }
    }

    /** Seconds as written in a file: {@code 5}, {@code 2.5}. */
    static String seconds(Duration d) {
        return BigDecimal.valueOf(d.toMillis())
                .movePointLeft(3)
                .stripTrailingZeros()
                .toPlainString();
    }
}
