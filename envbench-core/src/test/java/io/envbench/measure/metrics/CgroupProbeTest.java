package io.envbench.measure.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** cgroup parsing on fixture trees laid out as on real v2 (systemd driver) and v1 (cgroupfs) hosts. */
class CgroupProbeTest {
    @TempDir
    Path root;

    private Path write(String rel, String content) throws Exception {
        Path f = root.resolve(rel);
        Files.createDirectories(f.getParent());
        Files.writeString(f, content);
        return f;
    }

    private void proc(long pid, String cgroup) throws Exception {
        write("proc/" + pid + "/cgroup", cgroup);
        write("proc/stat", "cpu  1000 0 500 8000 100 0 0 0 0 0\ncpu0 500 0 250 4000 50 0 0 0 0 0\n");
        write(
                "proc/" + pid + "/net/dev",
                "Inter-|   Receive                                                |  Transmit\n"
                        + " face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed\n"
                        + "    lo:  999 9 0 0 0 0 0 0  999 9 0 0 0 0 0 0\n"
                        + "  eth0: 123456 100 0 0 0 0 0 0 654321 90 0 0 0 0 0 0\n");
    }

    @Test
    void cgroupV2SystemdDriver() throws Exception {
        String scope = "system.slice/docker-abc123.scope";
        write("cgroup/cgroup.controllers", "cpuset cpu io memory pids\n");
        write(
                "cgroup/" + scope + "/cpu.stat",
                "usage_usec 2500000\nuser_usec 2000000\nsystem_usec 500000\nnr_periods 40\nnr_throttled 10\nthrottled_usec 750000\n");
        write("cgroup/" + scope + "/memory.current", "104857600\n");
        write(
                "cgroup/" + scope + "/memory.stat",
                "anon 50000000\nfile 54857600\ninactive_file 4857600\nactive_file 50000000\n");
        write("cgroup/" + scope + "/memory.max", "268435456\n");
        write(
                "cgroup/" + scope + "/io.stat",
                "8:0 rbytes=4096 wbytes=104857600 rios=1 wios=100 dbytes=0 dios=0\n253:0 rbytes=0 wbytes=1000 rios=0 wios=1\n");
        write("cgroup/" + scope + "/pids.current", "7\n");
        write("cgroup/" + scope + "/cpuset.cpus.effective", "0-1\n");
        proc(42, "0::/" + scope + "\n");
        CgroupProbe probe = new CgroupProbe(root.resolve("cgroup"), root.resolve("proc"));
        assertTrue(probe.unified());
        ContainerSnapshot s = probe.read(42);
        assertEquals("cgroup v2", s.source());
        assertEquals(2_500_000_000L, s.cpuUsageNs());
        assertEquals(96_000_000_000L, s.systemCpuNs(), "user..steal of /proc/stat, 10 ms a tick");
        assertEquals(40, s.nrPeriods());
        assertEquals(10, s.nrThrottled());
        assertEquals(750_000_000L, s.throttledNs());
        assertEquals(100_000_000L, s.memoryUsageBytes(), "usage minus inactive_file, as Docker");
        assertEquals(268_435_456L, s.memoryLimitBytes());
        assertEquals(4096, s.blkReadBytes());
        assertEquals(104_858_600L, s.blkWriteBytes());
        assertEquals(123456, s.netRxBytes(), "lo left out");
        assertEquals(654321, s.netTxBytes());
        assertEquals(7, s.pids());
        assertEquals(2, s.cpusetCpus());
    }

    @Test
    void filesLongerThanTheReadBufferAreReadWholeOnTheFirstReading() throws Exception {
        // a host with many devices or cores: io.stat and /proc/stat beyond the 4 KiB the buffer starts with
        String scope = "system.slice/docker-big.scope";
        write("cgroup/cgroup.controllers", "cpu io memory\n");
        write("cgroup/" + scope + "/cpu.stat", "usage_usec 2500000\n");
        write("cgroup/" + scope + "/memory.current", "1000\n");
        write("cgroup/" + scope + "/memory.max", "max\n");
        StringBuilder io = new StringBuilder();
        for (int i = 0; i < 200; i++) {
            io.append("7:").append(i).append(" rbytes=0 wbytes=0 rios=0 wios=0 dbytes=0 dios=0\n");
        }
        io.append("8:0 rbytes=4096 wbytes=104857600 rios=1 wios=100 dbytes=0 dios=0\n");
        assertTrue(io.length() > 8192, "longer than the buffer, twice");
        write("cgroup/" + scope + "/io.stat", io.toString());
        proc(44, "0::/" + scope + "\n");
        StringBuilder stat = new StringBuilder("cpu  1000 0 500 8000 100 0 0 0 0 0\n");
        for (int i = 0; i < 200; i++) {
            stat.append("cpu").append(i).append(" 5 0 2 40 1 0 0 0 0 0\n");
        }
        write("proc/stat", stat.toString());
        ContainerSnapshot s = new CgroupProbe(root.resolve("cgroup"), root.resolve("proc")).read(44);
        assertEquals(4096, s.blkReadBytes());
        assertEquals(104_857_600L, s.blkWriteBytes());
        assertEquals(96_000_000_000L, s.systemCpuNs(), "the first line of a /proc/stat of 200 CPUs");
    }

