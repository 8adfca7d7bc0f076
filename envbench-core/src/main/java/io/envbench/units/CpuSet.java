package io.envbench.units;

import io.envbench.settings.InvalidSettingException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;

/**
 * A set of CPU numbers written as Linux/Docker write them ({@code 0-3,6}), checked against the CPUs
 * this host has online.
 */
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
        try {
            String list = Files.readString(Path.of("/sys/devices/system/cpu/online")).trim();
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
                        throw new InvalidSettingException(field, "range '" + part + "' runs backwards; write it low-high, e.g. 0-1");
                    }
                    set.set(from, to + 1);
                } else {
                    throw new NumberFormatException(part);
                }
            } catch (NumberFormatException e) {
                throw new InvalidSettingException(field, "'" + text + "' is not a CPU list; write CPU numbers like 0 or 0-1 or 0,2");
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
            throw new InvalidSettingException(field, "CPU " + digits + " is beyond the largest CPU number Linux supports (" + MAX_CPU
                    + "); use CPUs this host has online (" + online().text + ")");
        }
        return Integer.parseInt(digits);
    }

    /** Parses a list and checks every CPU in it is online on this host. */
    public static CpuSet parseForHost(String field, String text) {
        CpuSet wanted = parseList(field, text);
        CpuSet online = online();
        BitSet missing = (BitSet) wanted.cpus.clone();
        missing.andNot(online.cpus);
        if (!missing.isEmpty()) {
            throw new InvalidSettingException(field, "CPU " + ranges(missing) + " does not exist on this host (online CPUs: " + online.text + "); use CPUs within " + online.text);
        }
        return wanted;
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

    /** The list as Docker's {@code --cpuset-cpus} takes it. */
    @Override
    public String toString() {
        return text;
    }
}
