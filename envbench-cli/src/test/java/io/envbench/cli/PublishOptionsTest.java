package io.envbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code envbench run}'s publishing flags, wrong: each exits 2 within seconds, naming the flag and the fix, before
 * anything starts (no run folder). A bare-metal experiment, so the checks before a run need no Docker.
 */
class PublishOptionsTest {
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

    @TempDir
    Path dir;

    /** Runs {@code envbench run FILE -o DIR/never FLAGS...}; asserts exit 2, no stack trace, no folder; the error. */
    private String refused(String... flags) throws Exception {
        Path file = Files.writeString(dir.resolve("e.yaml"), """
                name: publish-flags
                target: nginx-static
                port: %d
                environments:
                  - name: bare
                    placement: bare
                load:
                  http:
                    path: /page-4k.html
                    durationSeconds: 2
                """.formatted(freePort()));
        Path never = dir.resolve("never");
        List<String> args =
                new ArrayList<>(List.of("run", file.toString(), "-o", never.toString(), "--root", ROOT.toString()));
        args.addAll(List.of(flags));
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        System.setOut(new PrintStream(o));
        System.setErr(new PrintStream(e));
        int code;
        long t0 = System.nanoTime();
        try {
            code = new CommandLine(new EnvBenchCli()).execute(args.toArray(String[]::new));
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        String text = e.toString();
        assertEquals(2, code, o + text);
        assertFalse(text.contains("\tat "), "no stack trace: " + text);
        assertFalse(Files.exists(never), "no run folder");
        assertTrue(ms < 10_000, "within seconds: " + ms + " ms");
        return text;
    }

    @Test
    void anEndpointOffLoopbackIsRefusedNamingTheFlag() throws Exception {
        String m = refused("--prometheus-port", "9270", "--prometheus-host", "0.0.0.0");
        assertTrue(m.startsWith("envbench run: --prometheus-host: '0.0.0.0' (0.0.0.0) is not a loopback address"), m);
        assertTrue(m.contains("give --prometheus-host 127.0.0.1 (or ::1, localhost)"), m);
    }

    @Test
    void aPortThatIsNoneIsRefusedNamingTheFlag() throws Exception {
        String m = refused("--prometheus-port", "70000");
        assertTrue(m.startsWith("envbench run: --prometheus-port: '70000' is not a TCP port"), m);
        assertTrue(m.contains("e.g. --prometheus-port 9270"), m);
    }

    @Test
    void aPortInUseIsRefusedBeforeAnyRun() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            int port = taken.getLocalPort();
            String m = refused("--prometheus-port", Integer.toString(port));
            assertTrue(
                    m.startsWith("envbench run: --prometheus-port: " + port + ": no Prometheus endpoint: port " + port
                            + " on 127.0.0.1 is in use"),
                    m);
            assertTrue(m.contains("e.g. --prometheus-port " + (port + 1)), m);
        }
    }

    @Test
    void anotherMachinesInfluxDbIsRefusedUnlessAllowed() throws Exception {
        String m = refused("--influxdb-url", "http://192.0.2.7:8086");
        assertTrue(
                m.startsWith("envbench run: --influxdb-url: 'http://192.0.2.7:8086': 192.0.2.7 (192.0.2.7) is not a"
                        + " loopback address"),
                m);
        assertTrue(m.contains("give --influxdb-allow-remote to write there"), m);
        String u = refused("--influxdb-url", "ftp://127.0.0.1/");
        assertTrue(u.contains("e.g. --influxdb-url http://127.0.0.1:8086"), u);
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
