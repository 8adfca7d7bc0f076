package io.envbench.host.hostsettings;

import java.nio.file.Path;
import java.util.Base64;
import java.util.Optional;

import net.jcip.annotations.Immutable;

/** One change a journal holds: what to put back. Immutable. */
@Immutable
public sealed interface Change
        permits Change.FileValue, Change.PausedProcess, Change.FileContent, Change.DaemonRestarted {
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

    /**
     * A whole configuration file (Docker's {@code daemon.json}) before the owner first replaced it: its bytes and mode, or
     * its absence. Put back byte for byte (written beside and moved over), or deleted when it was absent.
     *
     * @param file   absolute path of the file
     * @param before its bytes and mode then; empty when there was no such file
     */
    record FileContent(Path file, Optional<Original> before) implements Change {
        @Override
        public String describe() {
            return file
                    + (before.isEmpty()
                            ? " absent"
                            : " as it was (" + before.get().bytes().length + " bytes, "
                                    + before.get().permissions() + ")");
        }

        /**
         * A file's content and permissions.
         *
         * @param base64      its bytes, in Base64 (a journal line holds any bytes so)
         * @param permissions its mode as {@code ls} shows it, e.g. {@code rw-r--r--}
         */
        public record Original(String base64, String permissions) {
            /** The file's bytes. */
            public byte[] bytes() {
                return Base64.getDecoder().decode(base64);
            }

            /** The original of {@code bytes} with {@code permissions}. */
            public static Original of(byte[] bytes, String permissions) {
                return new Original(Base64.getEncoder().encodeToString(bytes), permissions);
            }
        }
    }

    /**
     * A Docker daemon the owner restarted so that it reads a changed configuration ({@link FileContent} written down
     * after it). Put back means restarted again once the later changes are put back, so that it reads its old
     * configuration; it is started so also when it was left down (an owner killed while the daemon was stopped).
     *
     * @param daemonAddress the daemon's address, e.g. {@code unix:///var/run/docker.sock}
     * @param howItRuns     how it ran before, as {@link DaemonRestarter#howItRuns} told (read back by the restarter)
     */
    record DaemonRestarted(String daemonAddress, String howItRuns) implements Change {
        @Override
        public String describe() {
            return "Docker daemon " + daemonAddress + " restarted (to read its configuration again)";
        }
    }
}