    @Test
    void cgroupV2UnlimitedMemory() throws Exception {
        String dir = "docker/def456";
        write("cgroup/cgroup.controllers", "cpu memory\n");
        write("cgroup/" + dir + "/cpu.stat", "usage_usec 1\n");
        write("cgroup/" + dir + "/memory.current", "1000\n");
        write("cgroup/" + dir + "/memory.max", "max\n");
        proc(43, "0::/" + dir + "\n");
        assertEquals(
                -1,
                new CgroupProbe(root.resolve("cgroup"), root.resolve("proc"))
                        .read(43)
                        .memoryLimitBytes());
    }

    @Test
    void cgroupV1CgroupfsDriver() throws Exception {
        String id = "docker/0123abcd";
        write("cgroup/cpuacct/" + id + "/cpuacct.usage", "3000000000\n");
        write("cgroup/cpu/" + id + "/cpu.stat", "nr_periods 20\nnr_throttled 5\nthrottled_time 123000000\n");
        write("cgroup/memory/" + id + "/memory.usage_in_bytes", "20000000\n");
        write("cgroup/memory/" + id + "/memory.stat", "cache 100\ntotal_inactive_file 4000000\n");
        write("cgroup/memory/" + id + "/memory.limit_in_bytes", "9223372036854771712\n");
        write(
                "cgroup/blkio/" + id + "/blkio.throttle.io_service_bytes",
                "8:0 Read 10\n8:0 Write 2000\n8:0 Sync 0\n8:0 Total 2010\nTotal 2010\n");
        write("cgroup/pids/" + id + "/pids.current", "3\n");
        write("cgroup/cpuset/" + id + "/cpuset.cpus", "1\n");
        proc(
                44,
                "8:pids:/" + id + "\n7:blkio:/" + id + "\n4:memory:/" + id + "\n3:cpuset:/" + id + "\n2:cpuacct:/" + id
                        + "\n1:cpu:/" + id + "\n0::/" + id + "\n");
        ContainerSnapshot s = new CgroupProbe(root.resolve("cgroup"), root.resolve("proc")).read(44);
        assertEquals("cgroup v1", s.source());
        assertEquals(3_000_000_000L, s.cpuUsageNs());
        assertEquals(16_000_000L, s.memoryUsageBytes());
        assertEquals(-1, s.memoryLimitBytes(), "v1's huge number means no limit");
        assertEquals(10, s.blkReadBytes());
        assertEquals(2000, s.blkWriteBytes());
        assertEquals(5, s.nrThrottled());
        assertEquals(1, s.cpusetCpus());
        assertEquals(3, s.pids());
    }

