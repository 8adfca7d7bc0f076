package io.envbench.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import io.envbench.launch.docker.DockerRequired;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Two {@code ./envbench} started together do not race in apt-get, mvn or image builds: while one holds the set-up lock,
 * the other says it waits, and goes on once the lock is free (here an image check of one target, which builds nothing).
 */
@Isolated
class SetupLockTest {
    @TempDir
    Path dir;

    @Test
    void aSecondLauncherWaitsForTheSetUpOfTheFirst() throws Exception {
        DockerRequired.check();
        Path lock = Jmeter.ROOT.resolve(".envbench-setup.lock");
        Process holder = new ProcessBuilder("flock", lock.toString(), "sleep", "4")
                .redirectErrorStream(true)
                .start();
        Thread.sleep(500); // the holder has the lock
        Path out = dir.resolve("images.txt");
        long t0 = System.nanoTime();
        Process second = new ProcessBuilder(
                        Jmeter.ROOT.resolve("envbench").toString(), "images", "--no-versions", "nginx-static")
                .redirectErrorStream(true)
                .redirectOutput(out.toFile())
                .start();
        assertTrue(second.waitFor(240, TimeUnit.SECONDS), "the second launcher ended");
        long waitedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        String text = Files.readString(out);
        System.out.println("second ./envbench ended after " + waitedMs + " ms:\n" + text);
        assertEquals(0, second.exitValue(), text);
        assertTrue(text.contains("waiting for another ./envbench that is setting up"), text);
        assertTrue(waitedMs >= 3000, "it went on only once the holder let go: " + waitedMs + " ms");
        assertTrue(holder.waitFor(10, TimeUnit.SECONDS));
        Process free = new ProcessBuilder("flock", "-n", lock.toString(), "true").start();
        assertTrue(free.waitFor(10, TimeUnit.SECONDS));
        assertEquals(0, free.exitValue(), "nothing the launcher left running keeps the lock");
    }

    /** A target that builds no image, or an unknown option, is named with exit 2 before anything is set up. */
    @Test
    void setupOfAnUnknownTargetIsRefusedAtOnce() throws Exception {
        for (String bad : new String[] {"nosuch", "--bogus"}) {
            Path out = dir.resolve("setup-" + bad.replace("-", "") + ".txt");
            long t0 = System.nanoTime();
            Process p = new ProcessBuilder(Jmeter.ROOT.resolve("envbench").toString(), "setup", bad)
                    .redirectErrorStream(true)
                    .redirectOutput(out.toFile())
                    .start();
            assertTrue(p.waitFor(30, TimeUnit.SECONDS), "ended");
            String said = Files.readString(out);
            assertEquals(2, p.exitValue(), said);
            assertTrue(
                    said.contains("nginx-static") && !said.contains("apt-get"),
                    "names the targets, installs nothing: " + said);
            System.out.printf(
                    "./envbench setup %s: exit 2 in %d ms: %s", bad, (System.nanoTime() - t0) / 1_000_000, said);
        }
    }

    /** Asking run or capacity for their usage prints it and sets nothing up: no apt-get, no image. */
    @Test
    void helpSetsNothingUp() throws Exception {
        for (String command : new String[] {"run", "capacity"}) {
            Path out = dir.resolve("help-" + command + ".txt");
            Process p = new ProcessBuilder(Jmeter.ROOT.resolve("envbench").toString(), command, "--help")
                    .redirectErrorStream(true)
                    .redirectOutput(out.toFile())
                    .start();
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "ended");
            String said = Files.readString(out);
            assertEquals(0, p.exitValue(), said);
            assertTrue(
                    said.contains("Usage: envbench " + command) && !said.contains("[envbench images]"),
                    "prints its usage, sets nothing up: " + said);
        }
    }
}
