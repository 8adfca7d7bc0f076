package io.envbench.study.cpucontrol;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

import com.github.dockerjava.api.exception.DockerException;
import io.envbench.base.environment.TargetStartException;
import io.envbench.base.settings.InvalidSettingException;
import io.envbench.launch.docker.DockerConnection;
import io.envbench.measure.metrics.ContainerProbe;
import io.envbench.measure.metrics.ContainerSnapshot;

/**
 * The readings of real tenants: each container's CPU time from its cgroup (through {@link ContainerProbe}: the cgroup
 * files of a local daemon, else the Docker stats API), between this {@link #read} and the last; and the 90% line of
 * the response times the caller reports ({@link #recordResponse}, e.g. from a sample listener) over a sliding window.
 * Thread-safe: {@link #recordResponse} may be called from many threads while the loop reads.
 */
public final class TenantReadings implements ReadingSource, AutoCloseable {
    /** The response-time window when none is given: 10 s, long enough for a stable 90% line at tens of samples a second. */
    public static final Duration DEFAULT_WINDOW = Duration.ofSeconds(10);

    private final ContainerProbe probe;
    private final boolean ownsProbe;
    private final Map<String, Tenant> tenants = new LinkedHashMap<>();
    private final Map<String, Long> pids = new LinkedHashMap<>();
    private final Map<String, ResponseWindow> responses = new ConcurrentHashMap<>();
    private final Map<String, ContainerSnapshot> previous = new LinkedHashMap<>();

    /**
     * Readings of the tenants' containers on {@code daemon}; each container's main process is looked up once.
     *
     * @param responseWindow how far back the 90% line looks
     * @throws InvalidSettingException {@code tenants}: a container that does not exist or does not run
     * @throws TargetStartException    the daemon does not answer
     */
    public static TenantReadings ofContainers(DockerConnection daemon, List<Tenant> tenants, Duration responseWindow)
            throws TargetStartException {
        var docker = daemon.client();
        Map<Tenant, Long> pids = new LinkedHashMap<>();
        for (Tenant t : tenants) {
            try {
                var state = docker.inspectContainerCmd(t.containerId()).exec().getState();
                Long pid = state == null ? null : state.getPidLong();
                if (pid == null || pid <= 0) {
                    throw new InvalidSettingException(
                            "tenants",
                            "tenant " + t.name() + ": container " + t.containerId()
                                    + " is not running; start it before its CPU is controlled");
                }
                pids.put(t, pid);
            } catch (DockerException e) {
                throw new InvalidSettingException(
                        "tenants",
                        "tenant " + t.name() + ": no container " + t.containerId() + " (" + e.getMessage()
                                + "); give a running container's id");
            }
        }
        return new TenantReadings(new ContainerProbe(daemon), true, pids, responseWindow, System::nanoTime);
    }

    /**
     * Readings through a probe the caller owns (and closes), of tenants whose main processes are known.
     *
     * @param pids each tenant's container's main process on the host (docker inspect .State.Pid), -1 when unknown
     */
    public TenantReadings(ContainerProbe probe, Map<Tenant, Long> pids, Duration responseWindow) {
        this(probe, false, pids, responseWindow, System::nanoTime);
    }

    TenantReadings(
            ContainerProbe probe,
            boolean ownsProbe,
            Map<Tenant, Long> pids,
            Duration responseWindow,
            LongSupplier nanoClock) {
        if (responseWindow.isNegative() || responseWindow.isZero()) {
            throw new InvalidSettingException(
                    "responseWindow", responseWindow.toMillis() + " ms; give a positive window, e.g. 10 s");
        }
        this.probe = probe;
        this.ownsProbe = ownsProbe;
        pids.forEach((t, pid) -> {
            tenants.put(t.name(), t);
            this.pids.put(t.name(), pid);
            responses.put(t.name(), new ResponseWindow(responseWindow, nanoClock));
        });
    }

    /** The tenants read. */
    public List<Tenant> tenants() {
        return List.copyOf(tenants.values());
    }

    /** The main process of a tenant's container, as looked up at the start. */
    public long pidOf(String tenant) {
        return pids.getOrDefault(tenant, -1L);
    }

    /**
     * A sample of the tenant ended after {@code elapsedMs}. Cheap and thread-safe: call it from a sample listener.
     *
     * @throws IllegalArgumentException naming the tenants, for a name that is none of them
     */
    public void recordResponse(String tenant, long elapsedMs) {
        ResponseWindow w = responses.get(tenant);
        if (w == null) {
            throw new IllegalArgumentException("no tenant '" + tenant + "'; the tenants are " + tenants.keySet());
        }
        w.add(elapsedMs);
    }

    /** The tenant's 90% line over the window (nearest rank, as JMeter's Aggregate Report); empty without samples. */
    public Optional<Duration> responseTime90(String tenant) {
        ResponseWindow w = responses.get(tenant);
        return w == null ? Optional.empty() : w.line90();
    }

    /**
     * Each tenant's CPU time since the last call, with its 90% line now. The first call only takes the first readings
     * and returns none; a container that cannot be read (gone) is left out.
     */
    @Override
    public synchronized List<TenantReading> read() {
        List<TenantReading> out = new ArrayList<>();
        for (Tenant t : tenants.values()) {
            ContainerSnapshot now;
            try {
                now = probe.read(t.containerId(), pids.get(t.name()));
            } catch (RuntimeException e) {
                previous.remove(t.name());
                continue;
            }
            ContainerSnapshot before = previous.put(t.name(), now);
            if (before != null && now.atNanos() > before.atNanos()) {
                out.add(new TenantReading(
                        t.name(),
                        now.cpuUsageNs() - before.cpuUsageNs(),
                        Duration.ofNanos(now.atNanos() - before.atNanos()),
                        responseTime90(t.name())));
            }
        }
        return out;
    }

    /** Closes the probe when it was made here. */
    @Override
    public void close() {
        if (ownsProbe) {
            probe.close();
        }
    }
}
