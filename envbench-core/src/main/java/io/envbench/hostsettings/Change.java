package io.envbench.hostsettings;

import java.nio.file.Path;

/** One change a journal holds: what to put back. Immutable. */
public sealed interface Change permits Change.FileValue, Change.PausedProcess {
    /** A one-line description for notes, e.g. {@code /proc/irq/38/smp_affinity_list = 0-1}. */
    String describe();

    /**
     * A host file's value before the owner first wrote it (a cgroup's {@code cpuset.cpus}, an IRQ's
     * {@code smp_affinity_list}, a queue's {@code rps_cpus}).
     *
     * @param file   absolute path of the file
     * @param before its content then, without the line end
     */
    record FileValue(Path file, String before) implements Change {
        @Override
        public String describe() {
            return file + " = " + (before.isEmpty() ? "(empty)" : before);
        }
    }

    /**
     * A host process the owner paused (irqbalance, with SIGSTOP); put back means resumed (SIGCONT), only when the process
     * with that PID is still the one that was paused (same start tick).
     *
     * @param procRoot   the procfs tree the process was found in ({@code /proc} on a real host)
     * @param pid        its PID there
     * @param startTicks its start in clock ticks since boot ({@code /proc/PID/stat} field 22)
     * @param name       its command name, for notes
     */
    record PausedProcess(Path procRoot, long pid, long startTicks, String name) implements Change {
        @Override
        public String describe() {
            return name + " (PID " + pid + ") paused";
        }
    }
}
