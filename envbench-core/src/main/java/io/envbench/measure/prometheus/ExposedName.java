package io.envbench.measure.prometheus;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;

import io.envbench.measure.metrics.HostProbe;
import io.envbench.measure.metrics.MetricName;
import io.envbench.measure.metrics.MetricName.Family;
import net.jcip.annotations.Immutable;

/**
 * A metrics-file column as Prometheus names it: {@code host.cpu.pct} is {@code envbench_host_cpu_percent},
 * {@code container.docker.mem.bytes} is {@code envbench_container_mem_bytes{environment="docker"}}. The unit ends the
 * name, in Prometheus's base units (a rate per second, milliseconds as seconds: {@link #scale}); what a column is made
 * from (a core, a disk, an interface, a process, an environment) becomes a label, so one name is one kind of figure.
 * The columns themselves come from core's catalogue ({@link MetricName}); only their spelling for Prometheus is here.
 *
 * @param name   the Prometheus metric name
 * @param labels label name to value, in a fixed order per name
 * @param scale  what a file value is multiplied by (0.001 for milliseconds, else 1)
 * @param help   what it means, from the catalogue
 */
@Immutable
public record ExposedName(String name, Map<String, String> labels, double scale, String help) {
    /** Every name starts so: one prefix to find them all in Prometheus and Grafana. */
    public static final String PREFIX = "envbench_";

    public static final String ENVIRONMENT = "environment";

    public ExposedName {
        labels = Collections.unmodifiableMap(new LinkedHashMap<>(labels));
    }

    /**
     * The Prometheus name of a column of a tick.
     *
     * @param column              a metrics-file column, e.g. {@code host.disk.sda.read.bytesPerSec}
     * @param runningEnvironments the tick's environments (comma-separated, "none"): the environment of the
     *                            {@code target.*} columns, which exist only when exactly one runs
     */
    public static ExposedName of(String column, String runningEnvironments) {
        Matcher core = Family.CORE.any("pct").matcher(column);
        if (core.matches()) {
            return new ExposedName(
                    PREFIX + "host_cpu_core_percent", Map.of("core", core.group(1)), 1, Family.CORE.meaning());
        }
        Matcher coreIrq = Family.CORE.any(MetricName.IRQ_PCT).matcher(column);
        if (coreIrq.matches()) {
            return new ExposedName(
                    PREFIX + "host_cpu_core_irq_percent",
                    Map.of("core", coreIrq.group(1)),
                    1,
                    "host CPU core N: serving interrupts, hard and soft");
        }
        for (Family f : List.of(Family.DISK, Family.NET, Family.CONTAINER, Family.PROCESS)) {
            if (f.has(column)) {
                return ofFamily(f, column.substring(f.prefix().length()));
            }
        }
        for (MetricName m : MetricName.values()) {
            if (m.column().equals(column)) {
                Map<String, String> labels =
                        column.startsWith(TARGET) ? Map.of(ENVIRONMENT, runningEnvironments) : Map.of();
                return plain(column, labels, m.meaning());
            }
        }
        return plain(column, Map.of(), "EnvBench metric " + column);
    }

    private static final String TARGET = "target.";

    /** A family's column, {@code NAME.member}; a name may hold dots (a disk or interface name rarely does). */
    private static ExposedName ofFamily(Family f, String nameAndMember) {
        String member = memberOf(f, nameAndMember);
        String owner = nameAndMember.substring(0, nameAndMember.length() - member.length() - 1);
        Spelled m = spell(member);
        return switch (f) {
            case DISK -> new ExposedName(PREFIX + "host_disk_" + m.name, Map.of("disk", owner), m.scale, f.meaning());
            case NET ->
                new ExposedName(PREFIX + "host_net_" + m.name, Map.of("interface", owner), m.scale, f.meaning());
            case CONTAINER ->
                new ExposedName(
                        PREFIX + "container_" + m.name,
                        Map.of(ENVIRONMENT, owner),
                        m.scale,
                        "an environment's container: " + member);
            case PROCESS -> process(owner, member, m);
            case CORE -> throw new IllegalArgumentException(nameAndMember); // matched before
        };
    }

