package io.envbench.study.runner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.apache.commons.io.file.PathUtils;

/**
 * JMeter's class-data sharing archive, made once per java and JMeter: the classes a JMeter loads to start and run a
 * plan, dumped by a JVM that ran a one-sample plan, then mapped by every run's JMeter instead of loaded and verified
 * again ({@code JMeterClassArchiveTest} prints a start-to-exit time with and without it; the figures are in
 * docs/figures.md). Making it never fails a run: JMeter then starts without it, as before.
 */
public final class JMeterClassArchive {
    /** A dump takes about 5 s here; beyond this something is wrong, and runs go on without it. */
    static final Duration MAKE_TIMEOUT = Duration.ofSeconds(120);

    private static final String ONE_SAMPLE_PLAN = """
            <?xml version="1.0" encoding="UTF-8"?>
            <jmeterTestPlan version="1.2" properties="5.0" jmeter="5.6.3">
              <hashTree>
                <TestPlan guiclass="TestPlanGui" testclass="TestPlan" testname="class archive" enabled="true"/>
                <hashTree>
                  <ThreadGroup guiclass="ThreadGroupGui" testclass="ThreadGroup" testname="one" enabled="true">
                    <intProp name="ThreadGroup.num_threads">1</intProp>
                    <intProp name="ThreadGroup.ramp_time">0</intProp>
                    <elementProp name="ThreadGroup.main_controller" elementType="LoopController"
                        guiclass="LoopControlPanel" testclass="LoopController">
                      <stringProp name="LoopController.loops">1</stringProp>
                      <boolProp name="LoopController.continue_forever">false</boolProp>
                    </elementProp>
                  </ThreadGroup>
                  <hashTree>
                    <DebugSampler guiclass="TestBeanGUI" testclass="DebugSampler" testname="one" enabled="true">
                      <boolProp name="displayJMeterProperties">false</boolProp>
                      <boolProp name="displayJMeterVariables">true</boolProp>
                      <boolProp name="displaySystemProperties">false</boolProp>
                    </DebugSampler>
                    <hashTree/>
                  </hashTree>
                </hashTree>
              </hashTree>
            </jmeterTestPlan>
            """;

    private JMeterClassArchive() {}

    /**
     * Makes the archive of {@code jmeter} when it has none (the JMeter it runs writes its files into {@code work},
     * deleted after); the dump goes to a file of its own and is moved into place whole, so two runners that make it at
     * once never leave a half-written one.
     *
     * @return the archive, or empty with why it could not be made (said by the caller; runs go on without it)
     */
    public static Result ensure(JMeterInstall jmeter, Path work) {
        Path archive = jmeter.classArchive();
        if (Files.isRegularFile(archive)) {
            return new Result(Optional.of(archive), Duration.ZERO, "");
        }
        long t0 = System.nanoTime();
        Path dir = null;
        try {
            Files.createDirectories(work);
            dir = Files.createTempDirectory(work, "class-archive-");
            Path plan = Files.writeString(dir.resolve("one-sample.jmx"), ONE_SAMPLE_PLAN);
            Path dump = dir.resolve("dump.jsa");
            List<String> cmd = List.of(
                    JMeterInstall.java().toString(),
                    "-XX:ArchiveClassesAtExit=" + dump,
                    "-Xlog:cds*=off",
                    "-jar",
                    jmeter.home().resolve("bin/ApacheJMeter.jar").toString(),
                    "-n",
                    "-t",
                    plan.toString(),
                    "-l",
                    dir.resolve("one.jtl").toString(),
                    "-j",
                    dir.resolve("jmeter.log").toString());
            Process p = new ProcessBuilder(cmd)
                    .redirectErrorStream(true)
                    .redirectOutput(dir.resolve("output.txt").toFile())
                    .start();
            if (!p.waitFor(MAKE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                return failed(t0, "the JMeter that makes it did not end within " + MAKE_TIMEOUT.toSeconds() + " s");
            }
            if (p.exitValue() != 0 || !Files.isRegularFile(dump) || Files.size(dump) == 0) {
                return failed(t0, "the JMeter that makes it exited with " + p.exitValue() + " and no archive");
            }
            Files.move(dump, archive, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return new Result(Optional.of(archive), Duration.ofNanos(System.nanoTime() - t0), "");
        } catch (IOException e) {
            return failed(t0, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return failed(t0, "interrupted");
        } finally {
            if (dir != null) {
                try {
                    PathUtils.delete(dir);
                } catch (IOException e) { // a temp folder under the run's own: nothing depends on it
                    // left for the run directory's owner
                }
            }
        }
    }

    private static Result failed(long t0, String why) {
        return new Result(Optional.empty(), Duration.ofNanos(System.nanoTime() - t0), why);
    }

    /**
     * @param archive   the archive, when there is one now
     * @param madeIn    how long making it took; zero when it was there already
     * @param whyNot    why there is none, empty when there is
     */
    public record Result(Optional<Path> archive, Duration madeIn, String whyNot) {
        /** One line for the run's log. */
        public String describe() {
            if (archive.isEmpty()) {
                return "JMeter starts without a class archive (" + whyNot + ")";
            }
            return madeIn.isZero()
                    ? "JMeter starts with its class archive " + archive.get().getFileName()
                    : "JMeter's class archive made once in " + madeIn.toMillis() + " ms: each run's JMeter starts"
                            + " sooner (" + archive.get().getFileName() + ")";
        }
    }
}
