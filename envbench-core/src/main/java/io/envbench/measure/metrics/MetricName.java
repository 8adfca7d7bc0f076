package io.envbench.measure.metrics;

import java.util.List;
import java.util.regex.Pattern;

/**
 * The catalogue of metric names: every column a metrics file has, with its unit and meaning, spelled here and
 * nowhere else. The fixed names are the constants; the names made from a core, disk, interface, process or
 * container are the {@link Family} members, built by {@link Family#of}. The JMeter variables a sample carries
 * ({@code sample_variables} in the assembled JMeter's {@code user.properties}) are {@link #sampleVariable()}.
 */
public enum MetricName {
    HOST_CPU("host.cpu.pct", Unit.PERCENT_OF_MACHINE, "the host's CPUs busy (user, system, interrupts; not I/O wait)"),
    HOST_CPU_USER("host.cpu.user.pct", Unit.PERCENT_OF_MACHINE, "the host's CPUs in user mode (nice included)"),
    HOST_CPU_SYSTEM(
            "host.cpu.system.pct", Unit.PERCENT_OF_MACHINE, "the host's CPUs in the kernel (interrupts included)"),
    HOST_CPU_IOWAIT(
            "host.cpu.iowait.pct", Unit.PERCENT_OF_MACHINE, "the host's CPUs idle while a disk read or write waits"),
    HOST_CPU_STEAL("host.cpu.steal.pct", Unit.PERCENT_OF_MACHINE, "the host's CPUs taken by the hypervisor"),
    HOST_CPU_IRQ(
            "host.cpu.irq.pct",
            Unit.PERCENT_OF_MACHINE,
            "the host's CPUs serving interrupts, hard and soft (a NIC's receive processing among them; part of system)"),
    HOST_LOAD1("host.load1", Unit.COUNT, "the host's load average over a minute"),
    HOST_MEM_USED("host.mem.used.bytes", Unit.BYTES, "the host's memory in use (total less available)"),
    HOST_MEM_AVAILABLE("host.mem.available.bytes", Unit.BYTES, "the host's memory available"),
    HOST_SWAP_USED("host.swap.used.bytes", Unit.BYTES, "the host's swap in use"),
    TARGET_CPU(
            "target.cpu.pct",
            Unit.PERCENT_OF_CORE,
            "the measured environment's CPU: its container's, else its host process's"),
    TARGET_MEM(
            "target.mem.bytes",
            Unit.BYTES,
            "the measured environment's memory: its container's, else its host process's resident set");

    /** What a figure counts. */
    public enum Unit {
        /** The whole machine is 100. */
        PERCENT_OF_MACHINE("%"),
        /** One core is 100 (a process on two cores shows 200). */
        PERCENT_OF_CORE("% of a core"),
        PERCENT("%"),
        BYTES("bytes"),
        BYTES_PER_SECOND("bytes/s"),
        PACKETS_PER_SECOND("packets/s"),
        MILLISECONDS("ms"),
        COUNT("");

        private final String symbol;

        Unit(String symbol) {
            this.symbol = symbol;
        }

        public String symbol() {
            return symbol;
        }
    }

    /**
     * The names made from something the machine has: a core, a disk, a network interface, a watched process, an
     * environment's container. Each member is {@code prefix + name + "." + member}.
     */
    public enum Family {
        CORE("host.cpu", "host CPU core N: busy", Unit.PERCENT),
        DISK("host.disk.", "host disk D: read and written bytes/s, busy %", Unit.BYTES_PER_SECOND),
        NET("host.net.", "host interface I: received and sent bytes/s and packets/s", Unit.BYTES_PER_SECOND),
        PROCESS(
                "process.",
                "a watched host process (JMeter, docker-proxy, a bare-metal target): CPU, memory, I/O",
                Unit.PERCENT_OF_CORE),
        CONTAINER(
                "container.",
                "an environment's container: CPU, throttling, memory, block I/O, network, PIDs",
                Unit.PERCENT_OF_CORE);

        private final String prefix;
        private final String meaning;
        private final Unit mainUnit;

        Family(String prefix, String meaning, Unit mainUnit) {
            this.prefix = prefix;
            this.meaning = meaning;
            this.mainUnit = mainUnit;
        }

        /** The name of {@code member} of the family's {@code name}: {@code of("docker-proxy", "cpu.pct")}. */
        public String of(String name, String member) {
            return prefix + name + "." + member;
        }

        /** Matches (whole) the column {@code member} of any of the family's names; group 1 is the name. */
        public Pattern any(String member) {
            return Pattern.compile(
                    Pattern.quote(prefix) + (this == CORE ? "(\\d+)" : "(.+)") + "\\." + Pattern.quote(member));
        }

        /** Whether a metrics-file column belongs to this family. */
        public boolean has(String column) {
            return column.startsWith(prefix)
                    && (this != CORE
                            || column.length() > prefix.length() && Character.isDigit(column.charAt(prefix.length())));
        }

        public String prefix() {
            return prefix;
        }

        public String meaning() {
            return meaning;
        }

        /** The unit of its CPU (or, for disks and interfaces, its byte rate) member. */
        public Unit mainUnit() {
            return mainUnit;
        }
    }

    /** The figures of a process and of a container that reports compare. */
    public static final String CPU_PCT = "cpu.pct";

    public static final String RSS_BYTES = "rss.bytes";
    public static final String MEM_BYTES = "mem.bytes";
    public static final String MEM_LIMIT_BYTES = "mem.limit.bytes";
    public static final String CPU_THROTTLED_PCT = "cpu.throttled.pct";
    /**
     * A core's time serving interrupts, hard and soft, in % of that core: where interrupt steering moves a NIC's
     * receive processing ({@code host.cpu1.irq.pct}).
     */
    public static final String IRQ_PCT = "irq.pct";

    /** The CPU of Docker's userland port-mapping proxy, a watched host process. */
    public static final String DOCKER_PROXY_CPU = Family.PROCESS.of(HostProbe.DOCKER_PROXY, CPU_PCT);
    /** The CPU of the JMeter that makes the load, a watched host process. */
    public static final String JMETER_CPU = Family.PROCESS.of(HostProbe.JVM_ROLE, CPU_PCT);

    /** Prefix of the JMeter variables a sample carries a figure in. */
    static final String VARIABLE_PREFIX = "envbench.";

    private final String column;
    private final Unit unit;
    private final String meaning;

    MetricName(String column, Unit unit, String meaning) {
        this.column = column;
        this.unit = unit;
        this.meaning = meaning;
    }

    /** The metrics file's column, e.g. {@code host.cpu.pct}. */
    public String column() {
        return column;
    }

    public Unit unit() {
        return unit;
    }

    public String meaning() {
        return meaning;
    }

    /** The JMeter variable a sample carries this figure in, e.g. {@code envbench.host.cpu.pct}. */
    public String sampleVariable() {
        return VARIABLE_PREFIX + column;
    }

    /** The figures every sample carries (the Resource Monitor sets them; {@code user.properties} saves them). */
    public static List<MetricName> perSample() {
        return List.of(HOST_CPU, TARGET_CPU, TARGET_MEM);
    }
}
