package io.envbench.host.hostsettings;

import java.nio.file.Path;
import java.util.List;

import net.jcip.annotations.Immutable;

/**
 * What putting back one journal did. Immutable.
 *
 * @param journal  the journal file
 * @param restored each change put back, e.g. {@code /proc/irq/38/smp_affinity_list = 0-1}
 * @param skipped  each change whose object is gone (an IRQ, an interface, a cgroup, a process), with why: not an error
 * @param failed   each change that could not be put back, with the error; the journal keeps these for a later sweep
 */
@Immutable
public record Restore(Path journal, List<String> restored, List<String> skipped, List<String> failed) {
    public Restore {
        restored = List.copyOf(restored);
        skipped = List.copyOf(skipped);
        failed = List.copyOf(failed);
    }

    /** Whether every change was put back or its object is gone. */
    public boolean complete() {
        return failed.isEmpty();
    }

    /** One line, e.g. {@code 3 settings put back, 1 skipped (gone), 0 failed}. */
    public String summary() {
        return restored.size() + " settings put back, " + skipped.size() + " skipped (gone), " + failed.size()
                + " failed (" + journal + ")";
    }
}
