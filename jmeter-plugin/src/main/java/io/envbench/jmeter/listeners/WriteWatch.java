package io.envbench.jmeter.listeners;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Consumer;

import io.envbench.base.output.OutputFolder;
import io.envbench.jmeter.EnvBenchProperties;
import io.envbench.jmeter.EnvBenchProperties.OnWriteFailure;
import net.jcip.annotations.GuardedBy;
import net.jcip.annotations.ThreadSafe;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches the files a test writes while the Resource Monitor runs: the metrics file (its writer says when it stops) and
 * every JTL JMeter has open (JMeter's writer swallows its errors, see {@link JtlWriters}; a file removed during the test
 * takes rows without error, into nothing). A failure is told to the user once per file, naming the file, what is wrong
 * and the fix, and then, by {@code envbench.onWriteFailure}, the test is stopped or runs on; at the test's end the
 * failure is said again and {@code jmeter -n} exits with 1. Thread-safe: the collector's thread checks, the engine's
 * thread ends the test.
 */
@ThreadSafe
final class WriteWatch {
    private static final Logger log = LoggerFactory.getLogger(WriteWatch.class);
    /** Below this a file system is full for a writer: JMeter's writer fails on a buffer of 8 KiB. */
    static final long FULL_BELOW_BYTES = 64 * 1024;
    /** JTLs are checked at most this often: each check flushes JMeter's writers. */
    static final long CHECK_EVERY_NANOS = 1_000_000_000L;

    private final OnWriteFailure policy;
    /** Tells the user: jmeter.log at ERROR, and the console (non-GUI) or a dialog (GUI). */
    private final Consumer<String> tell;

    private final Runnable stopTest;
    private final Callable<Map<Path, PrintWriter>> jtlWriters;

    @GuardedBy("this")
    private final List<Path> failed = new ArrayList<>();

    @GuardedBy("this")
    private long lastCheck = System.nanoTime() - CHECK_EVERY_NANOS;

    @GuardedBy("this")
    private boolean unwatchable;

    /**
     * Whether the test's threads have sampled: JMeter opens its result files in their listeners' testStarted, which
     * all run before any thread starts but after the monitor's own, while the collector already ticks.
     */
    private volatile boolean sampling;

    @GuardedBy("this")
    private boolean stopped;
    /** The metrics file, once it has been written: from then on it must stay. */
    @GuardedBy("this")
    private Path metricsFile;

    @GuardedBy("this")
    private boolean metricsFileSeen;
    /** The results file of {@code -l}, until the first look at JMeter's writers: it must be among them. */
    @GuardedBy("this")
    private Path resultsFile;

    WriteWatch(
            OnWriteFailure policy,
            Consumer<String> tell,
            Runnable stopTest,
            Callable<Map<Path, PrintWriter>> jtlWriters) {
        this.policy = policy;
        this.tell = tell;
        this.stopTest = stopTest;
        this.jtlWriters = jtlWriters;
    }

    /** The collector's metrics file stopped taking rows ({@code why}: the system's reason); it ends at a whole row. */
    void metricsFileStopped(Path file, String why) {
        failed(file, metricsProblem(file, why, freeBytes(file), mount(file)));
    }

    /** Watches the metrics file for its removal during the test (its writer would go on writing into nothing). */
    synchronized void watchMetricsFile(Path file) {
        metricsFile = file;
    }

    /**
     * Expects JMeter's writer of the {@code -l} results file among the open ones: JMeter drops a file it cannot open
     * (permissions, a read-only file system, a folder of that name) without a word, and writes no results.
     */
    synchronized void expectJtl(Path file) {
        try {
            resultsFile = Path.of(file.toFile().getCanonicalPath()); // as JMeter keeps it
        } catch (IOException e) {
            resultsFile = file.toAbsolutePath().normalize();
        }
    }

    /** A sample occurred: from now on JMeter's result files are open, if it could open them. */
    void sampleSeen() {
        if (!sampling) {
            sampling = true;
        }
    }