    /**
     * JMeter and Docker's own processes are named by their role; every other process tree is an environment's (a
     * bare-metal target) or one service of one ({@code ENV/SERVICE}), labelled with its environment.
     */
    private static ExposedName process(String owner, String member, Spelled m) {
        if (owner.equals(HostProbe.JVM_ROLE) || HostProbe.WATCHED.contains(owner)) {
            return new ExposedName(
                    PREFIX + "process_" + m.name,
                    Map.of("process", owner),
                    m.scale,
                    "a watched host process (JMeter, dockerd, containerd-shim, docker-proxy): " + member);
        }
        int slash = owner.indexOf('/');
        if (slash < 0) {
            return new ExposedName(
                    PREFIX + "target_process_" + m.name,
                    Map.of(ENVIRONMENT, owner),
                    m.scale,
                    "a bare-metal environment's process tree: " + member);
        }
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(ENVIRONMENT, owner.substring(0, slash));
        labels.put("service", owner.substring(slash + 1));
        return new ExposedName(
                PREFIX + "service_process_" + m.name,
                labels,
                m.scale,
                "one service's process tree of a multi-service environment: " + member);
    }

    /** The members the collector writes (Metrics), longest first, so {@code cpu.throttled.pct} is not {@code pct}. */
    public static final List<String> MEMBERS = List.of(
            "io.read.bytesPerSec",
            "io.write.bytesPerSec",
            "blk.read.bytesPerSec",
            "blk.write.bytesPerSec",
            "net.rx.bytesPerSec",
            "net.tx.bytesPerSec",
            "cpu.throttled.periods",
            "cpu.throttled.pct",
            "cpu.throttled.ms",
            "cpu.cpuset.pct",
            "mem.limit.bytes",
            "read.bytesPerSec",
            "write.bytesPerSec",
            "rx.bytesPerSec",
            "tx.bytesPerSec",
            "rx.packetsPerSec",
            "tx.packetsPerSec",
            "busy.pct",
            "cpu.pct",
            "rss.bytes",
            "mem.bytes",
            "pids");

    private static String memberOf(Family f, String nameAndMember) {
        for (String m : MEMBERS) {
            if (nameAndMember.endsWith("." + m) && nameAndMember.length() > m.length() + 1) {
                return m;
            }
        }
        // a member written after this list: the last dot parts that follow the name's first part
        int dot = nameAndMember.indexOf('.');
        if (dot <= 0 || dot == nameAndMember.length() - 1) {
            throw new IllegalArgumentException(f.prefix() + nameAndMember + " has no member after its name");
        }
        return nameAndMember.substring(dot + 1);
    }

    private static ExposedName plain(String column, Map<String, String> labels, String help) {
        Spelled s = spell(column);
        return new ExposedName(PREFIX + s.name, labels, s.scale, help);
    }

    private record Spelled(String name, double scale) {}

    /** {@code cpu.throttled.ms} is {@code cpu_throttled_seconds} times 0.001; {@code rx.bytesPerSec} {@code rx_bytes_per_second}. */
    private static Spelled spell(String dotted) {
        List<String> parts = new ArrayList<>();
        double scale = 1;
        for (String part : dotted.split("\\.")) {
            switch (part) {
                case "pct" -> parts.add("percent");
                case "bytesPerSec" -> parts.add("bytes_per_second");
                case "packetsPerSec" -> parts.add("packets_per_second");
                case "ms" -> {
                    parts.add("seconds");
                    scale = 0.001;
                }
                default ->
                    parts.add(part.replaceAll("([a-z0-9])([A-Z])", "$1_$2")
                            .toLowerCase(Locale.ROOT)
                            .replaceAll("[^a-z0-9_]", "_"));
            }
        }
        return new Spelled(String.join("_", parts), scale);
    }
}
