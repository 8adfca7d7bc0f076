package io.envbench.study.steering;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import io.envbench.base.environment.OwnerIdentity;
import net.jcip.annotations.Immutable;

/**
 * A running irqbalance: the daemon that moves IRQs between CPUs every 10 s (its default {@code --interval}), writing
 * their {@code smp_affinity}, and so would undo any steering; study 004 (docs/studies.md#study-004) saw it also stop
 * rebalancing once every CPU was over 80% busy. Immutable.
 *
 * @param pid        its PID in the procfs tree it was found in
 * @param startTicks its start in clock ticks since boot
 */
@Immutable
public record IrqBalance(long pid, long startTicks) {
    /** The command name irqbalance runs under ({@code /proc/PID/comm}). */
    public static final String NAME = "irqbalance";

    /** The irqbalance process of the procfs tree {@code proc}, when one runs (a stopped one counts: it is ours or someone's). */
    public static Optional<IrqBalance> find(Path proc) {
        try (DirectoryStream<Path> pids =
                Files.newDirectoryStream(proc, p -> p.getFileName().toString().matches("[0-9]+"))) {
            for (Path p : pids) {
                try {
                    if (Files.readString(p.resolve("comm")).strip().equals(NAME)) {
                        long pid = Long.parseLong(p.getFileName().toString());
                        Optional<Long> start = OwnerIdentity.startTicks(proc, pid);
                        if (start.isPresent()) {
                            return Optional.of(new IrqBalance(pid, start.get()));
                        }
                    }
                } catch (IOException e) {
                    // that process ended while we looked
                }
            }
        } catch (IOException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }

    /** What it does about steering, for the user. */
    public String whatItDoes() {
        return "irqbalance runs (PID " + pid
                + "): every 10 s it moves IRQs between CPUs by rewriting their smp_affinity, "
                + "which would undo the steering (and it stops rebalancing once every CPU is over 80% busy)";
    }
}
