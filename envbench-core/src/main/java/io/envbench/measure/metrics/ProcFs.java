package io.envbench.measure.metrics;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import net.jcip.annotations.NotThreadSafe;

/**
 * The few Linux counters read on every tick straight from procfs, where going through OSHI costs
 * milliseconds (its disk and interface objects re-read udev and sysfs each update): one read of
 * /proc/diskstats, /proc/net/dev and /proc/PID/stat each. Elsewhere (not Linux) HostProbe uses OSHI.
 */
@NotThreadSafe
final class ProcFs {
    // one instance per HostProbe: it keeps its files open between ticks (not thread-safe)
    private static final Path PROC = Path.of("/proc");
    /** USER_HZ and page size on Linux x86-64/arm64. */
    private static final long MS_PER_TICK = 10;

    private static final long PAGE = 4096;

    /** Whole disks are the entries of /sys/block; read once (disks are not hot-plugged mid-test). */
    private static final Set<String> WHOLE_DISKS = wholeDisks();

    private static Set<String> wholeDisks() {
        try (var s = Files.list(Path.of("/sys/block"))) {
            return s.map(p -> p.getFileName().toString()).collect(Collectors.toSet());
        } catch (IOException e) {
            return Set.of();
        }
    }

    static boolean available() {
        return Files.isReadable(PROC.resolve("diskstats")) && Files.isReadable(PROC.resolve("net/dev"));
    }

    private PseudoFile diskstats;
    private PseudoFile netdev;
    private PseudoFile stat;
    private PseudoFile meminfo;
    private PseudoFile loadavg;
    private final OpenPerProcess<PseudoFile> stats =
            new OpenPerProcess<>(pid -> new PseudoFile(PROC.resolve(pid + "/stat")));
    private final OpenPerProcess<PseudoFile> ios =
            new OpenPerProcess<>(pid -> new PseudoFile(PROC.resolve(pid + "/io")));
    private static final byte[][] IO = {Ascii.bytes("read_bytes:"), Ascii.bytes("write_bytes:")};
    /** Names seen in diskstats and net/dev, kept as Strings once (not one String per line per tick). */
    private final Map<String, String> names = new HashMap<>();

    private final long[] fields = new long[14];

    private String name(byte[] b, int from, int to) {
        for (Map.Entry<String, String> e : names.entrySet()) {
            if (Ascii.equals(b, from, to, e.getKey())) {
                return e.getValue();
            }
        }
        String n = new String(b, from, to - from, StandardCharsets.ISO_8859_1);
        names.put(n, n);
        return n;
    }

    /** Whole disks (no partitions, loop or ram devices): name -> {read bytes, write bytes, busy ms}. */
    Map<String, long[]> disks() throws IOException {
        if (diskstats == null) {
            diskstats = new PseudoFile(PROC.resolve("diskstats"));
        }
        Map<String, long[]> m = new LinkedHashMap<>();
        int end = diskstats.fill();
        byte[] b = diskstats.bytes();
        // "   8       0 sda 1 2 3 4 5 6 7 8 9 10 ...": major, minor, name, then the counters
        for (int i = 0; i < end; i = Ascii.nextLine(b, i, end)) {
            int p = Ascii.skipDigits(b, Ascii.skipBlanks(b, i, end), end);
            p = Ascii.skipDigits(b, Ascii.skipBlanks(b, p, end), end);
            int from = Ascii.skipBlanks(b, p, end);
            int to = from;
            while (to < end && b[to] != ' ' && b[to] != '\n') {
                to++;
            }
            if (to == from) {
                continue;
            }
            String name = name(b, from, to);
            if (name.startsWith("loop") || name.startsWith("ram") || !WHOLE_DISKS.contains(name)) {
                continue;
            }
            p = to;
            for (int f = 0; f < 10; f++) {
                p = Ascii.skipBlanks(b, p, end);
                fields[f] = Ascii.longAt(b, p, end);
                p = Ascii.skipDigits(b, p, end);
            }
            // sectors read (field 6 of the line), sectors written (10), ms doing I/O (13)
            m.put(name, new long[] {fields[2] * 512, fields[6] * 512, fields[9]});
        }
        return m;
    }

    /** Interfaces of the host's namespace: name -> {rx bytes, tx bytes, rx packets, tx packets}. */
    Map<String, long[]> nets() throws IOException {
        if (netdev == null) {
            netdev = new PseudoFile(PROC.resolve("net/dev"));
        }
        Map<String, long[]> m = new LinkedHashMap<>();
        int end = netdev.fill();
        byte[] b = netdev.bytes();
        for (int i = Ascii.nextLine(b, Ascii.nextLine(b, 0, end), end); i < end; i = Ascii.nextLine(b, i, end)) {
            int from = Ascii.skipBlanks(b, i, end);
            int colon = from;
            while (colon < end && b[colon] != ':' && b[colon] != '\n') {
                colon++;
            }
            if (colon >= end || b[colon] != ':') {
                continue;
            }
            int p = colon + 1;
            for (int f = 0; f < 10; f++) {
                p = Ascii.skipBlanks(b, p, end);
                fields[f] = Ascii.longAt(b, p, end);
                p = Ascii.skipDigits(b, p, end);
            }
            m.put(name(b, from, colon), new long[] {fields[0], fields[8], fields[1], fields[9]});
        }
        return m;
    }

