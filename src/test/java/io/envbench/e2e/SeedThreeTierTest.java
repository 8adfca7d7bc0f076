package io.envbench.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Study 001 (docs/studies.md#study-001) (a three-tier login site with the study's Docker options) shortened, through
 * {@code envbench run} as CI runs it: the study's own file and plan (seed-001-isucon: nginx, the login app, MariaDB), one run of 20 s for five of its configurations (the row
 * with Docker's userland proxy off among them: a real restart of the daemon before and after it, allowed with
 * --allow-docker-restart, the daemon's configuration as it was at the end, no docker-proxy in that row), which between
 * them take every path services find each other by: all on the host; nginx in a bridged container reaching the host's
 * app on the host's bridge address; MariaDB in a bridged container on a volume, reached by the host's app
 * through its port published on 127.0.0.1; MariaDB with host networking and its data in the copy-on-write layer. Every
 * run is ok with no error, each service ran where its configuration put it, docker-proxy's CPU is in the report, and
 * nothing is left: no container, network or volume, no nginx or database folder, no host process of the study's.
 */
@Isolated
class SeedThreeTierTest extends DockerEndToEndTest {
    static final Path STUDY = Jmeter.ROOT.resolve("testplans/experiments/seed-001-isucon.yaml");
    static final List<String> CONFIGURATIONS =
            List.of("default", "nginx-bridge", "nginx-bridge-noproxy", "mariadb-bridge", "mariadb-host-cow");
    static final Path DAEMON_JSON = Path.of("/etc/docker/daemon.json");

    /** Besides nothing labelled (checked by {@link DockerEndToEndTest}): no folder or host process of the study's own. */
    @AfterEach
    void nothingOfTheStudyIsLeft() throws Exception {
        try (Stream<Path> scratch = Files.list(Path.of("/var/tmp"))) {
            assertEquals(
                    List.of(),
                    scratch.filter(p -> p.getFileName().toString().matches("envbench-(mariadb|nginx)\\..*"))
                            .toList(),
                    "database and nginx folders");
        }
        assertEquals(
                List.of(),
                ProcessHandle.allProcesses()
                        .filter(p -> p.info()
                                .commandLine()
                                .orElse("")
                                .matches(".*(mariadbd|LoginApp|app\\.sh|mariadb\\.sh|nginx\\.sh|envbench-nginx).*"))
                        .map(p -> p.pid() + " " + p.info().commandLine().orElse(""))
                        .toList(),
                "host processes");
    }

    @Test
    void fiveConfigurationsPlaceEachTierWhereTheySayAndLeaveNothing() throws Exception {
        String yaml = Files.readString(STUDY)
                .replace(
                        "plan: ../seed-001-isucon.jmx", "plan: " + Jmeter.ROOT.resolve("testplans/seed-001-isucon.jmx"))
                .replaceFirst("repetitions: 4 .*", "repetitions: 1")
                .replace("warmupSeconds: 10", "warmupSeconds: 1")
                .replace("durationSeconds: 40", "durationSeconds: 3")
                .replace("envbench.threads: 16", "envbench.threads: 8");
        // four of the six configurations: each is an environment entry of its own, from "  - name: X" to the next
        StringBuilder kept = new StringBuilder();
        boolean keep = true;
        for (String line : yaml.split("\n", -1)) {
            if (line.startsWith("  - name: ")) {
                keep = CONFIGURATIONS.contains(
                        line.substring("  - name: ".length()).split("\\s")[0]);
            } else if (!line.startsWith(" ")) {
                keep = true;
            }
            if (keep) {
                kept.append(line).append('\n');
            }
        }
        yaml = kept.toString();
        assertTrue(
                yaml.contains("repetitions: 1") && yaml.contains("durationSeconds: 3") && !yaml.contains("nginx-host"),
                yaml);
        Path file = dir.resolve("seed-001-short.yaml");
        Files.writeString(file, yaml);
        Path out = dir.resolve("run");
        Path console = dir.resolve("console.txt");
        byte[] daemonJson = Files.exists(DAEMON_JSON) ? Files.readAllBytes(DAEMON_JSON) : null;
        long t0 = System.nanoTime();
        int exit = Cli.run(console, 500, "run", file.toString(), "-o", out.toString(), "--allow-docker-restart");
        String text = Files.readString(console);
        System.out.printf(
                "short three-tier study: %d runs in %.1f s%n", CONFIGURATIONS.size(), (System.nanoTime() - t0) / 1e9);
        assertEquals(0, exit, text);

        List<String> runs = Files.readAllLines(out.resolve("runs.csv"));
        assertEquals(
                CONFIGURATIONS,
                runs.subList(1, runs.size()).stream().map(l -> l.split(",")[1]).toList(),
                String.join("\n", runs));
        assertTrue(runs.stream().skip(1).allMatch(l -> l.split(",")[5].equals("ok")), String.join("\n", runs));
        // where each service ran: the target log's first line describes them
        assertPlaced(out, "default", "db: host process", "app: host process", "web: host process");
        assertPlaced(
                out,
                "nginx-bridge",
                "db: host process",
                "app: host process",
                "web: container",
                "network envbench-nginx-bridge-net-");
        assertPlaced(out, "nginx-bridge-noproxy", "web: container", "network envbench-nginx-bridge-noproxy-net-");
        // the row with the userland proxy off ran so, the others with the daemon's own settings, and the daemon is as
        // it was
        List<String> daemon = Files.readAllLines(out.resolve("docker-daemon.csv"));
        System.out.println("docker-daemon.csv: " + daemon);
        for (String env : CONFIGURATIONS) {
            String line = daemon.stream()
                    .filter(l -> l.startsWith(env + "-r1,"))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError(env + " in " + daemon));
            assertTrue(line.endsWith(env.endsWith("noproxy") ? "userland-proxy=false" : "userland-proxy=true"), line);
        }
        assertEquals(daemonJson == null, !Files.exists(DAEMON_JSON), "daemon.json as it was");
        if (daemonJson != null) {
            assertTrue(Arrays.equals(daemonJson, Files.readAllBytes(DAEMON_JSON)), "daemon.json as it was");
        }
        assertTrue(text.contains("docker daemon: Docker daemon settings put back"), text);
        assertPlaced(
                out,
                "mariadb-bridge",
                "db: container",
                "app: host process",
                "web: host process",
                "network envbench-mariadb-bridge-net-");
        assertPlaced(out, "mariadb-host-cow", "db: container", "app: host process", "web: host process");

        List<String[]> rows = Files.readAllLines(out.resolve("report/comparison.csv")).stream()
                .skip(1)
                .map(l -> l.split(",", -1))
                .toList();
        for (String env : CONFIGURATIONS) {
            String[] total = rows.stream()
                    .filter(r -> r[0].equals(env) && r[1].equals("TOTAL"))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no TOTAL row for " + env));
            assertTrue(Long.parseLong(total[2]) >= 20, env + ": count " + total[2]);
            assertEquals(0.0, Double.parseDouble(total[10]), env + ": error %");
            System.out.printf("%s: count %s, average %s ms, throughput %s/s%n", env, total[2], total[3], total[11]);
        }
        String md = Files.readString(out.resolve("report/comparison.md"));
        assertTrue(
                md.contains("nginx-bridge-noproxy: userland-proxy=false")
                        && md.contains("default: userland-proxy=true"),
                md);
        // the resources table's rows (the services table after it has rows of the same environments)
        int from = md.indexOf("## Resources over the run");
        int to = md.indexOf("\n## ", from + 1);
        String resources = md.substring(from, to < 0 ? md.length() : to);
        String noProxyRow = resources
                .lines()
                .filter(l -> l.startsWith("| nginx-bridge-noproxy |"))
                .findFirst()
                .orElseThrow(() -> new AssertionError(resources));
        assertEquals(
                0.0,
                Double.parseDouble(noProxyRow.split("\\|")[5].trim().split(" / ")[0]),
                "no docker-proxy without the userland proxy: " + noProxyRow);
        String proxyRow = resources
                .lines()
                .filter(l -> l.startsWith("| nginx-bridge |"))
                .findFirst()
                .orElseThrow(() -> new AssertionError(resources));
        System.out.println("resources of nginx-bridge: " + proxyRow);
        double proxyCpu = Double.parseDouble(proxyRow.split("\\|")[5].trim().split(" / ")[0]);
        assertTrue(proxyCpu > 0, "docker-proxy carried nginx-bridge's load: " + proxyRow);
        // each tier apart, wherever it runs: nginx, the app and MariaDB of nginx-bridge
        String services = md.substring(md.indexOf("## Services apart (metrics file)"));
        for (String service : List.of("web", "app", "db")) {
            assertTrue(
                    services.lines().anyMatch(l -> l.startsWith("| nginx-bridge | " + service + " | ")),
                    service + ":\n" + services);
        }
    }

    private static void assertPlaced(Path out, String env, String... parts) throws Exception {
        String first = Files.readString(out.resolve("logs/" + env + "-r1.target.log"))
                .lines()
                .findFirst()
                .orElse("");
        for (String p : parts) {
            assertTrue(first.contains(p), env + ": '" + p + "' in " + first);
        }
    }
}
