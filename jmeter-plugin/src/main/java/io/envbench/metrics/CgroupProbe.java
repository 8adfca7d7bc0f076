package io.envbench.metrics;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import io.envbench.target.CpuSet;

/**
 * Reads a container's counters straight from its cgroup files and its network namespace, for cgroup v1
 * and v2 and both the cgroupfs and systemd drivers: the cgroup of the container's main process is taken
 * from {@code /proc/<pid>/cgroup}, so the driver's naming does not matter. Needs a local daemon.
 * The roots are parameters so tests can read fixture trees laid out as on a real host.
 */
public final class CgroupProbe {
    /** USER_HZ: /proc/stat counts in 1/100 s on Linux. */
    private static final long NS_PER_TICK = 10_000_000L;

    private final Path cgroupRoot;
    private final Path procRoot;
    private final boolean unified;
    private final int onlineCpus = CpuSet.online().size();
    /** cgroup paths per PID: they do not change while the process lives. */
    private final Map<Long, Map<String, String>> paths = new java.util.concurrent.ConcurrentHashMap<>();

    public CgroupProbe() {
        this(Path.of("/sys/fs/cgroup"), Path.of("/proc"));
    }

    public CgroupProbe(Path cgroupRoot, Path procRoot) {
        this.cgroupRoot = cgroupRoot;
        this.procRoot = procRoot;
        this.unified = Files.exists(cgroupRoot.resolve("cgroup.controllers"));
    }

    /** v2 when the unified hierarchy is mounted at the root, else v1. */
    public boolean unified() {
        return unified;
    }

    /** @param pid the container's main process on the host (docker inspect .State.Pid) */
    public ContainerSnapshot read(long pid) {
        try {
            long at = System.nanoTime();
            Map<String, String> p = paths.get(pid);
            if (p == null) {
                p = cgroupPaths(pid);
                if (paths.size() > 1000) {
                    paths.clear(); // containers come and go; keep the cache small
                }
                paths.put(pid, p);
            }
            long system = systemCpuNs();
            long[] net = netDev(pid);
            return unified ? readV2(at, p.get(""), system, onlineCpus, net) : readV1(at, p, system, onlineCpus, net);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the cgroup of pid " + pid + ": " + e.getMessage(), e);
        }
    }

    /** controller -> path; the v2 entry ("0::/path") is under "". */
    Map<String, String> cgroupPaths(long pid) throws IOException {
        Map<String, String> out = new HashMap<>();
        for (String line : Files.readAllLines(procRoot.resolve(pid + "/cgroup"))) {
            String[] f = line.split(":", 3);
            if (f.length == 3) {
                for (String controller : f[1].split(",")) {
                    out.put(controller, f[2]);
                }
            }
        }
        return out;
    }

    private ContainerSnapshot readV1(long at, Map<String, String> paths, long system, int online, long[] net) throws IOException {
        Path cpuacct = v1(paths, "cpuacct");
        Path cpu = v1(paths, "cpu");
        Path memory = v1(paths, "memory");
        Path blkio = v1(paths, "blkio");
        Map<String, Long> cpuStat = keyValues(cpu.resolve("cpu.stat"));
        Map<String, Long> memStat = keyValues(memory.resolve("memory.stat"));
        long usage = number(memory.resolve("memory.usage_in_bytes"));
        long inactive = memStat.getOrDefault("total_inactive_file", memStat.getOrDefault("inactive_file", 0L));
        long limit = number(memory.resolve("memory.limit_in_bytes"));
        long[] io = blkioV1(blkio.resolve("blkio.throttle.io_service_bytes"));
        Path pids = v1(paths, "pids").resolve("pids.current");
        return new ContainerSnapshot(at, number(cpuacct.resolve("cpuacct.usage")), system, online,
                cpusetSize(v1(paths, "cpuset").resolve("cpuset.cpus"), online), cpuStat.getOrDefault("nr_periods", 0L),
                cpuStat.getOrDefault("nr_throttled", 0L), cpuStat.getOrDefault("throttled_time", 0L), Math.max(0, usage - inactive),
                limit >= Long.MAX_VALUE / 2 ? -1 : limit, io[0], io[1], net[0], net[1],
                Files.exists(pids) ? number(pids) : 0, "cgroup v1");
    }

