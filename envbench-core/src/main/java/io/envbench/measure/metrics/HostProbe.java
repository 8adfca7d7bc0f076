package io.envbench.measure.metrics;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import net.jcip.annotations.NotThreadSafe;
import oshi.SystemInfo;
import oshi.hardware.CentralProcessor;
import oshi.hardware.GlobalMemory;
import oshi.hardware.HWDiskStore;
import oshi.hardware.HardwareAbstractionLayer;
import oshi.hardware.NetworkIF;
import oshi.software.os.OSProcess;
import oshi.software.os.OperatingSystem;
import oshi.util.GlobalConfig;

/**
 * Host metrics through OSHI: CPU (total and per core), load, memory, swap, disks, network interfaces,
 * and the processes that matter for a bare-metal vs container comparison: Docker's daemons and
 * port proxy, and the bare-metal target's process tree. Not thread-safe: one collector thread uses it.
 */
@NotThreadSafe
public final class HostProbe {
    /** Processes watched by name (containerd-shim covers its runc-v2 variant); CPU and RSS summed per name. */
    /** Docker's userland port-mapping proxy: what a published port costs. */
    public static final String DOCKER_PROXY = "docker-proxy";

    public static final List<String> WATCHED = List.of("dockerd", "containerd-shim", DOCKER_PROXY);
    /** Role of the load generator's JVM (JMeter): {@code process.jmeter.cpu.pct}. */
    public static final String JVM_ROLE = "jmeter";
    /**
     * How often /proc is walked again for Docker's processes by name (a few hundred files: the dearest part of a
     * reading); an environment that starts or stops asks for it at once ({@link #rescanSoon}), which is when they change.
     */
    private static final long RESCAN_NANOS = 30_000_000_000L;
    /**
     * How often processes are read: procfs counts a process's CPU in clock ticks of 10 ms, so a 100 ms reading of a
     * process using 5% of a core sees 0 or 1 tick (0% or 10%); a second is the shortest span that means something,
     * and reading Docker's shims and proxies every 100 ms was a third of the collector's cost.
     */
    public static final Duration PROCESSES_EVERY = Duration.ofSeconds(1);

    static {
        // OSHI caches counters for 300 ms by default; readings 100 ms apart must see fresh ones
        GlobalConfig.set("oshi.util.memoizer.expiration", 10);
    }

    private final OperatingSystem os;
    private final CentralProcessor cpu;
    private final GlobalMemory memory;
    private final List<HWDiskStore> disks;
    private final List<NetworkIF> nets;
    private final boolean linux = ProcFs.available();
    private final ProcFs procFs = new ProcFs();
    /** PIDs read in this reading; the stat files of the others are closed. */
    private final Set<Long> seen = new HashSet<>();

    private Map<String, List<Integer>> watchedPids = Map.of();
    private long lastScan;
    private final long processesEveryNanos;
    /** The last reading of the processes, carried by the snapshots until the next one. */
    private Map<String, Map<Integer, long[]>> processes = Map.of();

    private long processesAt;
    /** The kernel recomputes the load average every 5 s: reading it more often reads the same numbers. */
    private static final long LOAD_EVERY_NANOS = 5_000_000_000L;

    private double[] load;
    private long loadAt;

    /** PID of the load generator (JMeter) whose CPU is reported as {@code process.jmeter.*}. */
    private final long loadGeneratorPid;

    /** The load generator is this JVM (the Resource Monitor inside JMeter); processes read every {@link #PROCESSES_EVERY}. */
    public HostProbe() {
        this(ProcessHandle.current().pid(), PROCESSES_EVERY);
    }

    /**
     * @param loadGeneratorPid the JMeter process (the runner starts JMeter as a child)
     * @param processesEvery   how often processes are read (zero: at every reading); {@link #PROCESSES_EVERY} in a collector
     */
    public HostProbe(long loadGeneratorPid, Duration processesEvery) {
        this.loadGeneratorPid = loadGeneratorPid;
        this.processesEveryNanos = processesEvery.toNanos();
        SystemInfo si = new SystemInfo();
        HardwareAbstractionLayer hal = si.getHardware();
        os = si.getOperatingSystem();
        cpu = hal.getProcessor();
        memory = hal.getMemory();
        // OSHI's disk and interface objects are only needed where procfs is not
        disks = ProcFs.available() ? List.of() : hal.getDiskStores();
        nets = ProcFs.available() ? List.of() : hal.getNetworkIFs(false);
    }

