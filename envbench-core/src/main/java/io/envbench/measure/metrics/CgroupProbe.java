package io.envbench.measure.metrics;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;

import io.envbench.base.units.CpuSet;

/**
 * Reads a container's counters straight from its cgroup files and its network namespace, for cgroup v1
 * and v2 and both the cgroupfs and systemd drivers: the cgroup of the container's main process is taken
 * from {@code /proc/<pid>/cgroup}, so the driver's naming does not matter. Needs a local daemon.
 * The roots are parameters so tests can read fixture trees laid out as on a real host.
 */
public final class CgroupProbe {
    /**
     * How often the slow files are read again: those only {@code docker update} changes (memory limit, cpuset), the
     * inactive file cache of memory.stat (subtracted from the usage: dozens of lines, the dearest file of all, about a
     * third of a reading), the number of processes, and the block I/O counters (a rate over a second).
     */
    static final long SLOW_FILES_NANOS = 1_000_000_000L;
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

    /**
     * The host's CPU time read by someone else's reading of /proc/stat (the collector's host reading of the same tick),
     * used instead of reading the file again while it is at most 5 ms old.
     */
    synchronized void hostCpuRead(long systemCpuNs, long atNanos) {
        procStatNs = systemCpuNs;
        procStatAt = atNanos;
    }

    private synchronized long systemCpuNow() throws IOException {
        long now = System.nanoTime();
        if (procStat == null) {
            procStat = new PseudoFile(procRoot.resolve("stat"));
        }
        if (procStatAt == 0 || now - procStatAt > 5_000_000L) {
            int length = procStat.fill(); // first: a file longer than the buffer grows it, and bytes() is the new one
            procStatNs = systemCpuNs(procStat.bytes(), length);
            procStatAt = now;
        }
        return procStatNs;
    }

    /** The open files of each container's main process. */
    private final OpenPerProcess<Open> open = new OpenPerProcess<>(Open::new);

    public CgroupProbe() {
        this(Path.of("/sys/fs/cgroup"), Path.of("/proc"));
    }

    /** The cgroup mount it reads. */
    Path cgroupRoot() {
        return cgroupRoot;
    }