    private ContainerSnapshot readV2(long at, String path, long system, int online, long[] net) throws IOException {
        Path dir = cgroupRoot.resolve(strip(path));
        Map<String, Long> cpuStat = keyValues(dir.resolve("cpu.stat"));
        Map<String, Long> memStat = keyValues(dir.resolve("memory.stat"));
        long usage = number(dir.resolve("memory.current"));
        String max = Files.readString(dir.resolve("memory.max")).trim();
        long[] io = ioStatV2(dir.resolve("io.stat"));
        Path cpus = Files.exists(dir.resolve("cpuset.cpus.effective")) ? dir.resolve("cpuset.cpus.effective") : dir.resolve("cpuset.cpus");
        return new ContainerSnapshot(at, cpuStat.getOrDefault("usage_usec", 0L) * 1000, system, online, cpusetSize(cpus, online),
                cpuStat.getOrDefault("nr_periods", 0L), cpuStat.getOrDefault("nr_throttled", 0L),
                cpuStat.getOrDefault("throttled_usec", 0L) * 1000, Math.max(0, usage - memStat.getOrDefault("inactive_file", 0L)),
                max.equals("max") ? -1 : Long.parseLong(max), io[0], io[1], net[0], net[1],
                Files.exists(dir.resolve("pids.current")) ? number(dir.resolve("pids.current")) : 0, "cgroup v2");
    }

    private Path v1(Map<String, String> paths, String controller) throws IOException {
        String p = paths.get(controller);
        if (p == null) {
            throw new IOException("no " + controller + " cgroup");
        }
        // the mount may be "cpu,cpuacct" with symlinks "cpu" and "cpuacct"; both resolve
        Path dir = cgroupRoot.resolve(controller).resolve(strip(p));
        if (!Files.isDirectory(dir)) {
            throw new IOException(dir + " missing");
        }
        return dir;
    }

    private static String strip(String p) {
        return p.startsWith("/") ? p.substring(1) : p;
    }

    private static long number(Path f) throws IOException {
        return Long.parseLong(Files.readString(f).trim());
    }

    /** "key value" lines (cpu.stat, memory.stat). */
    private static Map<String, Long> keyValues(Path f) throws IOException {
        Map<String, Long> m = new HashMap<>();
        if (!Files.exists(f)) {
            return m;
        }
        for (String line : Files.readAllLines(f)) {
            String[] kv = line.trim().split("\\s+");
            if (kv.length == 2) {
                try {
                    m.put(kv[0], Long.parseLong(kv[1]));
                } catch (NumberFormatException e) {
                    // not a counter
                }
            }
        }
        return m;
    }

    /** blkio.throttle.io_service_bytes: "8:0 Read 123" lines; the "Total" line is skipped. */
    private static long[] blkioV1(Path f) throws IOException {
        long[] rw = new long[2];
        if (!Files.exists(f)) {
            return rw;
        }
        for (String line : Files.readAllLines(f)) {
            String[] p = line.trim().split("\\s+");
            if (p.length == 3) {
                if (p[1].equals("Read")) {
                    rw[0] += Long.parseLong(p[2]);
                } else if (p[1].equals("Write")) {
                    rw[1] += Long.parseLong(p[2]);
                }
            }
        }
        return rw;
    }

    /** io.stat: "8:0 rbytes=1 wbytes=2 rios=3 wios=4 ..." per device. */
    private static long[] ioStatV2(Path f) throws IOException {
        long[] rw = new long[2];
        if (!Files.exists(f)) {
            return rw;
        }
        for (String line : Files.readAllLines(f)) {
            for (String kv : line.trim().split("\\s+")) {
                if (kv.startsWith("rbytes=")) {
                    rw[0] += Long.parseLong(kv.substring(7));
                } else if (kv.startsWith("wbytes=")) {
                    rw[1] += Long.parseLong(kv.substring(7));
                }
            }
        }
        return rw;
    }

    private static int cpusetSize(Path f, int online) throws IOException {
        if (!Files.exists(f)) {
            return online;
        }
        String list = Files.readString(f).trim();
        return list.isEmpty() ? online : CpuSet.parseList("cpuset", list).size();
    }

    /** The host's CPU time in ns from the first line of /proc/stat (user..steal), as Docker computes it. */
    long systemCpuNs() throws IOException {
        // only the first line: the rest of /proc/stat (the interrupt counts) runs to kilobytes
        try (java.io.BufferedReader r = Files.newBufferedReader(procRoot.resolve("stat"))) {
            String cpu = r.readLine();
            if (cpu == null || !cpu.startsWith("cpu ")) {
                throw new IOException("no cpu line in /proc/stat");
            }
            String[] f = cpu.trim().split("\\s+");
            long ticks = 0;
            for (int i = 1; i <= 8 && i < f.length; i++) {
                ticks += Long.parseLong(f[i]);
            }
            return ticks * NS_PER_TICK;
        }
    }

    /** Bytes received and sent on every interface but lo, as seen from the process's network namespace. */
    long[] netDev(long pid) throws IOException {
        long[] rxTx = new long[2];
        ProcFs.netDev(procRoot.resolve(pid + "/net/dev")).forEach((name, v) -> {
            if (!name.equals("lo")) {
                rxTx[0] += v[0];
                rxTx[1] += v[1];
            }
        });
        return rxTx;
    }
}
