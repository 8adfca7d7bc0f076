package io.envbench.measure.metrics;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import com.github.dockerjava.api.DockerClient;
import io.envbench.base.container.ContainerEngine;
import io.envbench.base.environment.TargetStartException;
import io.envbench.launch.docker.DockerConnection;
import net.jcip.annotations.ThreadSafe;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads containers' figures from where they are cheapest: their cgroup files when the daemon is local and
 * the files are readable (microseconds), else a long-lived Docker stats stream per container
 * ({@link DockerStatsStream}: a remote daemon, or cgroups out of reach). Thread-safe: every reading happens under
 * this object's lock (the cgroup files it keeps open are read by one thread at a time).
 */
@ThreadSafe
public final class ContainerProbe implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ContainerProbe.class);

    /** Where container figures come from. */
    public enum Source {
        /** Cgroup files for a local daemon when readable, else the stats stream. */
        AUTO,
        /** Always the stats stream, even for a local daemon (e.g. to measure it as a remote daemon would be). */
        STATS_STREAM
    }

    private final DockerConnection connection;
    private final boolean local;
    private final CgroupProbe cgroups = new CgroupProbe();
    /** The previous cgroup reading of each container, for rates between two ticks. */
    private final Map<String, ContainerSnapshot> previous = new ConcurrentHashMap<>();
    /** The last figures of each container: block I/O rates stand between two readings of their files. */
    private final Map<String, ContainerRates> lastRates = new ConcurrentHashMap<>();
    /** Containers whose cgroup files could not be read: they use the stream from then on. */
    private final Set<String> unreadable = ConcurrentHashMap.newKeySet();

    /** Per container: why its cgroup files cannot give its own figures (a rootless engine, a controller not delegated). */
    private final Map<String, Optional<String>> cgroupProblems = new ConcurrentHashMap<>();

    private final ContainerEngine engine;
    /** Whether the engine runs rootless, asked once. */
    private volatile Boolean rootless;

    private volatile DockerStatsProbe api;
    private volatile DockerStatsStream stream;

    /**
     * @param connection the owner's connection to the daemon the containers run on; their cgroup files are read only
     *                   through a local socket
     */
    public ContainerProbe(DockerConnection connection) {
        this(connection, Source.AUTO);
    }

    public ContainerProbe(DockerConnection connection, Source source) {
        this(connection, source, ContainerEngine.DOCKER);
    }

    /** @param engine the engine that answers at {@code connection}, for messages */
    public ContainerProbe(DockerConnection connection, Source source, ContainerEngine engine) {
        this.connection = connection;
        this.engine = engine;
        this.local = source == Source.AUTO && connection.daemon().isLocalSocket();
    }

    /** True when containers are read from their cgroup files (a local daemon), unless one's files are unreadable. */
    public boolean readsCgroupFiles() {
        return local;
    }

    /**
     * One reading of a container's counters: its cgroup files when the daemon is local, else one frame of the
     * stats API (about a second).
     *
     * @param pid the container's main process on the host, or -1 when unknown
     */
    public synchronized ContainerSnapshot read(String containerId, long pid) {
        if (local && pid > 0) {
            try {
                return cgroups.read(pid);
            } catch (RuntimeException e) {
                log.debug("cgroup read of {} failed, using the stats API: {}", containerId, e.toString());
            }
        }
        return api().read(containerId);
    }

    /**
     * The container's rates: between this reading of its cgroup files and the previous one, or between the
     * two latest frames of its stats stream. Empty while there is nothing to compare yet (the first cgroup
     * reading, a stream's first two seconds).
     *
     * @param pid the container's main process on the host, or -1 when unknown
     */
    public synchronized Optional<ContainerRates> rates(String containerId, long pid) {
        if (local && pid > 0) {
            // a cgroup that cannot give the container's own figures is said, with its fix; the stats API would
            // read the same files and give zeros
            cgroupProblems
                    .computeIfAbsent(
                            containerId,
                            id -> CgroupControllers.problem(
                                    cgroups.cgroupRoot(), cgroups.procRoot(), pid, engine, rootless()))
                    .ifPresent(p -> {
                        throw new IllegalStateException(p);
                    });
        }
        if (local && pid > 0 && !unreadable.contains(containerId)) {
            try {
                ContainerSnapshot now = cgroups.read(pid);
                ContainerSnapshot before = previous.put(containerId, now);
                if (before == null) {
                    return Optional.empty();
                }
                ContainerRates r = ContainerRates.between(before, now, lastRates.get(containerId));
                lastRates.put(containerId, r);
                return Optional.of(r);
            } catch (RuntimeException e) {
                unreadable.add(containerId);
                log.warn(
                        "the cgroup files of container {} cannot be read ({}); its figures come from the Docker stats stream",
                        containerId.length() > 12 ? containerId.substring(0, 12) : containerId,
                        e.getMessage());
            }
        }
        return stream().rates(containerId);
    }

    /** Lets go of what is kept for containers not in {@code containerIds} (files, previous readings, streams). */
    public synchronized void retain(Set<String> containerIds, Set<Long> pids) {
        cgroups.retain(pids);
        previous.keySet().retainAll(containerIds);
        lastRates.keySet().retainAll(containerIds);
        unreadable.retainAll(containerIds);
        cgroupProblems.keySet().retainAll(containerIds);
        DockerStatsStream s = stream;
        if (s != null) {
            s.retain(containerIds);
        }
    }

    /** Whether the engine runs rootless ({@code docker info}'s security options hold {@code name=rootless}). */
    private boolean rootless() {
        Boolean r = rootless;
        if (r == null) {
            r = connection
                    .connected()
                    .map(c -> {
                        List<String> options = c.infoCmd().exec().getSecurityOptions();
                        return options != null && options.stream().anyMatch(o -> o.contains("name=rootless"));
                    })
                    .orElse(false);
            rootless = r;
        }
        return r;
    }

    /** The stats streams, when any is open (tests look at their threads). */
    Optional<DockerStatsStream> streams() {
        return Optional.ofNullable(stream);
    }

    /**
     * The host's CPU time (all CPUs, as {@code /proc/stat} counts it) read at {@code atNanos} by the caller's own reading
     * of {@code /proc/stat}: the containers' CPU shares of this tick use it instead of reading that file again.
     */
    public synchronized void hostCpuRead(long systemCpuNs, long atNanos) {
        cgroups.hostCpuRead(systemCpuNs, atNanos);
    }

    /** Closes the stats streams and the cgroup files. */
    @Override
    public synchronized void close() {
        retain(Set.of(), Set.of());
        if (stream != null) {
            stream.close();
        }
    }

    private DockerStatsStream stream() {
        DockerStatsStream s = stream;
        if (s != null) {
            return s;
        }
        synchronized (this) {
            if (stream == null) {
                stream = new DockerStatsStream(client());
            }
            return stream;
        }
    }

    private synchronized DockerStatsProbe api() {
        if (api == null) {
            api = new DockerStatsProbe(client());
        }
        return api;
    }

    private DockerClient client() {
        try {
            return connection.client();
        } catch (TargetStartException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }
}
