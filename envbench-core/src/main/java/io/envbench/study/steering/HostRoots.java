package io.envbench.study.steering;

import java.nio.file.Path;

import net.jcip.annotations.Immutable;

/**
 * Where the host's procfs and sysfs are: {@link #real()} on the host, a fixture tree in tests. Immutable.
 *
 * @param proc procfs root ({@code /proc}): {@code irq/N/smp_affinity_list}, {@code PID/comm}
 * @param sys  sysfs root ({@code /sys}): {@code class/net/DEV}, {@code devices/system/cpu/online}
 */
@Immutable
public record HostRoots(Path proc, Path sys) {
    public HostRoots {
        proc = proc.toAbsolutePath().normalize();
        sys = sys.toAbsolutePath().normalize();
    }

    /** This host: {@code /proc} and {@code /sys}. */
    public static HostRoots real() {
        return new HostRoots(Path.of("/proc"), Path.of("/sys"));
    }

    /** {@code proc/irq/N/smp_affinity_list}. */
    public Path affinityListOf(int irq) {
        return proc.resolve("irq").resolve(Integer.toString(irq)).resolve("smp_affinity_list");
    }

    /** {@code sys/class/net/DEV}. */
    public Path netDevice(String name) {
        return sys.resolve("class/net").resolve(name);
    }
}
