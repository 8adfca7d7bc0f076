package io.envbench.metrics;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.envbench.docker.DockerConnection;
import io.envbench.docker.DockerDaemon;
import io.envbench.environment.TargetStartException;

/**
 * Reads a container's counters: from its cgroup files when the daemon is local (microseconds), else
 * from the Docker stats API (about a second). Thread-safe.
 */
public final class ContainerProbe {
    private static final Logger log = LoggerFactory.getLogger(ContainerProbe.class);

    private final DockerDaemon daemon;
    private final boolean local;
    private final CgroupProbe cgroups = new CgroupProbe();
    private volatile DockerStatsProbe api;

    /** @param daemon the daemon the containers run on; its cgroup files are read only through a local socket */
    public ContainerProbe(DockerDaemon daemon) {
        this.daemon = daemon;
        this.local = daemon.isLocalSocket();
    }

    public boolean readsCgroupFiles() {
        return local;
    }

    /** @param pid the container's main process on the host, or -1 when unknown */
    public ContainerSnapshot read(String containerId, long pid) {
        if (local && pid > 0) {
            try {
                return cgroups.read(pid);
            } catch (RuntimeException e) {
                log.debug("cgroup read of {} failed, using the stats API: {}", containerId, e.toString());
            }
        }
        return api().read(containerId);
    }

    /** Lets go of the files of containers whose main process is not in {@code pids}. */
    public void retain(java.util.Set<Long> pids) {
        cgroups.retain(pids);
    }

    private DockerStatsProbe api() {
        if (api == null) {
            try {
                api = new DockerStatsProbe(DockerConnection.connect(daemon));
            } catch (TargetStartException e) {
                throw new IllegalStateException(e.getMessage(), e);
            }
        }
        return api;
    }
}
