package io.envbench.host.hostsettings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.envbench.base.environment.OwnerIdentity;
import io.envbench.base.environment.RunSession;
import io.envbench.launch.dockerdaemon.DaemonRestart;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The journal on plain files standing for host settings: written down before the change, put back in reverse order,
 * objects gone skipped, failures reported with the rest still put back; the sweep restores dead owners' journals and
 * leaves live owners', other hosts' and damaged ones.
 */
class HostSettingsJournalTest {
    @TempDir
    Path dir;

    Path journals;
    Path a;
    Path b;

    @BeforeEach
    void settings() throws IOException {
        journals = dir.resolve("journals");
        a = dir.resolve("cpuset.cpus");
        b = dir.resolve("rps_cpus");
        Files.writeString(a, "0-3\n");
        Files.writeString(b, "0\n");
    }

    @Test
    void eachFileIsWrittenDownOnceBeforeItsFirstChangeAndPutBackLatestFirst() throws IOException {
        HostSettingsJournal journal = HostSettingsJournal.open(journals, DaemonRestart.onThisHost());
        journal.write(a, "1");
        assertEquals("1\n", Files.readString(a));
        // on disk (fsync'd) as soon as write returns: what a reader after a crash finds
        assertEquals(
                List.of(new Change.FileValue(a, "0-3")),
                JournalFormat.read(journal.file()).changes());
        journal.write(b, "3");
        journal.write(a, "2");
        assertEquals(
                2,
                JournalFormat.read(journal.file()).changes().size(),
                "a second change of a file is not written down again");
        Restore r = journal.restore();
        assertEquals(List.of(b + " = 0", a + " = 0-3"), r.restored(), "the latest change first");
        assertEquals(
                "0-3",
                HostSettingsJournal.readValue(a),
                "the value before the run, not the one before the last change");
        assertEquals("0", HostSettingsJournal.readValue(b));
        assertFalse(Files.exists(journal.file()));
        assertTrue(r.complete());
        assertThrows(
                IllegalStateException.class, () -> journal.write(a, "1"), "a restored journal takes no more changes");
        assertEquals(r, journal.restore(), "restoring twice does nothing more");
    }

    @Test
    void aFileThatIsMissingIsNeitherWrittenDownNorMade() throws IOException {
        try (HostSettingsJournal journal = HostSettingsJournal.open(journals, DaemonRestart.onThisHost())) {
            Path missing = dir.resolve("irq/99/smp_affinity_list");
            IOException e = assertThrows(IOException.class, () -> journal.write(missing, "1"));
            assertTrue(e.getMessage().contains(missing.toString()), e.getMessage());
            assertFalse(Files.exists(missing));
            assertEquals(List.of(), journal.changes());
        }
    }

    @Test
    void aSettingWhoseObjectVanishedIsSkippedAndOneThatFailsIsReportedWhileTheRestIsPutBack() throws IOException {
        Path cgroup = dir.resolve("cpuset/tenant-1");
        Files.createDirectories(cgroup);
        Path cpus = cgroup.resolve("cpuset.cpus");
        Files.writeString(cpus, "0-1\n");
        Path stuck = dir.resolve("stuck");
        Files.writeString(stuck, "5\n");
        HostSettingsJournal journal = HostSettingsJournal.open(journals, DaemonRestart.onThisHost());
        journal.write(a, "1");
        journal.write(stuck, "6");
        journal.write(cpus, "1");
        journal.write(b, "2");
        Files.delete(cpus);
        Files.delete(cgroup); // the container went, its cgroup with it
        Files.delete(stuck);
        Files.createDirectory(stuck); // a file that cannot be written back (a directory answers EISDIR)
        Restore r = journal.restore();
        assertEquals(List.of(b + " = 0", a + " = 0-3"), r.restored());
        assertEquals(1, r.skipped().size());
        assertTrue(
                r.skipped().get(0).startsWith(cpus + " = 0-1: skipped, its object is gone"),
                r.skipped().get(0));
        assertEquals(1, r.failed().size());
        assertTrue(
                r.failed().get(0).startsWith(stuck + " = 5: could not be put back: "),
                r.failed().get(0));
        assertEquals("0-3", HostSettingsJournal.readValue(a));
        assertEquals("0", HostSettingsJournal.readValue(b));
        assertFalse(r.complete());
        assertEquals(
                List.of(new Change.FileValue(stuck, "5")),
                JournalFormat.read(journal.file()).changes(),
                "the journal keeps only what failed, for a later sweep");
        Files.delete(journal.file());
    }

