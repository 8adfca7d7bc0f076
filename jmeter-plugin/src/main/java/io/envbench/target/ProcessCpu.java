package io.envbench.target;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.stream.Stream;

/**
 * CPU time used so far by processes of this host, read from the OS (procfs on Linux) through
 * {@link ProcessHandle}. A rate is the difference of two readings over wall time.
 */
public final class ProcessCpu {
    private ProcessCpu() {
    }

    /** CPU time of this JVM (JMeter itself, when run inside it). */
    public static Duration thisJvm() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return Duration.ofNanos(os.getProcessCpuTime());
        }
        return ProcessHandle.current().info().totalCpuDuration().orElse(Duration.ZERO);
    }

    /** CPU time of a process and all its live descendants (a target's server process tree). */
    public static Duration tree(long pid) {
        return ProcessHandle.of(pid).map(h -> Stream.concat(Stream.of(h), h.descendants())
                        .map(p -> p.info().totalCpuDuration().orElse(Duration.ZERO))
                        .reduce(Duration.ZERO, Duration::plus))
                .orElse(Duration.ZERO);
    }

    /** CPU time of every live process whose executable's file name is {@code name}, e.g. docker-proxy. */
    public static Duration byExecutableName(String name) {
        return ProcessHandle.allProcesses()
                .filter(p -> p.info().command().map(c -> c.endsWith("/" + name) || c.equals(name)).orElse(false))
                .map(p -> p.info().totalCpuDuration().orElse(Duration.ZERO))
                .reduce(Duration.ZERO, Duration::plus);
    }
}