    /**
     * CPU ticks from one read of /proc/stat: the "cpu" line into {@code total} and each "cpuN" line as a row of
     * the result, in /proc/stat's order (user, nice, system, idle, iowait, irq, softirq, steal), as OSHI's TickType.
     */
    long[][] cpuTicks(long[] total) throws IOException {
        if (stat == null) {
            stat = new PseudoFile(PROC.resolve("stat"));
        }
        int end = stat.fill();
        byte[] b = stat.bytes();
        List<long[]> cores = new ArrayList<>();
        for (int i = 0; i < end; ) {
            if (end - i > 3 && b[i] == 'c' && b[i + 1] == 'p' && b[i + 2] == 'u') {
                if (b[i + 3] == ' ') {
                    i = Ascii.numbersAfterWord(b, i, end, total, 8);
                } else {
                    long[] core = new long[8];
                    cores.add(core);
                    i = Ascii.numbersAfterWord(b, i, end, core, 8);
                }
            } else {
                i = Ascii.nextLine(b, i, end);
            }
        }
        return cores.toArray(new long[0][]);
    }

    private static final byte[][] MEMINFO = {
        Ascii.bytes("MemTotal:"), Ascii.bytes("MemAvailable:"), Ascii.bytes("SwapTotal:"), Ascii.bytes("SwapFree:")
    };

    /** {total, available, swap total, swap free} in bytes from /proc/meminfo (which counts in kB). */
    void memory(long[] out) throws IOException {
        if (meminfo == null) {
            meminfo = new PseudoFile(PROC.resolve("meminfo"));
        }
        int meminfoLength = meminfo.fill();
        Ascii.counters(meminfo.bytes(), meminfoLength, MEMINFO, out);
        for (int k = 0; k < out.length; k++) {
            out[k] = Math.max(0, out[k]) * 1024;
        }
    }

    private double[] load;
    private long loadAt;

    /** The 1, 5 and 15 minute load averages from /proc/loadavg (the kernel updates them every 5 s: read once a second). */
    double[] loadAverage() throws IOException {
        long now = System.nanoTime();
        if (load == null || now - loadAt >= 1_000_000_000L) {
            if (loadavg == null) {
                loadavg = new PseudoFile(PROC.resolve("loadavg"));
            }
            String[] f = loadavg.read().trim().split(" ", 4);
            load = new double[] {Double.parseDouble(f[0]), Double.parseDouble(f[1]), Double.parseDouble(f[2])};
            loadAt = now;
        }
        return load;
    }

    /** {CPU ms (user + system), RSS bytes} of a process, or null when it is gone. */
    long[] process(long pid) {
        try {
            PseudoFile f = stats.get(pid);
            int end = f.fill();
            byte[] b = f.bytes();
            // the command name may hold spaces and parentheses: fields start after the last ')'
            int p = end - 1;
            while (p >= 0 && b[p] != ')') {
                p--;
            }
            if (p < 0) {
                throw new IOException("no command name in /proc/" + pid + "/stat");
            }
            p += 2; // ") " then field 3 (state)
            long utime = 0;
            long stime = 0;
            long rss = 0;
            // field 3 is the state letter; fields 14, 15 utime, stime; field 24 rss (pages)
            for (int field = 3; field <= 24 && p < end; field++) {
                p = Ascii.skipBlanks(b, p, end);
                if (field == 14) {
                    utime = Ascii.longAt(b, p, end);
                } else if (field == 15) {
                    stime = Ascii.longAt(b, p, end);
                } else if (field == 24) {
                    rss = Ascii.longAt(b, p, end);
                }
                while (p < end && b[p] != ' ' && b[p] != '\n') {
                    p++;
                }
            }
            return new long[] {(utime + stime) * MS_PER_TICK, rss * PAGE};
        } catch (IOException | RuntimeException e) {
            stats.forget(pid);
            return null;
        }
    }

    /**
     * {read bytes, write bytes} a process caused to be fetched from or sent to storage ({@code /proc/PID/io}'s
     * {@code read_bytes} and {@code write_bytes}: counted when a page is read in or dirtied, so a buffered write counts
     * for the process that made it, in a container too), or null when it is gone or unreadable (another user's process
     * without root).
     */
    long[] processIo(long pid) {
        try {
            PseudoFile f = ios.get(pid);
            long[] v = new long[2];
            int fLength = f.fill();
            Ascii.counters(f.bytes(), fLength, IO, v);
            return v[0] < 0 || v[1] < 0 ? null : v;
        } catch (IOException | RuntimeException e) {
            ios.forget(pid);
            return null;
        }
    }

    /**
     * PIDs by command name, from each process's {@code comm} (the kernel's 15-character name, so
     * containerd-shim-runc-v2 is "containerd-shim"). Far cheaper than building every process's details.
     */
    static Map<String, List<Integer>> byName(Set<String> names) {
        Map<String, List<Integer>> m = new LinkedHashMap<>();
        names.forEach(n -> m.put(n, new ArrayList<>()));
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
            throw new UncheckedIOException(e);
        }
        return m;
    }

    /** Closes the stat files of processes not in {@code pids}. */
    void retainProcesses(Set<Long> pids) {
        stats.retain(pids);
        ios.retain(pids);
    }
}
