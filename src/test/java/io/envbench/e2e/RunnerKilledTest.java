package io.envbench.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runner's own crash: a second {@code envbench run} into the folder of a running one is refused at once (exit 2,
 * the folder and its holder named) and writes nothing there; the running one, killed with SIGKILL mid-run, leaves no
 * JMeter loading (the reaper stops it) and no nginx; and {@code --resume} after the kill does not merge its row into
 * the one the kill cut.
 */
@BesideOthers("bare-metal nginx on ports 18497-18498; finds the killed runner's JMeter among its own descendants")
class RunnerKilledTest {
    @TempDir
    Path dir;

    private Path experiment(String name, int port, int seconds) throws Exception {
        return Files.writeString(dir.resolve(name + ".yaml"), """
                name: %s
                target: nginx-static
                port: %d
                environments:
                  - { name: bare, placement: bare }
                repetitions: 3
                load:
                  http: { path: /page-4k.html, threads: 2, durationSeconds: %d }
                """.formatted(name, port, seconds));
    }

    /** The JMeter the runner started (its command line names ApacheJMeter.jar), among the runner's descendants. */
    private static Optional<ProcessHandle> jmeterOf(Process runner) {
        return runner.descendants()
                .filter(h -> h.info().commandLine().orElse("").contains("ApacheJMeter.jar"))
                .findFirst();
    }

    /** The runner's JMeter once {@code jtl} exists: the run that writes it has its JMeter loading. */
    private static Optional<ProcessHandle> awaitJmeter(Process runner, Path jtl, Path console) throws Exception {
        Optional<ProcessHandle> jmeter = Optional.empty();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline && (jmeter.isEmpty() || !Files.exists(jtl))) {
            Thread.sleep(100);
            jmeter = jmeterOf(runner);
        }
        assertTrue(jmeter.isPresent() && Files.exists(jtl), jtl + " and its JMeter: " + Files.readString(console));
        return jmeter;
    }

    @Test
    void aSecondRunIntoTheFolderIsRefusedAndAKilledRunnerLeavesNoLoadRunning() throws Exception {
        Path out = dir.resolve("run");
        Path console = dir.resolve("console.txt");
        Process runner =
                Cli.start(console, "run", experiment("killed", 18497, 14).toString(), "-o", out.toString());
        Optional<ProcessHandle> jmeter = awaitJmeter(runner, out.resolve("jtl/bare-r1.jtl"), console);

        // another runner, another port, the same folder
        Path console2 = dir.resolve("console2.txt");
        long t0 = System.nanoTime();
        int second = Cli.run(console2, 60, "run", experiment("second", 18498, 5).toString(), "-o", out.toString());
        long refusedMs = (System.nanoTime() - t0) / 1_000_000;
        String text2 = Files.readString(console2);
        assertEquals(2, second, text2);
        assertTrue(text2.contains("run directory: " + out + " is in use by another run (envbench run PID "), text2);
        assertTrue(text2.contains("give another run directory (-o)"), text2);
        assertFalse(Files.exists(out.resolve("jtl/second")), "nothing of the second run");
        System.out.println("second run refused in " + refusedMs + " ms");

        // the first run on record, the second's JMeter loading: then the runner dies
        jmeter = awaitJmeter(runner, out.resolve("jtl/bare-r2.jtl"), console);
        long pid = jmeter.get().pid();
        runner.destroyForcibly(); // SIGKILL: no shutdown hook runs
        assertTrue(runner.waitFor(10, TimeUnit.SECONDS));
        long killed = System.nanoTime();
        ProcessHandle j = jmeter.get();
        while (j.isAlive() && System.nanoTime() - killed < TimeUnit.SECONDS.toNanos(10)) {
            Thread.sleep(100);
        }
        long goneMs = (System.nanoTime() - killed) / 1_000_000;
        assertFalse(
                j.isAlive(),
                "JMeter (PID " + pid
                        + ") still loading 10 s after its runner was killed (its run had about 12 s to go: the reaper did not stop it)");
        System.out.println("JMeter gone " + goneMs + " ms after its runner's SIGKILL");
        long portDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        boolean answered = true;
        while (answered && System.nanoTime() < portDeadline) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), 18497), 500);
                Thread.sleep(200);
            } catch (IOException refused) {
                answered = false;
            }
        }
        assertFalse(answered, "the killed run's nginx still answers on 18497");

        // a row cut by the kill would be merged with the next one; --resume completes the run cleanly. The runs it
        // makes need not be as long as the killed one had to be (long enough to outlive a reaper that failed): the run
        // directory's experiment.yaml, which --resume reads, asks 3 s
        Files.writeString(out.resolve("runs.csv"), Files.readString(out.resolve("runs.csv")) + "1,bare,1,2026-");
        Path recorded = out.resolve("experiment.yaml");
        String yaml = Files.readString(recorded);
        assertTrue(yaml.contains("durationSeconds: 14"), yaml);
        Files.writeString(recorded, yaml.replace("durationSeconds: 14", "durationSeconds: 3"));
        Path console3 = dir.resolve("console3.txt");
        int resumed = Cli.run(console3, 180, "run", "--resume", out.toString());
        String text3 = Files.readString(console3);
        assertEquals(0, resumed, text3);
        List<String> rows = Files.readAllLines(out.resolve("runs.csv"));
        assertTrue(
                rows.stream()
                        .skip(1)
                        .allMatch(r -> r.split(",", -1).length == rows.get(0).split(",", -1).length),
                rows.toString());
        assertEquals(3, rows.stream().filter(r -> r.contains(",ok,")).count(), "r1, then r2 and r3 resumed: " + rows);
    }
}