    @Test
    void podmanCgroupsAreReadWhereTheKernelSaysTheyAre() throws Exception {
        // rootful Podman with cgroupfs on v1 puts a container under libpod_parent; with systemd on v2 under
        // machine.slice: both are taken from /proc/PID/cgroup, as Docker's
        String v1 = "libpod_parent/libpod-698d021bfca2";
        write("cgroup/cpuacct/" + v1 + "/cpuacct.usage", "7000000\n");
        write("cgroup/cpu/" + v1 + "/cpu.stat", "nr_periods 0\nnr_throttled 0\nthrottled_time 0\n");
        write("cgroup/memory/" + v1 + "/memory.usage_in_bytes", "5000000\n");
        write("cgroup/memory/" + v1 + "/memory.stat", "total_inactive_file 1000000\n");
        write("cgroup/memory/" + v1 + "/memory.limit_in_bytes", "9223372036854771712\n");
        write("cgroup/cpuset/" + v1 + "/cpuset.cpus", "0-1\n");
        proc(
                45,
                "4:memory:/" + v1 + "\n3:cpuset:/" + v1 + "\n2:cpuacct:/" + v1 + "\n1:cpu:/" + v1 + "\n0::/" + v1
                        + "\n");
        ContainerSnapshot s = new CgroupProbe(root.resolve("cgroup"), root.resolve("proc")).read(45);
        assertEquals(7_000_000L, s.cpuUsageNs());
        assertEquals(4_000_000L, s.memoryUsageBytes());
        assertEquals(2, s.cpusetCpus());

        Path v2root = root.resolve("v2");
        String scope = "machine.slice/libpod-698d021bfca2.scope";
        Files.createDirectories(v2root.resolve(scope));
        Files.writeString(v2root.resolve("cgroup.controllers"), "cpuset cpu io memory pids\n");
        Files.writeString(v2root.resolve(scope + "/cpu.stat"), "usage_usec 9000\n");
        Files.writeString(v2root.resolve(scope + "/memory.current"), "3000000\n");
        Files.writeString(v2root.resolve(scope + "/memory.max"), "max\n");
        proc(46, "0::/" + scope + "\n");
        ContainerSnapshot v2 = new CgroupProbe(v2root, root.resolve("proc")).read(46);
        assertEquals("cgroup v2", v2.source());
        assertEquals(9_000_000L, v2.cpuUsageNs());
        assertEquals(3_000_000L, v2.memoryUsageBytes());
    }

    @Test
    void ratesFollowDockersFormula() {
        ContainerSnapshot a = new ContainerSnapshot(0, 0, 0, 2, 1, 0, 0, 0, 0, -1, 0, 0, 0, 0, 1, "t");
        // one second: the container used 1 s of CPU while the host's two CPUs gave 2 s
        ContainerSnapshot b = new ContainerSnapshot(
                1_000_000_000L,
                1_000_000_000L,
                2_000_000_000L,
                2,
                1,
                10,
                4,
                50_000_000L,
                5,
                -1,
                0,
                1_048_576,
                2048,
                4096,
                1,
                "t");
        ContainerRates r = ContainerRates.between(a, b);
        assertEquals(100.0, r.cpuPct(), 1e-9, "one core busy = 100");
        assertEquals(100.0, r.cpuPctOfCpuset(), 1e-9, "its whole one-CPU cpuset");
        assertEquals(40.0, r.throttledPct(), 1e-9);
        assertEquals(50.0, r.throttledMs(), 1e-9);
        assertEquals(1_048_576.0, r.blkWriteBytesPerSec(), 1e-6);
        assertEquals(4096.0, r.netTxBytesPerSec(), 1e-6);
    }

    @Test
    void blockIoReadOnceASecondGivesItsRateOverItsOwnSpanAndItStandsBetweenReadings() {
        long ms = 1_000_000L;
        // block counters read at 0 ms and 1000 ms, the rest every 100 ms
        ContainerSnapshot t0 = new ContainerSnapshot(0, 0, 0, 2, 2, 0, 0, 0, 0, -1, 0, 0, 0, 0, 1, "t", 0);
        ContainerSnapshot t100 = new ContainerSnapshot(100 * ms, 0, 0, 2, 2, 0, 0, 0, 0, -1, 0, 0, 0, 0, 1, "t", 0);
        ContainerRates first = ContainerRates.between(t0, t100, null);
        assertTrue(
                Double.isNaN(first.blkWriteBytesPerSec()), "not known before a second reading of the block counters");
        ContainerSnapshot t1000 =
                new ContainerSnapshot(1000 * ms, 0, 0, 2, 2, 0, 0, 0, 0, -1, 0, 3_000_000, 0, 0, 1, "t", 1000 * ms);
        ContainerSnapshot t900 = new ContainerSnapshot(900 * ms, 0, 0, 2, 2, 0, 0, 0, 0, -1, 0, 0, 0, 0, 1, "t", 0);
        ContainerRates read = ContainerRates.between(t900, t1000, first);
        assertEquals(
                3_000_000.0,
                read.blkWriteBytesPerSec(),
                1e-6,
                "3 MB over the second between the two readings, not over 100 ms");
        ContainerSnapshot t1100 =
                new ContainerSnapshot(1100 * ms, 0, 0, 2, 2, 0, 0, 0, 0, -1, 0, 3_000_000, 0, 0, 1, "t", 1000 * ms);
        assertEquals(
                3_000_000.0,
                ContainerRates.between(t1000, t1100, read).blkWriteBytesPerSec(),
                1e-6,
                "the last rate stands");
    }
}
