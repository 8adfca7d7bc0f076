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
        for (String part : t.split(",")) {
            String[] range = part.split("-", -1);
            try {
                if (range.length == 1) {
                    set.set(Integer.parseInt(range[0]));
                } else if (range.length == 2) {
                    int from = Integer.parseInt(range[0]);
                    int to = Integer.parseInt(range[1]);
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

    /** Parses a list and checks every CPU in it is online on this host. */
    public static CpuSet parseForHost(String field, String text) {
        CpuSet wanted = parseList(field, text);
        CpuSet online = online();
        BitSet missing = (BitSet) wanted.cpus.clone();
        missing.andNot(online.cpus);
        if (!missing.isEmpty()) {
            throw new InvalidSettingException(field, "CPU " + missing.stream().mapToObj(Integer::toString).reduce((a, b) -> a + "," + b).orElse("")
                    + " does not exist on this host (online CPUs: " + online.text + "); use CPUs within " + online.text);
        }
        return wanted;
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
