package io.envbench.measure.metrics;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

import io.envbench.base.container.ContainerEngine;
import io.envbench.base.definition.EnvironmentDefinition;
import io.envbench.base.environment.RunningTarget;
import io.envbench.base.settings.InvalidSettingException;
import io.envbench.control.registry.EnvironmentRegistry;
import net.jcip.annotations.GuardedBy;
import net.jcip.annotations.ThreadSafe;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A collector thread: every interval it reads the host and every environment of one
 * {@link EnvironmentRegistry} (container cgroups, or a bare-metal process tree), turns readings into
 * rates against the previous tick, writes a metrics CSV row and publishes the latest figures. Make one
 * per owner (a JMeter engine's Resource Monitor, one run of the runner); thread-safe.
 */
@ThreadSafe
public final class MetricsCollector implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(MetricsCollector.class);
    public static final Duration MIN_INTERVAL = Duration.ofMillis(100);
    /** The longest interval anyone means: one row an hour. */
    public static final Duration MAX_INTERVAL = Duration.ofHours(1);
    /** How long {@link #close()} waits for a tick under way to end before it closes the outputs anyway. */
    static final Duration STOP_WAIT = Duration.ofSeconds(5);

    /**
     * A tick's figures: the environments running (comma-separated, "none" when none) and every metric
     * by column name.
     */
    public record Tick(long epochMs, String environment, Map<String, Double> values) {
        public double get(String metric) {
            Double v = values.get(metric);
            return v == null ? Double.NaN : v;
        }
    }

    private final EnvironmentRegistry environments;
    private final Duration interval;
    private final MetricsCsvWriter csv;
    /** Why an environment had no figures, each said once (the collector's thread alone touches it). */
    private final Set<String> warned = new HashSet<>();

    private final ContainerProbe containers;
    /** Podman's containers: the same cgroup files, its own stats API when they cannot be read. */
    private final ContainerProbe podmanContainers;

    private final HostProbe host;
    /** The metrics file's sources of the host's and the processes' columns: the same on every tick. */
    private final String hostSource;

    private final String processSource;
    private final boolean hostReadsProcFs = ProcFs.available();
    private final List<Consumer<Tick>> listeners = new CopyOnWriteArrayList<>();
    private final List<Consumer<String>> fileStopListeners = new CopyOnWriteArrayList<>();
    private boolean fileStopTold;
    private final Thread thread;
    private HostSnapshot previousHost;
    private Set<String> previousEnvs = Set.of();
    private volatile Tick latest = new Tick(0, "", Map.of());
    private volatile boolean stop;
    /**
     * Held while a tick writes its row and tells its listeners, and while {@link #close()} closes the outputs: a tick
     * that outlives close's wait then finds {@link #outputsClosed} and publishes nothing, so no row lands in a file
     * whose listeners (the InfluxDB writer) no longer hear, and the closed file is not opened again.
     */
    private final Object publishLock = new Object();

    @GuardedBy("publishLock")
    private boolean outputsClosed;

    /**
     * @param environments     whose environments are read
     * @param interval         between readings, at least {@link #MIN_INTERVAL}
     * @param file             metrics CSV, or null for none; its folder must be writable (else an IOException naming it)
     * @param loadGeneratorPid the JMeter process, reported as {@code process.jmeter.*}
     */
    public MetricsCollector(EnvironmentRegistry environments, Duration interval, Path file, long loadGeneratorPid)
            throws IOException {
        this(environments, interval, file, loadGeneratorPid, ContainerProbe.Source.AUTO);
    }

    /**
     * @param containerSource where container figures come from: {@link ContainerProbe.Source#AUTO} (cgroup files of a
     *                        local daemon, else a stats stream per container) or always the stats stream
     */
    public MetricsCollector(
            EnvironmentRegistry environments,
            Duration interval,
            Path file,
            long loadGeneratorPid,
            ContainerProbe.Source containerSource)
            throws IOException {
        if (interval.compareTo(MIN_INTERVAL) < 0) {
            throw new InvalidSettingException(
                    "interval", interval.toMillis() + " ms is below the minimum of 100 ms; use 100 or more");
        }
        this.environments = environments;
        this.interval = interval;
        this.host = new HostProbe(loadGeneratorPid, HostProbe.PROCESSES_EVERY);
        this.hostSource = host.source();
        this.processSource = host.source() + ", read every " + HostProbe.PROCESSES_EVERY.toSeconds() + " s";
        this.containers = new ContainerProbe(environments.docker(), containerSource);
        this.podmanContainers = new ContainerProbe(environments.podman(), containerSource, ContainerEngine.PODMAN);
        this.csv = file == null ? null : new MetricsCsvWriter(file);
        this.thread = new Thread(this::loop, "envbench-metrics");
        this.thread.setDaemon(true);
    }

    /** Starts the collector thread; returns this. */
    public MetricsCollector start() {
        thread.start();
        log.info("EnvBench metrics every {} ms{}", interval.toMillis(), csv == null ? "" : " into " + csv.file());
        return this;
    }

    /** Stops the thread and closes the file; safe to call twice. */
    @Override
    public void close() {
        close(STOP_WAIT);
    }

    /** As {@link #close()}, waiting at most {@code wait} for a tick under way (tests shorten it). */
    synchronized void close(Duration wait) {
        if (stop) {
            return;
        }
        stop = true;
        // woken (unparked), not interrupted: an interrupt mid-tick would close the metrics file's channel
        // (ClosedByInterruptException) and read as a file that stopped taking rows
        LockSupport.unpark(thread);
        try {
            thread.join(wait.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) {
            log.warn(
                    "metrics: a reading still under way after {} ms (a slow Docker or /proc read); its row is dropped",
                    wait.toMillis());
        }
        synchronized (publishLock) {
            outputsClosed = true;
            containers.close();
            podmanContainers.close();
            if (csv != null) {
                try {
                    csv.close();
                } catch (IOException e) {
                    log.warn("stopping metrics: {}", e.toString());
                }
            }
        }
    }

    public Tick latest() {
        return latest;
    }

    public Duration interval() {
        return interval;
    }

    /** The probe of the engine an environment's container runs on. */
    private ContainerProbe probeOf(String environment) {
        boolean onPodman = environments
                .definition(environment)
                .map(EnvironmentDefinition::usesPodman)
                .orElse(false);
        return onPodman ? podmanContainers : containers;
    }

    /** Where container figures come from (tests look at its streams). */
    ContainerProbe containerProbe() {
        return containers;
    }

    public Optional<Path> file() {
        return Optional.ofNullable(csv).map(MetricsCsvWriter::file);
    }

    /**
     * Why the metrics file stopped taking rows (disk full): it ends early, valid up to its last whole row; empty
     * while it takes them, or without a file.
     */
    public Optional<String> fileStoppedBecause() {
        return csv == null ? Optional.empty() : csv.stoppedBecause();
    }

    /** Told once, on the collector's thread, when the metrics file stops taking rows; the collector goes on. */
    public void onFileStopped(Consumer<String> l) {
        fileStopListeners.add(l);
    }

    public void addListener(Consumer<Tick> l) {
        listeners.add(l);
    }

    public void removeListener(Consumer<Tick> l) {
        listeners.remove(l);
    }

    private void loop() {
        long next = System.nanoTime();
        while (!stop) {
            try {
                tick();
            } catch (RuntimeException | IOException e) {
                if (stop) {
                    log.debug("metrics tick after close: {}", e.toString()); // its probes closed under it
                } else {
                    log.warn("metrics tick failed: {}", e.toString());
                }
            }
            next += interval.toNanos();
            long sleep = next - System.nanoTime();
            if (sleep < 0) {
                next = System.nanoTime(); // fell behind: do not try to catch up in a burst
                continue;
            }
            // one wake-up per tick, to the nanosecond (Object.wait counts in ms: it woke twice, the second for the rest
            // of the last ms); close() unparks; a spurious wake-up parks again for what is left
            for (long left = sleep; !stop && left > 0; left = next - System.nanoTime()) {
                LockSupport.parkNanos(this, left);
            }
        }
    }

    /** One reading of everything; package-private for tests and the benchmark. */
    void tick() throws IOException {
        Map<String, RunningTarget> envs = environments.runningTargets();
        if (!envs.keySet().equals(previousEnvs)) {
            host.rescanSoon(); // a new container brings a docker-proxy and a shim
            previousEnvs = Set.copyOf(envs.keySet());
        }
        Map<String, Long> trees = Map.of();
        for (Map.Entry<String, RunningTarget> e : envs.entrySet()) {
            if (e.getValue().containerId().isEmpty() || !e.getValue().services().isEmpty()) {
                if (trees.isEmpty()) {
                    trees = new LinkedHashMap<>();
                }
                if (e.getValue().containerId().isEmpty()) {
                    trees.put(e.getKey(), e.getValue().pid());
                }
                // each service of a multi-service target, in a container too (its processes seen from the host):
                // process.ENV/SERVICE.* (CPU, memory, storage reads and writes: the database's write rate)
                for (Map.Entry<String, RunningTarget> s :
                        e.getValue().services().entrySet()) {
                    trees.put(serviceRole(e.getKey(), s.getKey()), s.getValue().pid());
                }
            }
        }
        HostSnapshot h = host.read(trees);
        if (hostReadsProcFs) {
            // one reading of /proc/stat a tick
            containers.hostCpuRead(h.systemCpuNsFromProcFs(), h.atNanos());
            podmanContainers.hostCpuRead(h.systemCpuNsFromProcFs(), h.atNanos());
        }
        Map<String, Double> values =
                new LinkedHashMap<>(Math.max(256, latest.values().size() * 2)); // no resize within a tick
        if (previousHost != null) {
            Metrics.host(previousHost, h, values);
            if (h.processesAtNanos() == previousHost.processesAtNanos()) {
                // processes are read every second (HostProbe.PROCESSES_EVERY): their last figures stand until then
                latest.values().forEach((k, v) -> {
                    if (MetricName.Family.PROCESS.has(k)) {
                        values.put(k, v);
                    }
                });
            }
        }
        previousHost = h;
        Set<String> ids = new HashSet<>();
        Set<Long> pids = new HashSet<>();
        Map<String, String> sources = new LinkedHashMap<>();
        sources.put("host.*", hostSource);
        sources.put(MetricName.Family.PROCESS.prefix() + "*", processSource);
        for (Map.Entry<String, RunningTarget> e : envs.entrySet()) {
            String id = e.getValue().containerId().orElse(null);
            if (id == null) {
                continue;
            }
            ids.add(id);
            pids.add(e.getValue().pid());
            try {
                Optional<ContainerRates> r =
                        probeOf(e.getKey()).rates(id, e.getValue().pid());
                if (r.isPresent()) {
                    Metrics.ContainerColumns columns = Metrics.containerColumns(e.getKey());
                    Metrics.container(columns, r.get(), values);
                    sources.put(columns.pattern(), r.get().source());
                }
            } catch (RuntimeException ex) {
                // the other environments still count; a cause that stays (a controller not delegated) is said once
                if (warned.add(e.getKey() + "\t" + ex.getMessage())) {
                    log.warn("no figures of {}: {}", e.getKey(), ex.getMessage());
                } else {
                    log.debug("no figures of {} this tick: {}", e.getKey(), ex.getMessage());
                }
            }
        }
        containers.retain(ids, pids);
        podmanContainers.retain(ids, pids);
        if (values.isEmpty()) {
            return; // first tick: nothing to compare with yet
        }
        // target.*: the environment's own figures when exactly one runs (with several, see their columns)
        String env = envs.isEmpty() ? "none" : String.join(",", envs.keySet());
        if (envs.size() == 1) {
            values.putAll(targetFigures(env, values));
        }
        Tick t = new Tick(System.currentTimeMillis(), env, values);
        synchronized (publishLock) {
            if (outputsClosed) {
                return;
            }
            latest = t;
            if (csv != null && !csv.write(t.epochMs(), t.environment(), values, sources) && !fileStopTold) {
                fileStopTold = true;
                String why = csv.stoppedBecause().orElse("");
                fileStopListeners.forEach(l -> l.accept(why));
            }
            listeners.forEach(l -> l.accept(t));
        }
    }

    /**
     * target.cpu.pct and target.mem.bytes: the environment's container or process tree; for a target of several
     * services, the sum of its services' trees (each seen from the host, in a container too), since the environment's
     * own tree is only its front service's and would leave out the tiers behind it.
     */
    static Map<String, Double> targetFigures(String env, Map<String, Double> values) {
        Map<String, Double> m = new LinkedHashMap<>();
        String services = serviceRole(env, "");
        if (values.keySet().stream().anyMatch(k -> serviceOf(k, services, MetricName.CPU_PCT))) {
            m.put(MetricName.TARGET_CPU.column(), sumOfServices(services, MetricName.CPU_PCT, values));
            m.put(MetricName.TARGET_MEM.column(), sumOfServices(services, MetricName.RSS_BYTES, values));
            return m;
        }
        Double cpu = values.getOrDefault(
                Metrics.containerColumns(env).cpuPct(),
                values.get(MetricName.Family.PROCESS.of(env, MetricName.CPU_PCT)));
        Double mem = values.getOrDefault(
                Metrics.containerColumns(env).memBytes(),
                values.get(MetricName.Family.PROCESS.of(env, MetricName.RSS_BYTES)));
        if (cpu != null) {
            m.put(MetricName.TARGET_CPU.column(), cpu);
        }
        if (mem != null) {
            m.put(MetricName.TARGET_MEM.column(), mem);
        }
        return m;
    }

    private static double sumOfServices(String servicesPrefix, String figure, Map<String, Double> values) {
        return values.entrySet().stream()
                .filter(e -> serviceOf(e.getKey(), servicesPrefix, figure))
                .mapToDouble(Map.Entry::getValue)
                .sum();
    }

    /** Whether {@code column} is {@code figure} of a service named {@code ENV/...}: process.ENV/SERVICE.FIGURE. */
    private static boolean serviceOf(String column, String servicesPrefix, String figure) {
        var m = MetricName.Family.PROCESS.any(figure).matcher(column);
        return m.matches() && m.group(1).startsWith(servicesPrefix);
    }

    /** The metrics file's name of a service of a multi-service environment: {@code ENV/SERVICE} (no environment name has a '/'). */
    public static String serviceRole(String environment, String service) {
        return environment + "/" + service;
    }
}