    @Test
    void theSweepPutsBackADeadOwnersJournalAndLeavesALiveOwnersAndAnotherHostsAlone() throws Exception {
        Files.createDirectories(journals);
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor(5, TimeUnit.SECONDS);
        Path dead = journal("dead", owner(gone.pid(), 4711, null), List.of(new Change.FileValue(a, "0-3")));
        Files.writeString(a, "1\n");
        Process alive = new ProcessBuilder("sleep", "30").start();
        Path c = dir.resolve("c");
        Files.writeString(c, "changed\n");
        try {
            long aliveStart = OwnerIdentity.startTicks(alive.pid()).orElseThrow();
            Path live =
                    journal("live", owner(alive.pid(), aliveStart, null), List.of(new Change.FileValue(c, "before")));
            Path elsewhere = journal(
                    "elsewhere", owner(gone.pid(), 4711, "another-host"), List.of(new Change.FileValue(c, "before")));
            HostSettingsJournal.Sweep sweep = HostSettingsJournal.sweepLeftovers(journals, DaemonRestart.onThisHost());
            assertEquals(1, sweep.restored().size(), sweep.toString());
            assertEquals(dead, sweep.restored().get(0).journal());
            assertEquals("0-3", HostSettingsJournal.readValue(a), "the dead owner's setting is back");
            assertFalse(Files.exists(dead));
            assertEquals(
                    "changed",
                    HostSettingsJournal.readValue(c),
                    "the live owner's and the other host's settings are theirs");
            assertTrue(Files.exists(live));
            assertTrue(Files.exists(elsewhere));
            assertTrue(
                    sweep.kept().stream()
                            .anyMatch(k -> k.startsWith(live + " kept: its owner, PID " + alive.pid() + ", is alive")),
                    sweep.kept().toString());
            assertTrue(
                    sweep.kept().stream()
                            .anyMatch(k -> k.startsWith(elsewhere + " kept: its owner runs on host 'another-host'")),
                    sweep.kept().toString());
        } finally {
            alive.destroyForcibly();
        }
    }

    @Test
    void aDamagedJournalIsRefusedNamingTheFileAndLineAndNothingOfItIsPutBack() throws Exception {
        Files.createDirectories(journals);
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor(5, TimeUnit.SECONDS);
        Path damaged = journals.resolve("hostsettings-damaged.journal");
        Files.writeString(
                damaged,
                JournalFormat.HEADER + "\n" + JournalFormat.ownerLine(owner(gone.pid(), 4711, null))
                        + JournalFormat.line(new Change.FileValue(a, "0-3"))
                        + "file\trelative/path\t1\n"
                        + JournalFormat.line(new Change.FileValue(b, "0")));
        Files.writeString(a, "1\n");
        Files.writeString(b, "3\n");
        HostSettingsJournal.Sweep sweep = HostSettingsJournal.sweepLeftovers(journals, DaemonRestart.onThisHost());
        assertEquals(List.of(), sweep.restored());
        assertEquals(1, sweep.refused().size());
        String why = sweep.refused().get(0);
        assertTrue(
                why.startsWith("host settings journal " + damaged + " line 4: path 'relative/path' is not absolute"),
                why);
        assertTrue(why.contains("nothing of it was put back"), why);
        assertEquals(
                "1",
                HostSettingsJournal.readValue(a),
                "not half applied: the good line before the damage was not used either");
        assertEquals("3", HostSettingsJournal.readValue(b));
        assertTrue(Files.exists(damaged), "left for a person to read");
    }

    @Test
    void aLastLineCutWhileItWasWrittenIsAChangeNeverMade() throws Exception {
        Files.createDirectories(journals);
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor(5, TimeUnit.SECONDS);
        Path cut = journals.resolve("hostsettings-cut.journal");
        String bLine = JournalFormat.line(new Change.FileValue(b, "0"));
        Files.writeString(
                cut,
                JournalFormat.HEADER + "\n" + JournalFormat.ownerLine(owner(gone.pid(), 4711, null))
                        + JournalFormat.line(new Change.FileValue(a, "0-3")) + bLine.substring(0, bLine.length() - 3));
        Files.writeString(a, "1\n");
        Files.writeString(b, "3\n");
        HostSettingsJournal.Sweep sweep = HostSettingsJournal.sweepLeftovers(journals, DaemonRestart.onThisHost());
        assertEquals(1, sweep.restored().size(), sweep.toString());
        assertEquals("0-3", HostSettingsJournal.readValue(a));
        assertEquals(
                "3",
                HostSettingsJournal.readValue(b),
                "the cut line's change was never made, so nothing is put back for it");
        assertFalse(Files.exists(cut));
    }

    @Test
    void valuesWithTabsAndLineEndsSurviveTheJournal() throws IOException {
        Files.createDirectories(journals);
        Path odd = journals.resolve("hostsettings-odd.journal");
        Change.FileValue v = new Change.FileValue(Path.of("/x/a\tb"), "one\ntwo\\three\r");
        Files.writeString(
                odd,
                JournalFormat.HEADER + "\n" + JournalFormat.ownerLine(Map.of("k", "v\tw")) + JournalFormat.line(v));
        JournalFormat.Contents read = JournalFormat.read(odd);
        assertEquals(List.of(v), read.changes());
        assertEquals(Map.of("k", "v\tw"), read.owner());
    }

    /** Labels of an owner on this host (or {@code host}) with this PID and start tick, of another run. */
    private static Map<String, String> owner(long pid, long startTicks, String host) {
        OwnerIdentity self = OwnerIdentity.current();
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(RunSession.LABEL_MANAGED, "true");
        labels.put(RunSession.LABEL_RUN, "otherrun");
        labels.putAll(new OwnerIdentity(
                        host == null ? self.hostname() : host,
                        self.machineId(),
                        self.bootId(),
                        self.pidNamespace(),
                        pid,
                        startTicks,
                        -1)
                .labels());
        return labels;
    }

    private Path journal(String name, Map<String, String> owner, List<Change> changes) throws IOException {
        StringBuilder text =
                new StringBuilder(JournalFormat.HEADER).append('\n').append(JournalFormat.ownerLine(owner));
        changes.forEach(c -> text.append(JournalFormat.line(c)));
        Path f = journals.resolve("hostsettings-" + name + HostSettingsJournal.SUFFIX);
        Files.writeString(f, text);
        return f;
    }
}
