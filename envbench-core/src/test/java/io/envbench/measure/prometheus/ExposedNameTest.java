package io.envbench.measure.prometheus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.envbench.measure.metrics.MetricName;
import io.envbench.measure.metrics.Metrics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Each kind of metrics-file column gets one Prometheus name, its unit last, what it is made from as labels. */
class ExposedNameTest {
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "host.cpu.pct | none | envbench_host_cpu_percent | {} | 1",
                "host.cpu.iowait.pct | none | envbench_host_cpu_iowait_percent | {} | 1",
                "host.cpu3.pct | none | envbench_host_cpu_core_percent | {core=3} | 1",
                "host.cpu3.irq.pct | none | envbench_host_cpu_core_irq_percent | {core=3} | 1",
                "host.cpu.irq.pct | none | envbench_host_cpu_irq_percent | {} | 1",
                "host.load1 | none | envbench_host_load1 | {} | 1",
                "host.mem.used.bytes | none | envbench_host_mem_used_bytes | {} | 1",
                "host.disk.nvme0n1.write.bytesPerSec | none | envbench_host_disk_write_bytes_per_second | {disk=nvme0n1} | 1",
                "host.disk.sda.busy.pct | none | envbench_host_disk_busy_percent | {disk=sda} | 1",
                "host.net.eth0.rx.packetsPerSec | none | envbench_host_net_rx_packets_per_second | {interface=eth0} | 1",
                "process.jmeter.cpu.pct | docker | envbench_process_cpu_percent | {process=jmeter} | 1",
                "process.docker-proxy.rss.bytes | docker | envbench_process_rss_bytes | {process=docker-proxy} | 1",
                "process.bare.io.write.bytesPerSec | bare | envbench_target_process_io_write_bytes_per_second | {environment=bare} | 1",
                "process.redmine/mariadb.cpu.pct | redmine | envbench_service_process_cpu_percent | {environment=redmine, service=mariadb} | 1",
                "container.docker-bridge.cpu.throttled.ms | docker-bridge | envbench_container_cpu_throttled_seconds | {environment=docker-bridge} | 0.001",
                "container.docker-bridge.cpu.throttled.pct | docker-bridge | envbench_container_cpu_throttled_percent | {environment=docker-bridge} | 1",
                "container.v1.2.mem.limit.bytes | v1.2 | envbench_container_mem_limit_bytes | {environment=v1.2} | 1",
                "container.docker.pids | docker | envbench_container_pids | {environment=docker} | 1",
                "target.cpu.pct | docker | envbench_target_cpu_percent | {environment=docker} | 1",
                "target.mem.bytes | bare | envbench_target_mem_bytes | {environment=bare} | 1",
            })
    void aColumnHasItsName(String column, String running, String name, String labels, double scale) {
        ExposedName n = ExposedName.of(column, running);
        assertEquals(name, n.name(), column);
        assertEquals(labels, n.labels().toString(), column);
        assertEquals(scale, n.scale(), column);
        assertTrue(!n.help().isBlank(), column);
    }

    /**
     * Every column the collector writes for a container and the host's fixed ones: a valid Prometheus name, and one
     * name always with the same label names (Grafana's queries and sums rely on it).
     */
    @Test
    void everyColumnIsAValidNameWithOneSetOfLabelNamesPerName() {
        Metrics.ContainerColumns c = Metrics.containerColumns("docker-host");
        List<String> columns = new java.util.ArrayList<>(List.of(
                c.cpuPct(),
                c.cpuCpusetPct(),
                c.throttledPeriods(),
                c.throttledPct(),
                c.throttledMs(),
                c.memBytes(),
                c.memLimitBytes(),
                c.blkReadBytesPerSec(),
                c.blkWriteBytesPerSec(),
                c.netRxBytesPerSec(),
                c.netTxBytesPerSec(),
                c.pids(),
                MetricName.Family.PROCESS.of("bare", MetricName.CPU_PCT),
                MetricName.Family.PROCESS.of("dockerd", MetricName.CPU_PCT),
                MetricName.Family.PROCESS.of("jmeter", MetricName.CPU_PCT),
                Metrics.containerColumns("docker-bridge").cpuPct(),
                MetricName.Family.CORE.of("0", "pct"),
                MetricName.Family.CORE.of("1", "pct")));
        for (MetricName m : MetricName.values()) {
            columns.add(m.column());
        }
        Map<String, Set<String>> labelNames = new HashMap<>();
        for (String column : columns) {
            ExposedName n = ExposedName.of(column, "docker-host");
            assertTrue(n.name().matches("envbench_[a-z][a-z0-9_]*"), column + " -> " + n.name());
            Set<String> before = labelNames.putIfAbsent(n.name(), n.labels().keySet());
            if (before != null) {
                assertEquals(before, n.labels().keySet(), n.name());
            }
        }
        assertEquals(
                columns.size() - 3, labelNames.size(), "names shared by processes, containers, cores: " + labelNames);
    }
}