    /** @param trees role -> root PID of a process tree to account (e.g. the bare-metal target) */
    public HostSnapshot read(Map<String, Long> trees) {
        long at = System.nanoTime();
        Map<String, long[]> d = new LinkedHashMap<>();
        Map<String, long[]> n = new LinkedHashMap<>();
        if (linux) {
            try {
                d = procFs.disks();
                n = procFs.nets();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        } else {
            for (HWDiskStore disk : disks) {
                disk.updateAttributes();
                d.put(
                        disk.getName().replaceFirst("^/dev/", ""),
                        new long[] {disk.getReadBytes(), disk.getWriteBytes(), disk.getTransferTime()});
            }
            for (NetworkIF net : nets) {
                net.updateAttributes();
                n.put(net.getName(), new long[] {
                    net.getBytesRecv(), net.getBytesSent(), net.getPacketsRecv(), net.getPacketsSent()
                });
            }
        }
        if (lastScan == 0 || at - lastScan > RESCAN_NANOS) {
            rescan();
            lastScan = at;
        }
        if (processesAt == 0
                || at - processesAt >= processesEveryNanos
                || !processes.keySet().containsAll(trees.keySet())) {
            Map<String, Map<Integer, long[]>> p = new LinkedHashMap<>();
            seen.clear();
            watchedPids.forEach((name, pids) -> p.put(name, perPid(pids, false)));
            // JMeter's own JVM (not its tree: a bare-metal target is its child), as it competes for the same CPUs
            p.put(JVM_ROLE, perPid(List.of((int) loadGeneratorPid), false));
            // the targets' trees with their storage I/O (a database's write rate, study 000
            // (docs/studies.md#study-000))
            trees.forEach((role, pid) -> p.put(
                    role,
                    perPid(
                            Stream.concat(
                                            Stream.of(pid),
                                            ProcessHandle.of(pid)
                                                    .map(h -> h.descendants().map(ProcessHandle::pid))
                                                    .orElse(Stream.empty()))
                                    .map(Long::intValue)
                                    .toList(),
                            true)));
            if (linux) {
                procFs.retainProcesses(seen);
            }
            processes = p;
            processesAt = at;
        }
        Map<String, Map<Integer, long[]>> p = processes;
        long pAt = processesAt;
        if (linux) {
            // one read each of /proc/stat, meminfo and loadavg (OSHI reads /proc/stat twice and parses with Strings)
            try {
                long[] total = new long[8];
                long[][] cores = procFs.cpuTicks(total);
                long[] mem = new long[4];
                procFs.memory(mem);
                if (loadAt == 0 || at - loadAt >= LOAD_EVERY_NANOS) {
                    load = procFs.loadAverage();
                    loadAt = at;
                }
                return new HostSnapshot(at, total, cores, load, mem[0], mem[1], mem[2], mem[2] - mem[3], d, n, p, pAt);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return new HostSnapshot(
                at,
                cpu.getSystemCpuLoadTicks(),
                cpu.getProcessorCpuLoadTicks(),
                cpu.getSystemLoadAverage(3),
                memory.getTotal(),
                memory.getAvailable(),
                memory.getVirtualMemory().getSwapTotal(),
                memory.getVirtualMemory().getSwapUsed(),
                d,
                n,
                p,
                pAt);
    }

    /** Look for the watched processes again at the next reading (an environment started or stopped). */
    public void rescanSoon() {
        lastScan = 0;
        processesAt = 0;
    }

    /** Where host and process figures come from, as the metrics file names it: always the load generator's own machine. */
    public String source() {
        return linux ? "procfs of this host" : "OSHI of this host";
    }

    public int logicalCpus() {
        return cpu.getLogicalProcessorCount();
    }

    /** Finding processes by name walks all of /proc: done every few seconds, not every tick. */
    private void rescan() {
        Set<String> names = Set.copyOf(WATCHED);
        if (linux) {
            watchedPids = ProcFs.byName(names);
            return;
        }
        watchedPids = os
                .getProcesses(
                        proc -> names.contains(proc.getName()) || proc.getName().startsWith("containerd-shim"), null, 0)
                .stream()
                .collect(Collectors.groupingBy(
                        proc -> proc.getName().startsWith("containerd-shim") ? "containerd-shim" : proc.getName(),
                        LinkedHashMap::new,
                        Collectors.mapping(OSProcess::getProcessID, Collectors.toList())));
        for (String name : WATCHED) {
            watchedPids.putIfAbsent(name, new ArrayList<>());
        }
    }

    /**
     * PID -> {CPU ms, RSS bytes}, with {@code io} also {storage read bytes, storage write bytes}: rates are taken per PID,
     * so a process appearing between ticks adds no spike.
     */
    private Map<Integer, long[]> perPid(List<Integer> pids, boolean io) {
        Map<Integer, long[]> m = new LinkedHashMap<>();
        pids.forEach(pid -> {
            long[] v = linux ? procFs.process(pid) : null;
            if (v == null && !linux) {
                OSProcess proc = os.getProcess(pid);
                v = proc == null
                        ? null
                        : new long[] {proc.getKernelTime() + proc.getUserTime(), proc.getResidentSetSize()};
            }
            if (v != null && io && linux) {
                long[] rw = procFs.processIo(pid);
                if (rw != null) {
                    v = new long[] {v[0], v[1], rw[0], rw[1]};
                }
            }
            if (v != null) {
                m.put(pid, v);
            }
            seen.add((long) pid);
        });
        return m;
    }
}
