package io.envbench.base.units;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.List;

import io.envbench.base.settings.InvalidSettingException;
import net.jcip.annotations.Immutable;

/**
 * A set of CPU numbers written as Linux/Docker write them ({@code 0-3,6}), checked against the CPUs
 * this host has online; also read and written as the kernel's hexadecimal masks ({@link #toHexMask}). Never empty.
 * Immutable.
 */
@Immutable
public final class CpuSet {
    /**
     * The highest CPU number a list may name: Linux's largest {@code NR_CPUS} is 8192. A bound, so that a typo such
     * as {@code 0-2147483647} is refused at once instead of expanding to two billion CPUs.
     */
    public static final int MAX_CPU = 8191;

    private final BitSet cpus;
    private final String text;

    private CpuSet(BitSet cpus, String text) {
        this.cpus = cpus;
        this.text = text;
    }

    /** CPUs online on this host, read from {@code /sys/devices/system/cpu/online}. */
    public static CpuSet online() {
        return online(Path.of("/sys"));
    }

    /**
     * CPUs online as the sysfs tree at {@code sysRoot} says ({@code devices/system/cpu/online}); this JVM's processor
     * count when the file cannot be read.
     */
    public static CpuSet online(Path sysRoot) {
        try {
            String list = Files.readString(sysRoot.resolve("devices/system/cpu/online"))
                    .trim();
            return parseList("online CPUs", list);
        } catch (IOException e) {
            int n = Runtime.getRuntime().availableProcessors();
            return parseList("online CPUs", n == 1 ? "0" : "0-" + (n - 1));
        }
    }

    /** Parses a list without checking it against the host. */
    public static CpuSet parseList(String field, String text) {
        String t = text == null ? "" : text.replace(" ", "");
        if (t.isEmpty()) {
            throw new InvalidSettingException(field, "is empty; give CPU numbers like 0 or 0-1 or 0,2");
        }
        BitSet set = new BitSet();
        for (String part : t.split(",", -1)) {
            String[] range = part.split("-", -1);
            try {
                if (range.length == 1) {
                    set.set(cpuNumber(field, range[0]));
                } else if (range.length == 2) {
                    int from = cpuNumber(field, range[0]);
                    int to = cpuNumber(field, range[1]);
                    if (to < from) {
                        throw new InvalidSettingException(
                                field, "range '" + part + "' runs backwards; write it low-high, e.g. 0-1");
                    }
                    set.set(from, to + 1);
                } else {
                    throw new NumberFormatException(part);
                }
            } catch (NumberFormatException e) {
                throw new InvalidSettingException(
                        field, "'" + text + "' is not a CPU list; write CPU numbers like 0 or 0-1 or 0,2");
            }
        }
        return new CpuSet(set, t);
    }

    /** One CPU number, 0 to {@link #MAX_CPU}; digits only (no sign, no spaces, no other scripts' digits). */
    private static int cpuNumber(String field, String digits) {
        if (!digits.matches("[0-9]+")) {
            throw new NumberFormatException(digits);
        }
        if (digits.length() > 9 || Integer.parseInt(digits) > MAX_CPU) {
            throw new InvalidSettingException(
                    field,
                    "CPU " + digits + " is beyond the largest CPU number Linux supports (" + MAX_CPU
                            + "); use CPUs this host has online (" + online().text + ")");
        }
        return Integer.parseInt(digits);
    }

    /** Parses a list and checks every CPU in it is online on this host. */
    public static CpuSet parseForHost(String field, String text) {
        return parseList(field, text).requireWithin(field, online());
    }

    /**
     * This set, when every CPU in it is in {@code online}.
     *
     * @throws InvalidSettingException naming {@code field}, the CPUs that are not online and the online ones
     */
    public CpuSet requireWithin(String field, CpuSet online) {
        BitSet missing = (BitSet) cpus.clone();
        missing.andNot(online.cpus);
        if (!missing.isEmpty()) {
            throw new InvalidSettingException(
                    field,
                    "CPU " + ranges(missing) + " does not exist on this host (online CPUs: " + online.text
                            + "); use CPUs within " + online.text);
        }
        return this;
    }

