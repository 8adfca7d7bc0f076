package io.envbench.metrics;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The few Linux counters read on every tick straight from procfs, where going through OSHI costs
 * milliseconds (its disk and interface objects re-read udev and sysfs each update): one read of
 * /proc/diskstats, /proc/net/dev and /proc/PID/stat each. Elsewhere (not Linux) HostProbe uses OSHI.
 */
final class ProcFs {
    // one instance per HostProbe: it keeps its files open between ticks (not thread-safe)
    private static final Path PROC = Path.of("/proc");
    /** USER_HZ and page size on Linux x86-64/arm64. */
    private static final long MS_PER_TICK = 10;
    private static final long PAGE = 4096;

    private static final java.util.regex.Pattern SPACES = java.util.regex.Pattern.compile("\\s+");

    /** Whole disks are the entries of /sys/block; read once (disks are not hot-plugged mid-test). */
    private static final java.util.Set<String> WHOLE_DISKS = wholeDisks();


    private static java.util.Set<String> wholeDisks() {
        try (var s = Files.list(Path.of("/sys/block"))) {
            return s.map(p -> p.getFileName().toString()).collect(java.util.stream.Collectors.toSet());
        } catch (IOException e) {
            return java.util.Set.of();
        }
    }

    static boolean available() {
        return Files.isReadable(PROC.resolve("diskstats")) && Files.isReadable(PROC.resolve("net/dev"));
    }

    /** Whole disks (no partitions, loop or ram devices): name -> {read bytes, write bytes, busy ms}. */
    private PseudoFile diskstats;
    private PseudoFile netdev;
    private final OpenPerProcess<PseudoFile> stats = new OpenPerProcess<>(pid -> new PseudoFile(PROC.resolve(pid + "/stat")));

    Map<String, long[]> disks() throws IOException {
        if (diskstats == null) {
            diskstats = new PseudoFile(PROC.resolve("diskstats"));
        }
        Map<String, long[]> m = new LinkedHashMap<>();
        for (String line : diskstats.read().split("\n")) {
            String[] f = SPACES.split(line.trim());
            if (f.length < 13) {
                continue;
            }
            String name = f[2];
            if (name.startsWith("loop") || name.startsWith("ram") || !WHOLE_DISKS.contains(name)) {
                continue;
            }
            m.put(name, new long[] {Long.parseLong(f[5]) * 512, Long.parseLong(f[9]) * 512, Long.parseLong(f[12])});
        }
        return m;
    }

    /** Interfaces of the host's namespace: name -> {rx bytes, tx bytes, rx packets, tx packets}. */
    Map<String, long[]> nets() throws IOException {
        if (netdev == null) {
            netdev = new PseudoFile(PROC.resolve("net/dev"));
        }
        return netDev(java.util.List.of(netdev.read().split("\n")));
    }

    /** A net/dev file (the host's, or /proc/PID/net/dev for a process's namespace): name -> {rx, tx bytes, rx, tx packets}. */
    static Map<String, long[]> netDev(List<String> lines) {
        Map<String, long[]> m = new LinkedHashMap<>();
        for (String line : lines.subList(Math.min(2, lines.size()), lines.size())) {
            int colon = line.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String[] f = SPACES.split(line.substring(colon + 1).trim());
            m.put(line.substring(0, colon).trim(),
                    new long[] {Long.parseLong(f[0]), Long.parseLong(f[8]), Long.parseLong(f[1]), Long.parseLong(f[9])});
        }
        return m;
    }

    /** {CPU ms (user + system), RSS bytes} of a process, or null when it is gone. */
    long[] process(long pid) {
        try {
            String stat = stats.get(pid).read();
            // the command name may hold spaces and parentheses: fields start after the last ')'
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
            long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime, stime (fields 14, 15)
            return new long[] {ticks * MS_PER_TICK, Long.parseLong(f[21]) * PAGE}; // rss (field 24)
        } catch (IOException | RuntimeException e) {
            stats.forget(pid);
            return null;
        }
    }

    /**
     * PIDs by command name, from each process's {@code comm} (the kernel's 15-character name, so
     * containerd-shim-runc-v2 is "containerd-shim"). Far cheaper than building every process's details.
     */
    static Map<String, List<Integer>> byName(java.util.Set<String> names) {
        Map<String, List<Integer>> m = new LinkedHashMap<>();
        names.forEach(n -> m.put(n, new java.util.ArrayList<>()));
        try (var dirs = Files.newDirectoryStream(PROC)) {
            for (Path d : dirs) {
                String pid = d.getFileName().toString();
                if (pid.isEmpty() || !Character.isDigit(pid.charAt(0))) {
                    continue;
                }
                try {
                    String comm = Files.readString(d.resolve("comm")).trim();
                    List<Integer> list = m.get(comm);
                    if (list != null) {
                        list.add(Integer.parseInt(pid));
                    }
                } catch (IOException | NumberFormatException e) {
                    // the process ended while we looked
                }
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return m;
    }

    /** Closes the stat files of processes not in {@code pids}. */
    void retainProcesses(java.util.Set<Long> pids) {
        stats.retain(pids);
    }
}
