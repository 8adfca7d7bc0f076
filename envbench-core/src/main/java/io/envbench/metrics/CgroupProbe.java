package io.envbench.metrics;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import io.envbench.units.CpuSet;

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
    /** /proc/stat, shared by all containers and read at most once per 5 ms (one tick reads many containers). */
    private PseudoFile procStat;
    private long procStatAt;
    private long procStatNs;

    private synchronized long systemCpuNow() throws IOException {
        long now = System.nanoTime();
        if (procStat == null) {
            procStat = new PseudoFile(procRoot.resolve("stat"));
        }
        if (procStatAt == 0 || now - procStatAt > 5_000_000L) {
            procStatNs = systemCpuNs(procStat.read());
            procStatAt = now;
        }
        return procStatNs;
    }

    /** The open files of each container's main process. */
    private final OpenPerProcess<Open> open = new OpenPerProcess<>(Open::new);

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
            return open.get(pid).read(System.nanoTime());
        } catch (IOException | RuntimeException e) {
            open.forget(pid);
            throw new UncheckedIOException("cannot read the cgroup of pid " + pid + ": " + e.getMessage(),
                    e instanceof IOException io ? io : new IOException(e));
        }
    }

    /** Closes the files of processes not in {@code pids} (their containers stopped). */
    public void retain(java.util.Set<Long> pids) {
        open.retain(pids);
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

    /** The files of one container, opened once. */
    private final class Open implements java.io.Closeable {
        private final boolean v2 = unified;
        private final PseudoFile cpuUsage;
        private final PseudoFile cpuStat;
        private final PseudoFile memUsage;
        private final PseudoFile memStat;
        private final PseudoFile memLimit;
        private final PseudoFile io;
        private final PseudoFile pids;
        private final PseudoFile cpuset;
        private final PseudoFile netDev;

        Open(long pid) throws IOException {
            Map<String, String> paths = cgroupPaths(pid);
            if (v2) {
                Path dir = cgroupRoot.resolve(strip(paths.getOrDefault("", "")));
                cpuUsage = null;
                cpuStat = new PseudoFile(dir.resolve("cpu.stat"));
                memUsage = new PseudoFile(dir.resolve("memory.current"));
                memStat = optional(dir.resolve("memory.stat"));
                memLimit = new PseudoFile(dir.resolve("memory.max"));
                io = optional(dir.resolve("io.stat"));
                pids = optional(dir.resolve("pids.current"));
                cpuset = optional(Files.exists(dir.resolve("cpuset.cpus.effective")) ? dir.resolve("cpuset.cpus.effective") : dir.resolve("cpuset.cpus"));
            } else {
                cpuUsage = new PseudoFile(v1(paths, "cpuacct").resolve("cpuacct.usage"));
                cpuStat = optional(v1(paths, "cpu").resolve("cpu.stat"));
                Path memory = v1(paths, "memory");
                memUsage = new PseudoFile(memory.resolve("memory.usage_in_bytes"));
                memStat = optional(memory.resolve("memory.stat"));
                memLimit = new PseudoFile(memory.resolve("memory.limit_in_bytes"));
                io = paths.containsKey("blkio") ? optional(v1(paths, "blkio").resolve("blkio.throttle.io_service_bytes")) : null;
                pids = paths.containsKey("pids") ? optional(v1(paths, "pids").resolve("pids.current")) : null;
                cpuset = paths.containsKey("cpuset") ? optional(v1(paths, "cpuset").resolve("cpuset.cpus")) : null;
            }
            netDev = new PseudoFile(procRoot.resolve(pid + "/net/dev"));
        }

        private PseudoFile optional(Path p) throws IOException {
            return Files.exists(p) ? new PseudoFile(p) : null;
        }

        ContainerSnapshot read(long at) throws IOException {
            Map<String, Long> cpu = cpuStat == null ? Map.of() : keyValues(cpuStat.read());
            String memText = memStat == null ? "" : memStat.read();
            long usage = memUsage.readLong();
            String limitText = memLimit.read().trim();
            long limit = limitText.equals("max") ? -1 : Long.parseLong(limitText);
            long[] rw = io == null ? new long[2] : v2 ? ioStatV2(io.read()) : blkioV1(io.read());
            long[] net = netDevTotals(netDev.read());
            int cpus = cpuset == null ? onlineCpus : cpusetSize(cpuset.read());
            long system = systemCpuNow();
            long cpuNs = v2 ? cpu.getOrDefault("usage_usec", 0L) * 1000 : cpuUsage.readLong();
            // memory.stat runs to dozens of lines; only the inactive file cache is needed
            long inactive = v2 ? counter(memText, "inactive_file") : counter(memText, "total_inactive_file");
            if (!v2 && inactive < 0) {
                inactive = counter(memText, "inactive_file");
            }
            inactive = Math.max(0, inactive);
            return new ContainerSnapshot(at, cpuNs, system, onlineCpus, cpus, cpu.getOrDefault("nr_periods", 0L),
                    cpu.getOrDefault("nr_throttled", 0L),
                    v2 ? cpu.getOrDefault("throttled_usec", 0L) * 1000 : cpu.getOrDefault("throttled_time", 0L),
                    Math.max(0, usage - inactive), limit < 0 || limit >= Long.MAX_VALUE / 2 ? -1 : limit, rw[0], rw[1], net[0], net[1],
                    pids == null ? 0 : pids.readLong(), v2 ? "cgroup v2" : "cgroup v1");
        }

        @Override
        public void close() throws IOException {
            for (PseudoFile f : new PseudoFile[] {cpuUsage, cpuStat, memUsage, memStat, memLimit, io, pids, cpuset, netDev}) {
                if (f != null) {
                    f.close();
                }
            }
        }
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

    private static final java.util.regex.Pattern SPACES = java.util.regex.Pattern.compile("\\s+");

    /** "key value" lines (cpu.stat, memory.stat). */
    static Map<String, Long> keyValues(String text) {
        Map<String, Long> m = new HashMap<>();
        for (String line : text.split("\n")) {
            int sp = line.indexOf(' ');
            if (sp > 0) {
                try {
                    m.put(line.substring(0, sp), Long.parseLong(line.substring(sp + 1).trim()));
                } catch (NumberFormatException e) {
                    // not a counter
                }
            }
        }
        return m;
    }

    /** The value of one "key value" line of a stat file, or -1 when absent. */
    static long counter(String text, String key) {
        int i = text.startsWith(key + " ") ? 0 : text.indexOf("\n" + key + " ");
        if (i < 0) {
            return -1;
        }
        int start = (i == 0 ? 0 : i + 1) + key.length() + 1;
        int end = text.indexOf('\n', start);
        return Long.parseLong(text.substring(start, end < 0 ? text.length() : end).trim());
    }

    /** blkio.throttle.io_service_bytes: "8:0 Read 123" lines; the "Total" line is skipped. */
    static long[] blkioV1(String text) {
        long[] rw = new long[2];
        for (String line : text.split("\n")) {
            String[] p = SPACES.split(line.trim());
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
    static long[] ioStatV2(String text) {
        long[] rw = new long[2];
        for (String kv : SPACES.split(text.trim())) {
            if (kv.startsWith("rbytes=")) {
                rw[0] += Long.parseLong(kv.substring(7));
            } else if (kv.startsWith("wbytes=")) {
                rw[1] += Long.parseLong(kv.substring(7));
            }
        }
        return rw;
    }

    private int cpusetSize(String list) {
        String l = list.trim();
        return l.isEmpty() ? onlineCpus : CpuSet.parseList("cpuset", l).size();
    }

    /** The host's CPU time in ns from the first line of /proc/stat (user..steal), as Docker computes it. */
    static long systemCpuNs(String procStat) throws IOException {
        int eol = procStat.indexOf('\n');
        String cpu = eol < 0 ? procStat : procStat.substring(0, eol);
        if (!cpu.startsWith("cpu ")) {
            throw new IOException("no cpu line in /proc/stat");
        }
        String[] f = SPACES.split(cpu.trim());
        long ticks = 0;
        for (int i = 1; i <= 8 && i < f.length; i++) {
            ticks += Long.parseLong(f[i]);
        }
        return ticks * NS_PER_TICK;
    }

    /** Bytes received and sent on every interface but lo, from a net/dev text. */
    static long[] netDevTotals(String text) {
        long[] rxTx = new long[2];
        ProcFs.netDev(java.util.List.of(text.split("\n"))).forEach((name, v) -> {
            if (!name.equals("lo")) {
                rxTx[0] += v[0];
                rxTx[1] += v[1];
            }
        });
        return rxTx;
    }

}