    /** The procfs root it reads. */
    Path procRoot() {
        return procRoot;
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
            throw new UncheckedIOException(
                    "cannot read the cgroup of pid " + pid + ": " + e.getMessage(),
                    e instanceof IOException io ? io : new IOException(e));
        }
    }

    /** Closes the files of processes not in {@code pids} (their containers stopped). */
    public void retain(Set<Long> pids) {
        open.retain(pids);
    }

    /** controller -> path; the v2 entry ("0::/path") is under "". */
    Map<String, String> cgroupPaths(long pid) throws IOException {
        return CgroupControllers.paths(procRoot.resolve(pid + "/cgroup"));
    }

    /** The files of one container, opened once. */
    private final class Open implements Closeable {
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
                cpuset = optional(
                        Files.exists(dir.resolve("cpuset.cpus.effective"))
                                ? dir.resolve("cpuset.cpus.effective")
                                : dir.resolve("cpuset.cpus"));
            } else {
                cpuUsage = new PseudoFile(v1(paths, "cpuacct").resolve("cpuacct.usage"));
                cpuStat = optional(v1(paths, "cpu").resolve("cpu.stat"));
                Path memory = v1(paths, "memory");
                memUsage = new PseudoFile(memory.resolve("memory.usage_in_bytes"));
                memStat = optional(memory.resolve("memory.stat"));
                memLimit = new PseudoFile(memory.resolve("memory.limit_in_bytes"));
                io = paths.containsKey("blkio")
                        ? optional(v1(paths, "blkio").resolve("blkio.throttle.io_service_bytes"))
                        : null;
                pids = paths.containsKey("pids") ? optional(v1(paths, "pids").resolve("pids.current")) : null;
                cpuset = paths.containsKey("cpuset")
                        ? optional(v1(paths, "cpuset").resolve("cpuset.cpus"))
                        : null;
            }
            netDev = new PseudoFile(procRoot.resolve(pid + "/net/dev"));
        }

        private PseudoFile optional(Path p) throws IOException {
            return Files.exists(p) ? new PseudoFile(p) : null;
        }

        /** Reused on every reading of this container (one collector thread reads it). */
        private final long[] cpuCounters = new long[4];

        private final long[] memCounters = new long[2];
        private final long[] twoLongs = new long[2];
        private byte[] cpusetText = new byte[0];
        private int cpusetCount;
        /** The memory limit, cpuset size, inactive file cache and process count, read at {@code slowAt}. */
        private long limit;

        private int cpus;
        private long inactive;
        private long processes;
        private long blkRead;
        private long blkWrite;
        private long slowAt;

        ContainerSnapshot read(long at) throws IOException {
            if (cpuStat == null) {
                Arrays.fill(cpuCounters, -1);
            } else {
                int cpuStatLength = cpuStat.fill();
                Ascii.counters(cpuStat.bytes(), cpuStatLength, v2 ? CPU_STAT_V2 : CPU_STAT_V1, cpuCounters);
            }
            long usage = memUsage.readLong();
            if (slowAt == 0 || at - slowAt >= SLOW_FILES_NANOS) {
                // the limit and the cpuset change only by docker update: once a second is soon enough
                limit = memLimit.readLong();
                cpus = cpuset == null ? onlineCpus : cpusetSize();
                if (memStat == null) {
                    Arrays.fill(memCounters, -1);
                } else {
                    int memStatLength = memStat.fill();
                    Ascii.counters(memStat.bytes(), memStatLength, MEMORY_STAT, memCounters);
                }
                // memory.stat runs to dozens of lines; only the inactive file cache is needed (v1: total_ first, the
                // hierarchy's)
                inactive = Math.max(0, !v2 && memCounters[0] >= 0 ? memCounters[0] : memCounters[1]);
                processes = pids == null ? 0 : Math.max(0, pids.readLong());
                // block I/O comes in writeback bursts: a rate over a second is the figure that means something, and
                // its file lists every device (the rate stands between readings: ContainerRates.between)
                if (io != null) {
                    if (v2) {
                        int ioLength = io.fill();
                        ioStatV2(io.bytes(), ioLength, twoLongs);
                    } else {
                        int ioLength = io.fill();
                        blkioV1(io.bytes(), ioLength, twoLongs);
                    }
                    blkRead = twoLongs[0];
                    blkWrite = twoLongs[1];
                }
                slowAt = at;
            }
            int netDevLength = netDev.fill();
            Ascii.netDevTotals(netDev.bytes(), netDevLength, twoLongs);
            long system = systemCpuNow();
            long cpuNs = v2 ? Math.max(0, cpuCounters[0]) * 1000 : cpuUsage.readLong();
            return new ContainerSnapshot(
                    at,
                    cpuNs,
                    system,
                    onlineCpus,
                    cpus,
                    Math.max(0, cpuCounters[1]),
                    Math.max(0, cpuCounters[2]),
                    Math.max(0, cpuCounters[3]) * (v2 ? 1000 : 1),
                    Math.max(0, usage - inactive),
                    limit < 0 || limit >= Long.MAX_VALUE / 2 ? -1 : limit,
                    blkRead,
                    blkWrite,
                    twoLongs[0],
                    twoLongs[1],
                    processes,
                    v2 ? "cgroup v2" : "cgroup v1",
                    slowAt);
        }

        /** CPUs of the cpuset, parsed again only when the file's text changed (docker update). */
        private int cpusetSize() throws IOException {
            int n = cpuset.fill();
            byte[] b = cpuset.bytes();
            if (!Arrays.equals(b, 0, n, cpusetText, 0, cpusetText.length)) {
                cpusetText = Arrays.copyOf(b, n);
                String l = new String(cpusetText, StandardCharsets.ISO_8859_1).trim();
                cpusetCount =
                        l.isEmpty() ? onlineCpus : CpuSet.parseList("cpuset", l).size();
            }
            return cpusetCount;
        }

        @Override
        public void close() throws IOException {
            for (PseudoFile f :
                    new PseudoFile[] {cpuUsage, cpuStat, memUsage, memStat, memLimit, io, pids, cpuset, netDev}) {
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

    /** cpu.stat keys, in the order of the reading's counters: usage, periods, throttled periods, throttled time. */
    private static final byte[][] CPU_STAT_V1 = {
        Ascii.bytes("usage_ns_unused"),
        Ascii.bytes("nr_periods"),
        Ascii.bytes("nr_throttled"),
        Ascii.bytes("throttled_time")
    };

    private static final byte[][] CPU_STAT_V2 = {
        Ascii.bytes("usage_usec"), Ascii.bytes("nr_periods"), Ascii.bytes("nr_throttled"), Ascii.bytes("throttled_usec")
    };
    /** memory.stat: the hierarchy's inactive file cache (v1), then the group's own (v1 without hierarchy, v2). */
    private static final byte[][] MEMORY_STAT = {Ascii.bytes("total_inactive_file"), Ascii.bytes("inactive_file")};

    private static final byte[] READ = Ascii.bytes("Read");
    private static final byte[] WRITE = Ascii.bytes("Write");
    private static final byte[] RBYTES = Ascii.bytes("rbytes=");
    private static final byte[] WBYTES = Ascii.bytes("wbytes=");

    /** blkio.throttle.io_service_bytes: "8:0 Read 123" lines summed into {read, write}; the "Total" line is skipped. */
    static void blkioV1(byte[] b, int end, long[] rw) {
        rw[0] = 0;
        rw[1] = 0;
        for (int i = 0; i < end; i = Ascii.nextLine(b, i, end)) {
            int op = i;
            while (op < end && b[op] != ' ' && b[op] != '\n') {
                op++;
            }
            op = Ascii.skipBlanks(b, op, end);
            if (Ascii.keyAt(b, op, end, READ)) {
                rw[0] += Ascii.firstLong(b, op + READ.length, end);
            } else if (Ascii.keyAt(b, op, end, WRITE)) {
                rw[1] += Ascii.firstLong(b, op + WRITE.length, end);
            }
        }
    }

    /** io.stat: "8:0 rbytes=1 wbytes=2 rios=3 wios=4 ..." per device, summed into {read, write}. */
    static void ioStatV2(byte[] b, int end, long[] rw) {
        rw[0] = 0;
        rw[1] = 0;
        for (int i = 0; i < end; i++) {
            if (i == 0 || b[i - 1] == ' ' || b[i - 1] == '\n') {
                if (startsWith(b, i, end, RBYTES)) {
                    rw[0] += Ascii.longAt(b, i + RBYTES.length, end);
                } else if (startsWith(b, i, end, WBYTES)) {
                    rw[1] += Ascii.longAt(b, i + WBYTES.length, end);
                }
            }
        }
    }

    private static boolean startsWith(byte[] b, int i, int end, byte[] prefix) {
        if (i + prefix.length > end) {
            return false;
        }
        for (int k = 0; k < prefix.length; k++) {
            if (b[i + k] != prefix[k]) {
                return false;
            }
        }
        return true;
    }

    /** The host's CPU time in ns from the first line of /proc/stat (user..steal), as Docker computes it. */
    static long systemCpuNs(byte[] b, int end) throws IOException {
        if (end < 4 || b[0] != 'c' || b[1] != 'p' || b[2] != 'u' || b[3] != ' ') {
            throw new IOException("no cpu line in /proc/stat");
        }
        long[] ticks = new long[8];
        Ascii.numbersAfterWord(b, 0, end, ticks, 8);
        long sum = 0;
        for (long t : ticks) {
            sum += t;
        }
        return sum * NS_PER_TICK;
    }
}