    /** Checks the files, at most once a second; on the collector's thread, every tick. */
    void checkJtlsSoon() {
        synchronized (this) {
            long now = System.nanoTime();
            if (now - lastCheck < CHECK_EVERY_NANOS) {
                return;
            }
            lastCheck = now;
        }
        checkMetricsFile();
        checkJtls();
    }

    /** The metrics file is made at the collector's first row; once there, it is gone only when someone removed it. */
    void checkMetricsFile() {
        Path file;
        synchronized (this) {
            file = metricsFile;
            if (file == null || failed.contains(file)) {
                return;
            }
        }
        boolean exists = Files.exists(file);
        synchronized (this) {
            if (exists) {
                metricsFileSeen = true;
                return;
            }
            if (!metricsFileSeen) {
                return;
            }
        }
        failed(
                file,
                "EnvBench Resource Monitor: metrics file " + file + " was removed during the test: its rows go"
                        + " nowhere from now on. Leave the metrics file and its folder in place until the test ends.");
    }

    /** Checks JMeter's JTL writers now. */
    void checkJtls() {
        Map<Path, PrintWriter> writers;
        try {
            writers = jtlWriters.call();
        } catch (Exception | LinkageError e) {
            synchronized (this) {
                if (unwatchable) {
                    return;
                }
                unwatchable = true;
            }
            log.warn(
                    "EnvBench Resource Monitor: this JMeter's JTL writers cannot be watched ({}); a JTL that cannot be"
                            + " written is not reported (JMeter 5.6.3 is the one EnvBench knows)",
                    e.toString());
            return;
        }
        Path expected = null;
        if (sampling) {
            synchronized (this) {
                expected = resultsFile;
                resultsFile = null; // once: JMeter opened its files before the first sample
            }
        }
        if (expected != null && !writers.containsKey(expected)) {
            failed(
                    expected,
                    "EnvBench: JTL " + expected + " (-l): JMeter could not open it for writing and writes no results"
                            + " (" + free(freeBytes(expected)) + " on " + mount(expected) + "). Check that its folder"
                            + " can be written (permissions, not read-only) and that no folder has its name.");
        }
        for (Map.Entry<Path, PrintWriter> w : writers.entrySet()) {
            Path file = w.getKey();
            synchronized (this) {
                if (failed.contains(file)) {
                    continue;
                }
            }
            // checkError flushes first: what the writer holds is tried now, and a failure of that shows too. It takes
            // the writer's lock, as JMeter's println of a row does, so the flush falls between whole rows
            boolean writerFailed = w.getValue().checkError();
            jtlProblem(file, writerFailed, Files.exists(file), freeBytes(file), mount(file))
                    .ifPresent(problem -> failed(file, problem));
        }
    }

    /**
     * The test ended: a last check of the JTLs (JMeter may not have closed them yet), then, when a file failed, the
     * failure again (the console scrolled on) and {@code exitWithOne}.
     *
     * @return whether a file failed
     */
    boolean testEnded(Runnable exitWithOne) {
        checkJtls();
        List<Path> files;
        synchronized (this) {
            files = List.copyOf(failed);
        }
        if (files.isEmpty()) {
            return false;
        }
        tell.accept("EnvBench: this test's results are incomplete: " + files.size()
                + (files.size() == 1 ? " file" : " files") + " could not be written to the end: " + files
                + "; see the error above for the fix. JMeter's non-GUI mode exits with 1.");
        exitWithOne.run();
        return true;
    }

    /** The files that failed, in the order they did. */
    synchronized List<Path> failed() {
        return List.copyOf(failed);
    }

    private void failed(Path file, String problem) {
        boolean stopNow;
        synchronized (this) {
            if (failed.contains(file)) {
                return;
            }
            failed.add(file);
            stopNow = policy == OnWriteFailure.STOP && !stopped;
            stopped |= stopNow;
        }
        tell.accept(problem + " " + consequence(policy));
        if (stopNow) {
            stopTest.run();
        }
    }