    /**
     * Parses a CPU mask in hexadecimal as the kernel writes {@code rps_cpus} and {@code smp_affinity}: bit N is CPU N,
     * comma-separated 32-bit groups with the highest first ({@code 3}, {@code 00000000,00000003}).
     *
     * @throws InvalidSettingException naming {@code field} when it is not such a mask or names no CPU
     */
    public static CpuSet parseHexMask(String field, String mask) {
        String t = mask == null ? "" : mask.strip();
        if (!t.matches("[0-9a-fA-F]{1,8}(,[0-9a-fA-F]{1,8})*")) {
            throw new InvalidSettingException(
                    field,
                    "'" + mask + "' is not a CPU mask; write hexadecimal groups of up to 8 digits, "
                            + "highest first, separated by commas, e.g. 3 or 00000000,00000003");
        }
        String[] groups = t.split(",");
        if ((long) groups.length * 32 > MAX_CPU + 1) {
            throw new InvalidSettingException(
                    field, "mask '" + mask + "' is longer than Linux's largest CPU number (" + MAX_CPU + ") allows");
        }
        BitSet set = new BitSet();
        for (int g = 0; g < groups.length; g++) {
            long word = Long.parseLong(groups[groups.length - 1 - g], 16);
            for (int bit = 0; bit < 32; bit++) {
                if ((word >>> bit & 1) != 0) {
                    set.set(g * 32 + bit);
                }
            }
        }
        if (set.isEmpty()) {
            throw new InvalidSettingException(
                    field, "mask '" + mask + "' names no CPU; give at least one, e.g. 1 for CPU 0");
        }
        return new CpuSet(set, ranges(set));
    }

    /**
     * The set as a hexadecimal mask the kernel reads ({@code rps_cpus}, {@code smp_affinity}): 32-bit groups, highest
     * first, separated by commas, the highest without leading zeros ({@code {0,1}} is {@code 3}, {@code {0,33}} is
     * {@code 2,00000001}).
     */
    public String toHexMask() {
        int groups = Math.max(1, (cpus.length() + 31) / 32);
        StringBuilder s = new StringBuilder();
        for (int g = groups - 1; g >= 0; g--) {
            long word = 0;
            for (int bit = 0; bit < 32; bit++) {
                if (cpus.get(g * 32 + bit)) {
                    word |= 1L << bit;
                }
            }
            s.append(g == groups - 1 ? Long.toHexString(word) : "," + String.format("%08x", word));
        }
        return s.toString();
    }

    /** The CPU numbers, lowest first. */
    public List<Integer> cpus() {
        return cpus.stream().boxed().toList();
    }

    /** A set as a short list of ranges, e.g. {@code 2-99,120}. */
    private static String ranges(BitSet set) {
        StringBuilder s = new StringBuilder();
        for (int from = set.nextSetBit(0); from >= 0; from = set.nextSetBit(set.nextClearBit(from))) {
            int to = set.nextClearBit(from) - 1;
            s.append(s.length() == 0 ? "" : ",").append(from).append(from == to ? "" : "-" + to);
        }
        return s.toString();
    }

    public int size() {
        return cpus.cardinality();
    }

    public boolean contains(int cpu) {
        return cpus.get(cpu);
    }

    /** The same CPUs, however each list was written ({@code 0-1} and {@code 0,1}). */
    @Override
    public boolean equals(Object o) {
        return o instanceof CpuSet other && cpus.equals(other.cpus);
    }

    @Override
    public int hashCode() {
        return cpus.hashCode();
    }

    /** The list as Docker's {@code --cpuset-cpus} takes it. */
    @Override
    public String toString() {
        return text;
    }
}
