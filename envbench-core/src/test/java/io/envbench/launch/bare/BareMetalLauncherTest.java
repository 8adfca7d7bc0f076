package io.envbench.launch.bare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.envbench.base.environment.RunSession;
import io.envbench.base.environment.RunningTarget;
import io.envbench.base.environment.TargetStartException;
import io.envbench.base.readiness.Readiness;
import io.envbench.base.recipe.BareMetalTarget;
import io.envbench.base.recipe.TargetRecipe;
import io.envbench.base.recipe.TargetRecipeTest;
import io.envbench.base.settings.InvalidSettingException;
import io.envbench.launch.docker.DockerLauncherTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real nginx from Debian as a host process. */
class BareMetalLauncherTest {
    static final int PORT = 18182;

    @TempDir
    Path state;

    @Test
    void runsTheRecipeAsAHostProcessAndStopsItsWholeTree() throws Exception {
        BareMetalTarget b =
                TargetRecipe.load(TargetRecipeTest.TARGETS, "nginx-static").bare(PORT, Duration.ofSeconds(20));
        RunningTarget t = new BareMetalLauncher(state).start("test-bare", b);
        List<ProcessHandle> tree = ProcessHandle.of(t.pid()).get().descendants().toList();
        assertFalse(tree.isEmpty(), "nginx workers");
        assertTrue(ProcessHandle.of(t.pid()).get().info().command().orElse("").endsWith("nginx"));
        assertEquals(
                65536,
                DockerLauncherTest.get(t.endpoint().orElseThrow(), "/page-64k.html")
                        .length());
        assertTrue(Files.exists(state.resolve(t.pid() + ".state")));
        t.stop();
        assertFalse(ProcessHandle.of(t.pid()).map(ProcessHandle::isAlive).orElse(false));
        assertTrue(tree.stream().noneMatch(ProcessHandle::isAlive));
        assertFalse(Files.exists(state.resolve(t.pid() + ".state")));
        try (var left = Files.list(state)) {
            assertEquals(
                    List.of(),
                    left.toList(),
                    "a clean stop leaves no state file, log or STATE folder (nginx.conf, pid, temp)");
        }
    }

    @Test
    void aStoppedTargetStillShowsItsLastOutput() throws Exception {
        BareMetalTarget b = new BareMetalTarget(
                List.of("sh", "-c", "echo hello from the target; exec sleep 60"),
                state,
                Map.of(),
                0,
                Readiness.logLine("hello from the target", Duration.ofSeconds(5)));
        RunningTarget t = new BareMetalLauncher(state).start("talker", b);
        t.stop();
        assertTrue(t.logs(10).contains("hello from the target"), t.logs(10));
        try (var left = Files.list(state)) {
            assertEquals(
                    List.of(), left.filter(f -> !f.toString().endsWith(".sh")).toList());
        }
    }

    @Test
    void aBusyPortIsRefused() throws Exception {
        try (ServerSocket busy = new ServerSocket()) {
            busy.bind(new InetSocketAddress("127.0.0.1", PORT));
            BareMetalTarget b =
                    TargetRecipe.load(TargetRecipeTest.TARGETS, "nginx-static").bare(PORT, Duration.ofSeconds(5));
            assertEquals(
                    "port",
                    assertThrows(InvalidSettingException.class, () -> new BareMetalLauncher(state).start("x", b))
                            .field());
        }
    }

    @Test
    void aProcessThatExitsFailsTheStartWithItsOutput() {
        BareMetalTarget b = new BareMetalTarget(
                List.of("sh", "-c", "echo no such config >&2; exit 4"),
                state,
                Map.of(),
                PORT,
                Readiness.tcp(Duration.ofSeconds(5)));
        TargetStartException e =
                assertThrows(TargetStartException.class, () -> new BareMetalLauncher(state).start("x", b));
        assertTrue(
                e.getMessage().contains("exited with code 4") && e.getMessage().contains("no such config"),
                e.getMessage());
    }