    /**
     * What is wrong with a JTL, with the fix; empty when nothing is.
     *
     * @param writerFailed JMeter's writer met an error (its {@code checkError()})
     * @param exists       the file is still there
     * @param freeBytes    usable bytes on its file system, -1 when unknown
     */
    static Optional<String> jtlProblem(Path file, boolean writerFailed, boolean exists, long freeBytes, String mount) {
        if (!exists) { // on Linux a removed file takes writes without error: they go nowhere
            return Optional.of("EnvBench: JTL " + file + " was removed during the test: JMeter's rows go nowhere"
                    + " from now on. Leave a JTL (and its folder) in place until the test ends.");
        }
        if (!writerFailed) {
            return Optional.empty();
        }
        if (freeBytes >= 0 && freeBytes < FULL_BELOW_BYTES) {
            return Optional.of("EnvBench: JTL " + file + ": JMeter could not write it: no space left on device ("
                    + freeBytes + " bytes free on " + mount + "); its rows end early and its last row may be cut."
                    + " Free space on " + mount
                    + ", or write the JTL (-l, or the listener's file) to a disk with room.");
        }
        return Optional.of("EnvBench: JTL " + file + ": JMeter could not write it (" + free(freeBytes) + " on "
                + mount + "); its rows end early. Check the file's permissions and that " + mount
                + " is writable (not read-only).");
    }

    /** What is wrong with the metrics file, with the fix. */
    static String metricsProblem(Path file, String why, long freeBytes, String mount) {
        String fix;
        if (OutputFolder.isDiskFull(why)) {
            fix = "Free space on " + mount + ", or set " + EnvBenchProperties.METRICS_FILE
                    + " (the Resource Monitor's file) to a disk with room.";
        } else if (why.endsWith(" does not exist")) { // its folder was removed
            fix = "Leave the metrics file and its folder in place until the test ends.";
        } else {
            fix = "Check the file's permissions and that " + mount + " is writable (not read-only).";
        }
        return "EnvBench Resource Monitor: metrics file " + file + " stopped: " + why + " (" + free(freeBytes) + " on "
                + mount + "); it ends at its last whole row. " + fix;
    }

    static String consequence(OnWriteFailure policy) {
        return policy == OnWriteFailure.STOP
                ? "The test is stopped (" + EnvBenchProperties.ON_WRITE_FAILURE + "=stop)."
                : "The test runs on (" + EnvBenchProperties.ON_WRITE_FAILURE
                        + "=mark); its results are incomplete and JMeter's non-GUI mode exits with 1.";
    }

    private static String free(long bytes) {
        if (bytes < 0) {
            return "free space unknown";
        }
        return bytes < 1024 * 1024 ? bytes + " bytes free" : bytes / (1024 * 1024) + " MiB free";
    }

    /** Usable bytes on the file's file system (its nearest existing folder's, when it is gone); -1 when unknown. */
    static long freeBytes(Path file) {
        try {
            return store(file).getUsableSpace();
        } catch (IOException e) {
            return -1;
        }
    }

    /** The mount point of the file's file system, as the user frees space on it ({@code /mnt/results}). */
    static String mount(Path file) {
        try {
            String s = store(file).toString(); // "/mnt/results (tmpfs)" on Unix: the mount point, then the device
            int device = s.lastIndexOf(" (");
            return device > 0 ? s.substring(0, device) : s;
        } catch (IOException e) {
            return String.valueOf(file.toAbsolutePath().getParent());
        }
    }

    private static FileStore store(Path file) throws IOException {
        Path p = file.toAbsolutePath();
        while (p != null && !Files.exists(p)) {
            p = p.getParent();
        }
        if (p == null) {
            throw new IOException("no folder of " + file + " exists");
        }
        return Files.getFileStore(p);
    }
}
