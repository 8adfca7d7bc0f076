package io.envbench.base.environment;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import net.jcip.annotations.Immutable;

/**
 * Who owns an EnvBench resource: the owner process's host and the process itself, told apart from any
 * other process that has, or later gets, the same PID. A PID alone lies: a JMeter in its own PID
 * namespace (a container, many CI jobs) is PID 1 forever, and PIDs are reused. Written as labels by
 * {@link RunSession#labels} and read back by {@link LeftoverCheck}. Immutable.
 *
 * @param hostname     the kernel's host name (a container's is its own)
 * @param machineId    {@code /etc/machine-id}, or empty where there is none (many containers, non-Linux)
 * @param bootId       {@code /proc/sys/kernel/random/boot_id}: a different one on the same machine means a reboot since
 * @param pidNamespace inode of {@code /proc/self/ns/pid}, empty off Linux: a PID means something only inside it
 * @param pid          the owner process's PID in that namespace
 * @param startTicks   the process's start in clock ticks since boot ({@code /proc/PID/stat} field 22), -1 off Linux:
 *                     exact, unlike an instant derived from the boot time, which can differ by a second between readers
 * @param startedEpochMs the process's start as an instant, -1 when unknown: the fallback off Linux
 */
@Immutable
public record OwnerIdentity(
        String hostname,
        String machineId,
        String bootId,
        String pidNamespace,
        long pid,
        long startTicks,
        long startedEpochMs) {
    public static final String LABEL_HOST = "io.envbench.owner-host";
    public static final String LABEL_MACHINE_ID = "io.envbench.owner-machine-id";
    public static final String LABEL_BOOT_ID = "io.envbench.owner-boot-id";
    public static final String LABEL_PID_NAMESPACE = "io.envbench.owner-pid-ns";
    public static final String LABEL_PID = RunSession.LABEL_OWNER_PID;
    public static final String LABEL_START_TICKS = "io.envbench.owner-start-ticks";
    public static final String LABEL_STARTED = "io.envbench.owner-started-ms";

    private static final Path PROC = Path.of("/proc");

    /** This process; read once, since none of it changes while the process lives. */
    public static OwnerIdentity current() {
        return Current.IDENTITY;
    }

    private static final class Current {
        static final OwnerIdentity IDENTITY = read();

        private static OwnerIdentity read() {
            ProcessHandle self = ProcessHandle.current();
            String ns = "";
            try {
                ns = inode(Files.readSymbolicLink(PROC.resolve("self/ns/pid")).toString());
            } catch (IOException | UnsupportedOperationException | SecurityException e) {
                // not Linux, or /proc hidden: the PID namespace stays unknown
            }
            return new OwnerIdentity(
                    kernelHostname(),
                    firstLine(Path.of("/etc/machine-id")),
                    firstLine(PROC.resolve("sys/kernel/random/boot_id")),
                    ns,
                    self.pid(),
                    startTicks(self.pid()).orElse(-1L),
                    self.info().startInstant().map(Instant::toEpochMilli).orElse(-1L));
        }
    }

    /**
     * This owner's short name in what it creates (container, network and state-file names, the run label): eight hex
     * digits of a digest of who it is. The same process always gets the same one, and another process, also one that
     * reuses this PID later, its own; nothing random is kept beside the identity.
     */
    public String runId() {
        String who = String.join(
                "\n",
                hostname,
                machineId,
                bootId,
                pidNamespace,
                Long.toString(pid),
                Long.toString(startTicks),
                Long.toString(startedEpochMs));
        return UUID.nameUUIDFromBytes(who.getBytes(StandardCharsets.UTF_8))
                .toString()
                .substring(0, 8);
    }

    /** The labels that name this owner; empty values are left out. */
    public Map<String, String> labels() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(LABEL_HOST, hostname);
        m.put(LABEL_MACHINE_ID, machineId);
        m.put(LABEL_BOOT_ID, bootId);
        m.put(LABEL_PID_NAMESPACE, pidNamespace);
        m.put(LABEL_PID, Long.toString(pid));
        m.put(LABEL_START_TICKS, startTicks < 0 ? "" : Long.toString(startTicks));
        m.put(LABEL_STARTED, startedEpochMs < 0 ? "" : Long.toString(startedEpochMs));
        m.values().removeIf(String::isEmpty);
        return m;
    }

    /**
     * The owner a resource's labels name, when they carry the owner's host and start (labels written since
     * owner identity exists); empty for older labels with only {@code owner-pid}.
     */
    public static Optional<OwnerIdentity> fromLabels(Map<String, String> labels) {
        if (labels == null
                || !labels.containsKey(LABEL_HOST)
                || !labels.containsKey(LABEL_START_TICKS) && !labels.containsKey(LABEL_STARTED)) {
            return Optional.empty();
        }
        try {
            return Optional.of(new OwnerIdentity(
                    labels.get(LABEL_HOST),
                    labels.getOrDefault(LABEL_MACHINE_ID, ""),
                    labels.getOrDefault(LABEL_BOOT_ID, ""),
                    labels.getOrDefault(LABEL_PID_NAMESPACE, ""),
                    Long.parseLong(labels.getOrDefault(LABEL_PID, "")),
                    number(labels.get(LABEL_START_TICKS)),
                    number(labels.get(LABEL_STARTED))));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** The start of process {@code pid} in clock ticks since boot, as this process's /proc shows it. */
    public static Optional<Long> startTicks(long pid) {
        return startTicks(PROC, pid);
    }

    /** The start of process {@code pid} in clock ticks since boot, as the procfs tree at {@code procRoot} shows it. */
    public static Optional<Long> startTicks(Path procRoot, long pid) {
        try {
            String stat = Files.readString(procRoot.resolve(pid + "/stat"));
            // the command name (field 2) is in parentheses and may hold spaces; field 22 is the 20th after it
            String[] after = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Optional.of(Long.parseLong(after[19]));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * Whether the process has exited but its parent has not collected it yet (state {@code Z} in
     * {@code /proc/PID/stat}). Java's {@link ProcessHandle#isAlive} calls such a zombie alive; for an owner
     * it is as gone as a process can be. False off Linux or when the process is not there.
     */
    public static boolean isZombie(long pid) {
        try {
            String stat = Files.readString(PROC.resolve(pid + "/stat"));
            return stat.startsWith("Z", stat.lastIndexOf(')') + 2);
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    private static long number(String s) {
        return s == null || s.isEmpty() ? -1 : Long.parseLong(s);
    }

    static String inode(String nsLink) {
        // "pid:[4026531836]" -> "4026531836"
        int open = nsLink.indexOf('[');
        int close = nsLink.indexOf(']');
        return open >= 0 && close > open ? nsLink.substring(open + 1, close) : nsLink;
    }

    private static String kernelHostname() {
        String kernel = firstLine(PROC.resolve("sys/kernel/hostname"));
        if (!kernel.isEmpty()) {
            return kernel;
        }
        for (String env : new String[] {"HOSTNAME", "COMPUTERNAME"}) {
            String v = System.getenv(env);
            if (v != null && !v.isBlank()) {
                return v.strip();
            }
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static String firstLine(Path file) {
        try {
            return Files.readAllLines(file).stream().findFirst().orElse("").strip();
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }
}
