package io.envbench.target;

import java.time.Duration;
import java.time.Instant;

/**
 * What one environment cost while it ran (from ready to stop): wall time and the CPU time used by the
 * JVM driving the load (JMeter), the target's process tree and Docker's userland port proxy.
 */
public record Phase(String environment, Instant start, Instant end, Duration jmeterCpu, Duration targetCpu,
                    Duration dockerProxyCpu) {

    public static final String CSV_HEADER = "env,startEpochMs,endEpochMs,wallSec,jmeterCpuSec,targetCpuSec,dockerProxyCpuSec";

    public Duration wall() {
        return Duration.between(start, end);
    }

    /** CPU time as a percentage of one core over the phase's wall time. */
    public static double pctOfOneCore(Duration cpu, Duration wall) {
        return wall.isZero() ? 0 : 100.0 * cpu.toNanos() / wall.toNanos();
    }

    /** Reads a phases file written by {@link Environments} (header {@link #CSV_HEADER}). */
    public static java.util.List<Phase> read(java.nio.file.Path file) throws java.io.IOException {
        java.util.List<Phase> out = new java.util.ArrayList<>();
        java.util.List<String> lines = java.nio.file.Files.readAllLines(file);
        if (lines.isEmpty() || !lines.get(0).equals(CSV_HEADER)) {
            throw new java.io.IOException(file + ": not a phases file (header " + CSV_HEADER + ")");
        }
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",");
            if (f.length != 7) {
                continue; // a truncated last line
            }
            out.add(new Phase(f[0], Instant.ofEpochMilli(Long.parseLong(f[1])), Instant.ofEpochMilli(Long.parseLong(f[2])),
                    seconds(f[4]), seconds(f[5]), seconds(f[6])));
        }
        return out;
    }

    private static Duration seconds(String s) {
        return Duration.ofNanos(Math.round(Double.parseDouble(s) * 1e9));
    }

    public String toCsv() {
        return String.join(",", environment, Long.toString(start.toEpochMilli()), Long.toString(end.toEpochMilli()),
                sec(wall()), sec(jmeterCpu), sec(targetCpu), sec(dockerProxyCpu));
    }

    private static String sec(Duration d) {
        return String.format(java.util.Locale.ROOT, "%.3f", d.toNanos() / 1e9);
    }

    /** A running phase's starting readings; {@link #end} takes the second reading. */
    static final class Start {
        private final String environment;
        private final long targetPid;
        private final Instant at = Instant.now();
        private final Duration jvm = ProcessCpu.thisJvm();
        private final Duration target;
        private final Duration proxy = ProcessCpu.byExecutableName("docker-proxy");

        Start(String environment, long targetPid) {
            this.environment = environment;
            this.targetPid = targetPid;
            this.target = ProcessCpu.tree(targetPid);
        }

        Phase end() {
            return new Phase(environment, at, Instant.now(), ProcessCpu.thisJvm().minus(jvm),
                    nonNegative(ProcessCpu.tree(targetPid).minus(target)),
                    nonNegative(ProcessCpu.byExecutableName("docker-proxy").minus(proxy)));
        }

        private static Duration nonNegative(Duration d) {
            return d.isNegative() ? Duration.ZERO : d;
        }
    }
}
