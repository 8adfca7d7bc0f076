package io.envbench.measure.metrics;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.BlkioStatEntry;
import com.github.dockerjava.api.model.CpuStatsConfig;
import com.github.dockerjava.api.model.StatisticNetworksConfig;
import com.github.dockerjava.api.model.Statistics;
import com.github.dockerjava.core.InvocationBuilder;
import net.jcip.annotations.ThreadSafe;

/**
 * A container's counters from the Docker stats API, one frame per call (about a second each: the daemon
 * samples for a second before answering). For one-off readings; the collector streams instead
 * ({@link DockerStatsStream}). Thread-safe.
 */
@ThreadSafe
public final class DockerStatsProbe {
    private final DockerClient docker;

    public DockerStatsProbe(DockerClient docker) {
        this.docker = docker;
    }

    public ContainerSnapshot read(String containerId) {
        Statistics s;
        try (InvocationBuilder.AsyncResultCallback<Statistics> cb = new InvocationBuilder.AsyncResultCallback<>()) {
            docker.statsCmd(containerId).withNoStream(true).exec(cb);
            s = cb.awaitResult();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return snapshot(s, System.nanoTime(), SOURCE);
    }

    /** What {@link ContainerSnapshot#source()} says for a reading of this probe. */
    static final String SOURCE = "docker stats API";

    /** A stats frame as a snapshot taken at {@code atNanos}. */
    static ContainerSnapshot snapshot(Statistics s, long at, String source) {
        var cpu = s.getCpuStats() == null ? new CpuStatsConfig() : s.getCpuStats();
        long usage = cpu.getCpuUsage() == null || cpu.getCpuUsage().getTotalUsage() == null
                ? 0
                : cpu.getCpuUsage().getTotalUsage();
        long system = cpu.getSystemCpuUsage() == null ? 0 : cpu.getSystemCpuUsage();
        int online = cpu.getOnlineCpus() == null
                ? Runtime.getRuntime().availableProcessors()
                : cpu.getOnlineCpus().intValue();
        var thr = cpu.getThrottlingData();
        var mem = s.getMemoryStats();
        long memUsage = mem == null || mem.getUsage() == null ? 0 : mem.getUsage();
        long inactive = 0;
        if (mem != null && mem.getStats() != null) {
            Long v1 = mem.getStats().getTotalInactiveFile();
            Long v2 = mem.getStats().getInactiveFile();
            inactive = v1 != null ? v1 : v2 != null ? v2 : 0;
        }
        long limit = mem == null || mem.getLimit() == null ? -1 : mem.getLimit();
        long read = 0;
        long write = 0;
        if (s.getBlkioStats() != null && s.getBlkioStats().getIoServiceBytesRecursive() != null) {
            for (BlkioStatEntry e : s.getBlkioStats().getIoServiceBytesRecursive()) {
                if ("read".equalsIgnoreCase(e.getOp())) {
                    read += e.getValue();
                } else if ("write".equalsIgnoreCase(e.getOp())) {
                    write += e.getValue();
                }
            }
        }
        long rx = 0;
        long tx = 0;
        Map<String, StatisticNetworksConfig> nets = s.getNetworks();
        if (nets != null) {
            for (StatisticNetworksConfig n : nets.values()) {
                rx += n.getRxBytes() == null ? 0 : n.getRxBytes();
                tx += n.getTxBytes() == null ? 0 : n.getTxBytes();
            }
        }
        long pids = s.getPidsStats() == null || s.getPidsStats().getCurrent() == null
                ? 0
                : s.getPidsStats().getCurrent();
        return new ContainerSnapshot(
                at,
                usage,
                system,
                online,
                online,
                thr == null || thr.getPeriods() == null ? 0 : thr.getPeriods(),
                thr == null || thr.getThrottledPeriods() == null ? 0 : thr.getThrottledPeriods(),
                thr == null || thr.getThrottledTime() == null ? 0 : thr.getThrottledTime(),
                Math.max(0, memUsage - inactive),
                limit,
                read,
                write,
                rx,
                tx,
                pids,
                source);
    }
}
