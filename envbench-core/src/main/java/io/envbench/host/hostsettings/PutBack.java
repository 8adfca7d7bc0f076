package io.envbench.host.hostsettings;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.envbench.base.environment.OwnerIdentity;
import net.jcip.annotations.ThreadSafe;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Putting written-down changes back, the latest first, each as its kind needs: a file's value or whole content written
 * back (a value that already is the old one is left alone), a Docker daemon restarted so that it reads its old
 * configuration, a paused process resumed only if its PID is still the same process. A change whose object is gone is
 * skipped; one that fails is reported and the rest are still put back. A live journal's restore and a sweep of a dead
 * owner's journal put back alike, so both are here.
 *
 * <p>Thread-safe: it holds nothing but its thread-safe pauser and restarter.
 */
@ThreadSafe
record PutBack(ProcessPauser pauser, DaemonRestarter restarter) {
    // logged under the journal's name, which log settings and readers of its lines know
    private static final Logger log = LoggerFactory.getLogger(HostSettingsJournal.class);

    /** A restore's report, and the changes that failed (oldest first), which the journal keeps. */
    record Undone(Restore report, List<Change> failed) {}

    /** Puts back {@code changes}, the latest first. */
    Undone all(Path journal, List<Change> changes) {
        List<String> restored = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        List<Change> failedChanges = new ArrayList<>();
        for (int i = changes.size() - 1; i >= 0; i--) {
            Change c = changes.get(i);
            Outcome o = one(c);
            switch (o.kind) {
                case RESTORED -> restored.add(c.describe());
                case GONE -> skipped.add(c.describe() + ": skipped, " + o.why);
                case FAILED -> {
                    failed.add(c.describe() + ": could not be put back: " + o.why);
                    failedChanges.add(0, c);
                }
            }
        }
        return new Undone(new Restore(journal, restored, skipped, failed), failedChanges);
    }

    private enum Kind {
        RESTORED,
        GONE,
        FAILED
    }

    private record Outcome(Kind kind, String why) {}

    private Outcome one(Change change) {
        if (change instanceof Change.FileContent c) {
            try {
                WholeFile.putBack(c.file(), c.before());
                return new Outcome(Kind.RESTORED, "");
            } catch (IOException e) {
                return new Outcome(Kind.FAILED, HostSettingsJournal.reason(e));
            }
        }
        if (change instanceof Change.DaemonRestarted d) {
            try {
                restarter.restart(d.daemonAddress(), d.howItRuns());
                return new Outcome(Kind.RESTORED, "");
            } catch (IOException | RuntimeException e) {
                return new Outcome(Kind.FAILED, e.getMessage() == null ? e.toString() : e.getMessage());
            }
        }
        if (change instanceof Change.FileValue f) {
            try {
                if (HostSettingsJournal.readValue(f.file()).equals(f.before())) {
                    return new Outcome(
                            Kind.RESTORED, ""); // never changed (the kernel refused the new value), or put back already
                }
                Files.write(
                        f.file(),
                        (f.before() + "\n").getBytes(StandardCharsets.US_ASCII),
                        StandardOpenOption.WRITE,
                        StandardOpenOption.TRUNCATE_EXISTING);
                return new Outcome(Kind.RESTORED, "");
            } catch (NoSuchFileException e) {
                return new Outcome(Kind.GONE, "its object is gone (no " + f.file() + ")");
            } catch (IOException e) {
                String why = HostSettingsJournal.reason(e);
                return why.contains("No such device")
                        ? new Outcome(Kind.GONE, "its object is gone (" + why + ")")
                        : new Outcome(Kind.FAILED, why);
            }
        }
        Change.PausedProcess p = (Change.PausedProcess) change;
        Optional<Long> start = OwnerIdentity.startTicks(p.procRoot(), p.pid());
        if (start.isEmpty()) {
            return new Outcome(Kind.GONE, "the process is gone");
        }
        if (start.get() != p.startTicks()) {
            return new Outcome(
                    Kind.GONE,
                    "PID " + p.pid() + " is now another process (started at tick " + start.get() + ", not "
                            + p.startTicks() + ")");
        }
        try {
            pauser.resume(p.pid());
            return new Outcome(Kind.RESTORED, "");
        } catch (IOException e) {
            return new Outcome(Kind.FAILED, HostSettingsJournal.reason(e));
        }
    }

    /** Says what a restore did: each failure as a warning, a summary when anything was put back or failed. */
    static void log(Restore r) {
        r.restored().forEach(s -> log.debug("put back {}", s));
        r.skipped().forEach(s -> log.info("{}", s));
        r.failed().forEach(s -> log.warn("{}; kept in {} for the next start", s, r.journal()));
        if (!r.restored().isEmpty() || !r.complete()) {
            log.info("host settings: {}", r.summary());
        }
    }
}
