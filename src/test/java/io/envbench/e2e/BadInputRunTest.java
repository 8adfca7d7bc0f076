package io.envbench.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Bad input given to the real {@code envbench run} and {@code envbench report}: each exits 2 within seconds with a
 * message naming the field or file and the fix, no stack trace, no run folder and nothing labelled in Docker.
 */
@Isolated
class BadInputRunTest extends DockerEndToEndTest {
    static final int PORT = 18490;
    static final String EXPERIMENT = """
            name: bad-input
            target: nginx-static
            port: 18490
            environments:
              - name: bare
                placement: bare
              - name: docker
                placement: docker
                network: bridge
            repetitions: 2
            load:
              http:
                path: /page-4k.html
                threads: 2
                durationSeconds: 2
            """;

    private static String with(String old, String replacement) {
        assertTrue(EXPERIMENT.contains(old), old);
        return EXPERIMENT.replace(old, replacement);
    }

    /** Runs {@code envbench run FILE -o DIR/never EXTRA...}; asserts exit 2, the fragments, no stack trace and no folder. */
    private String refused(String yaml, List<String> extra, String... fragments) throws Exception {
        Path file = dir.resolve("experiment.yaml");
        Files.writeString(file, yaml);
        Path never = dir.resolve("never");
        Path console = dir.resolve("console.txt");
        List<String> args = new ArrayList<>(List.of("run", file.toString(), "-o", never.toString()));
        args.addAll(extra);
        long t0 = System.nanoTime();
        int exit = Cli.run(console, 60, args.toArray(String[]::new));
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        String text = Files.readString(console);
        System.out.printf("refused in %d ms (JVM start included): %s", ms, text);
        assertEquals(2, exit, text);
        for (String f : fragments) {
            assertTrue(text.contains(f), "expected '" + f + "' in:\n" + text);
        }
        assertFalse(text.contains("\tat ") || text.contains("Exception"), "no stack trace:\n" + text);
        assertTrue(ms < TimeUnit.SECONDS.toMillis(20), "within seconds: " + ms + " ms");
        assertFalse(Files.exists(never), "no run folder, not even half-made");
        return text;
    }

    @Test
    void fieldsBeyondTheirLimitsExitTwoNamingTheFieldAndTheLimit() throws Exception {
        refused(
                with("    network: bridge", "    cpuset: 0-2147483647"),
                List.of(),
                "line 9",
                "environments[1].cpuset",
                "largest CPU number Linux supports (8191)");
        refused(
                with("repetitions: 2", "repetitions: 2147483648"),
                List.of(),
                "line 10",
                "repetitions: '2147483648' is too large");
        refused(with("threads: 2", "threads: 1000000"), List.of(), "load.http.threads", "at most 10000");
        refused(EXPERIMENT, List.of("--repetitions", "5000"), "--repetitions: 5000 is above 1000");
        refused(
                EXPERIMENT,
                List.of("--metrics-interval-ms", "99999999999"),
                "--metrics-interval-ms: 99999999999 is above 3600000");
    }

    @Test
    void namesThatClimbOutOrCollideExitTwo() throws Exception {
        refused(
                with("name: bad-input", "name: '../escape'"),
                List.of(),
                "line 1: name: '../escape' is not a valid name");
        assertFalse(Files.exists(Jmeter.ROOT.resolve("escape")), "nothing made beside the results folder");
        refused(
                with("target: nginx-static", "target: '../targets/nginx-static'"),
                List.of(),
                "target:",
                "not a recipe's folder name");
        refused(
                with("  - name: docker\n", "  - name: Bare\n"),
                List.of(),
                "environments[1].name",
                "'Bare' and 'bare'",
                "differ only in case");
    }

    /** Study 001's (docs/studies.md#study-001) row with the userland proxy off restarts the daemon: never without
     * --allow-docker-restart, nothing changed.
     */
    @Test
    void aDaemonSettingThatNeedsARestartIsRefusedUnlessAllowed() throws Exception {
        Path daemonJson = Path.of("/etc/docker/daemon.json");
        byte[] before = Files.exists(daemonJson) ? Files.readAllBytes(daemonJson) : null;
        refused(
                with("    network: bridge", "    network: bridge\n    dockerDaemon: { userlandProxy: false }"),
                List.of(),
                "environments[1].dockerDaemon",
                "userland-proxy=false",
                "--allow-docker-restart");
        refused(
                with("    placement: bare\n", "    placement: bare\n    dockerDaemon: { userlandProxy: false }\n"),
                List.of(),
                "environments[0].dockerDaemon",
                "only applies to an environment with a container");
        refused(
                with("    network: bridge", "    network: bridge\n    dockerDaemon: { userlandProxy: maybe }"),
                List.of(),
                "environments[1].dockerDaemon.userlandProxy",
                "neither true nor false");
        assertEquals(before == null, !Files.exists(daemonJson), "the daemon's configuration file as it was");
        if (before != null) {
            assertTrue(
                    Arrays.equals(before, Files.readAllBytes(daemonJson)), "the daemon's configuration file as it was");
        }
    }

    @Test
    void aBindSourceThatDoesNotExistIsNamedAndNeverCreated() throws Exception {
        Path missing = dir.resolve("html-that-is-not-there");
        refused(
                with(
                        "    network: bridge",
                        "    volume: { type: bind, source: html-that-is-not-there, path: /usr/share/nginx/html }"),
                List.of(),
                "environments[1].volume.source",
                "does not exist (looked for " + missing + "); create the folder first");
        assertFalse(Files.exists(missing), "no folder made");
    }

    @Test
    void aPortTakenByAnotherProcessIsRefusedBeforeAnythingStarts() throws Exception {
        Process other = new ProcessBuilder(
                        "python3",
                        "-c",
                        "import socket,time; s=socket.socket(); s.bind((\"127.0.0.1\", " + PORT
                                + ")); s.listen(); print(\"listening\", flush=True); time.sleep(120)")
                .redirectErrorStream(true)
                .start();
        try {
            assertEquals("listening", new BufferedReader(new InputStreamReader(other.getInputStream())).readLine());
            refused(EXPERIMENT, List.of(), "port: " + PORT + " is already in use on this host", "choose another port");
        } finally {
            other.destroyForcibly().waitFor();
        }
    }

    @Test
    void aDamagedJtlGivenToTheReportIsNamedWithItsLine() throws Exception {
        Path jtl = dir.resolve("bare-r1.jtl");
        Files.writeString(
                jtl,
                "timeStamp,elapsed,label,responseCode,success,bytes,sentBytes,envbench.env\n"
                        + "1700000000000,12,GET page,200,true,4096,120,bare\n"
                        + "1700000000100,1\u0000\u0000\u0000\n"
                        + "1700000000200,12,GET page,200,true,4096,120,bare\n");
        Path console = dir.resolve("report.txt");
        int exit = Cli.run(
                console,
                60,
                "report",
                jtl.toString(),
                "-o",
                dir.resolve("report").toString());
        String text = Files.readString(console);
        assertEquals(2, exit, text);
        assertTrue(text.contains(jtl + " line 3: has 2 fields, the header 8; the file is damaged"), text);
        assertFalse(text.contains("\tat "), text);
        assertFalse(Files.exists(dir.resolve("report/index.html")), "no report from half a file");
    }
}