    @Test
    void processesOfAKilledRunAreStoppedByTheNextStart() throws Exception {
        Process orphan = new ProcessBuilder("sleep", "300").start();
        Process deadOwner = new ProcessBuilder("true").start();
        deadOwner.waitFor();
        Properties p = new Properties();
        p.putAll(RunSession.labels("killed"));
        p.setProperty(RunSession.LABEL_RUN, "deadrun2");
        p.setProperty(RunSession.LABEL_OWNER_PID, Long.toString(deadOwner.pid()));
        p.setProperty("pid", Long.toString(orphan.pid()));
        p.setProperty(
                "startMillis", Long.toString(orphan.info().startInstant().get().toEpochMilli()));
        try (var out = Files.newOutputStream(state.resolve(orphan.pid() + ".state"))) {
            p.store(out, null);
        }
        Files.createDirectories(state.resolve("killed-deadrun2/logs"));
        Files.writeString(state.resolve("killed-deadrun2.log"), "its output");
        Files.writeString(state.resolve("other-liverun.log"), "another run's output");
        assertEquals(1, new BareMetalLauncher(state).reapLeftovers());
        assertTrue(orphan.waitFor(10, TimeUnit.SECONDS));
        try (var left = Files.list(state)) {
            assertEquals(
                    List.of(state.resolve("other-liverun.log")),
                    left.toList(),
                    "the killed run's log and STATE folder go too");
        }
    }

    /**
     * Readiness that another process could answer: the target starts a stranger (detached, so not of its process tree)
     * that takes the port after EnvBench found it free, and never listens itself. The TCP check is answered, by the
     * stranger: the start fails naming it, and leaves nothing of the target behind.
     */
    @Test
    void aPortAnsweredByAnotherProcessFailsTheStartNamingIt() throws Exception {
        int port = PORT + 3;
        String stranger =
                "setsid -f python3 -c 'import socket,time; s=socket.socket(); s.setsockopt(socket.SOL_SOCKET, "
                        + "socket.SO_REUSEADDR, 1); s.bind((\"127.0.0.1\", " + port + ")); s.listen(); time.sleep(60)'";
        BareMetalTarget b = new BareMetalTarget(
                List.of("sh", "-c", stranger + "; exec sleep 60"),
                state,
                Map.of(),
                port,
                Readiness.tcp(Duration.ofSeconds(10)));
        long t0 = System.nanoTime();
        TargetStartException e =
                assertThrows(TargetStartException.class, () -> new BareMetalLauncher(state).start("impostor", b));
        System.out.printf("a stranger on the port: start refused in %d ms%n", (System.nanoTime() - t0) / 1_000_000);
        try {
            assertTrue(e.getMessage().contains("port " + port + " is answered by PID "), e.getMessage());
            assertTrue(e.getMessage().contains("not by the target"), e.getMessage());
        } finally {
            // the stranger is the test's own doing: stop it by the PID the message names
            Matcher m = Pattern.compile("answered by PID (\\d+)").matcher(e.getMessage());
            if (m.find()) {
                ProcessHandle.of(Long.parseLong(m.group(1))).ifPresent(ProcessHandle::destroyForcibly);
            }
        }
        try (var left = Files.list(state)) {
            assertEquals(List.of(), left.toList(), "nothing of the target is left");
        }
    }

    /** A port another process holds before the start: refused before anything runs, naming the port. */
    @Test
    void aPortTakenByAnotherProcessBeforeTheStartIsRefused() throws Exception {
        int port = PORT + 4;
        Process other = new ProcessBuilder(
                        "python3",
                        "-c",
                        "import socket,time; s=socket.socket(); s.bind((\"127.0.0.1\", " + port
                                + ")); s.listen(); print(\"listening\", flush=True); time.sleep(60)")
                .redirectErrorStream(true)
                .start();
        try {
            assertEquals("listening", new BufferedReader(new InputStreamReader(other.getInputStream())).readLine());
            BareMetalTarget b =
                    TargetRecipe.load(TargetRecipeTest.TARGETS, "nginx-static").bare(port, Duration.ofSeconds(5));
            InvalidSettingException e =
                    assertThrows(InvalidSettingException.class, () -> new BareMetalLauncher(state).start("x", b));
            assertEquals(
                    "port: " + port + " is already in use on this host; stop what listens there (ss -ltnp 'sport = :"
                            + port + "') or choose another port",
                    e.getMessage());
            assertTrue(Files.notExists(state) || Files.list(state).findAny().isEmpty(), "nothing started");
        } finally {
            other.destroyForcibly().waitFor();
        }
    }
}
