package io.envbench.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import io.envbench.base.container.ContainerOptions;
import io.envbench.base.environment.Endpoint;
import io.envbench.base.environment.RunSession;
import io.envbench.base.environment.RunningTarget;
import io.envbench.base.recipe.TargetRecipe;
import io.envbench.launch.bare.BareMetalLauncher;
import io.envbench.launch.docker.DockerConnection;
import io.envbench.launch.docker.DockerDaemon;
import io.envbench.launch.docker.DockerLauncher;
import io.envbench.measure.results.Sample;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The real DayTrader 2.1.7 (targets/daytrader, assembled at setup from Maven Central) as a host process and in a
 * container on Docker's bridge, started by the launchers from its recipe, its database (daytrader_default on the
 * host's EnvBench cluster, db.sh) rebuilt through DayTrader's own config servlet, then loaded by
 * testplans/daytrader.jmx in the assembled JMeter: first 6 s at a low fixed rate (every page the right DayTrader
 * page, logins succeed, no error page), then 9 s closed loop at 4 threads (the last 5 s counted). Prints time to
 * ready, first page, RSS and requests per second, bare next to container.
 */
@Isolated
class DaytraderTargetTest extends DockerEndToEndTest {
    static final Path DAYTRADER = Jmeter.ROOT.resolve("targets/daytrader");
    static final Path PLAN = Jmeter.ROOT.resolve("testplans/daytrader.jmx");
    static final Duration READY = Duration.ofSeconds(90);
    static final List<String> LOOP =
            List.of("login", "home", "quotes", "buy", "portfolio", "sell", "account", "logout");
    /** Figures per placement, printed side by side at the end. */
    static final Map<String, Map<String, String>> FIGURES = new LinkedHashMap<>();

    @BeforeAll
    static void assembledAndDatabaseUp() throws Exception {
        assertEquals(
                0,
                run(List.of(DAYTRADER.resolve("assemble.sh").toString(), "--check")).exitCode,
                "DayTrader is not assembled in " + DAYTRADER.resolve("dist")
                        + ": run ./envbench setup (or targets/daytrader/assemble.sh)");
        Result db = run(List.of(DAYTRADER.resolve("db.sh").toString(), "create", "default"));
        assertEquals(0, db.exitCode, db.output);
    }

    @AfterAll
    static void printFigures() {
        System.out.println(
                "DayTrader, bare vs container (4 threads closed loop, 5 s after a 4 s warm-up; a 6 s low-rate run before):");
        FIGURES.forEach((env, f) -> System.out.println("  " + env + ": " + f));
    }

    @ParameterizedTest
    @ValueSource(strings = {"bare", "docker-bridge"})
    void daytraderServesItsTradingMixToThePlanAndLeavesNothing(String env) throws Exception {
        TargetRecipe recipe = TargetRecipe.load(Jmeter.ROOT.resolve("targets"), "daytrader");
        int port = env.equals("bare") ? 18380 : 18381;
        Map<String, String> figures = new LinkedHashMap<>();
        RunningTarget t = env.equals("bare")
                ? new BareMetalLauncher().start(env, recipe.bare(port, READY))
                : new DockerLauncher(new DockerConnection(DockerDaemon.fromEnvironment()))
                        .start(env, recipe.container(ContainerOptions.builder().build(), port, READY));
        long pid;
        try (t) {
            pid = t.pid();
            figures.put(
                    "ready (first 200 on /daytrader/config)", t.startToReady().toMillis() + " ms");
            // the database: on the host at 127.0.0.1 for a host process, at the bridge's gateway (the host) for a
            // container
            String dbAt = env.equals("bare") ? "127.0.0.1:5433" : bridgeGateway() + ":5433";
            assertTrue(
                    t.logs(200).contains("database daytrader_default at " + dbAt),
                    "DayTrader uses " + dbAt + ": " + t.logs(5));
            Endpoint e = t.endpoint().orElseThrow();
            String base = "http://" + e;

            long r0 = System.nanoTime();
            Result rebuild =
                    run(List.of(DAYTRADER.resolve("db.sh").toString(), "rebuild", "default", base, "200", "400"));
            assertEquals(0, rebuild.exitCode, rebuild.output + "\nDayTrader's output:\n" + t.logs(40));
            figures.put("database rebuilt (200 users, 400 quotes)", ms(r0) + " ms");

            long f0 = System.nanoTime();
            String home = get(base + "/daytrader/app?action=login&uid=uid:199&passwd=xxx");
            figures.put("first login page (JSPs compiled on first use)", ms(f0) + " ms");
            assertTrue(
                    home.contains("DayTrader Home") && home.contains("uid:199"),
                    "a logged-in home page: " + home.substring(0, Math.min(400, home.length())));

            // 6 s at a low fixed rate: every page right
            Path jtl = dir.resolve(env + "-low.jtl");
            List<Sample> low = Jmeter.run(
                    PLAN,
                    jtl,
                    List.of(
                            "-Jenvbench.port=" + port,
                            "-Jenvbench.run.environment=" + env,
                            "-Jenvbench.threads=4",
                            "-Jenvbench.duration.seconds=6",
                            "-Jenvbench.rate.per.minute=1200"));
            assertEquals(
                    0,
                    low.stream().filter(s -> !s.success()).count(),
                    "every page the right DayTrader page: " + failures(jtl));
            assertEquals(
                    LOOP.stream().sorted().toList(),
                    low.stream().map(Sample::label).distinct().sorted().toList(),
                    "the whole mix ran");
            assertEquals(
                    List.of(env),
                    low.stream().map(Sample::environment).distinct().toList(),
                    "every sample tagged " + env);
            long logins = low.stream().filter(s -> s.label().equals("login")).count();
            assertTrue(logins >= 4, "each of 4 threads logged in (its own user): " + logins + " logins");
            double lowRate = low.size() / 6.0;
            assertTrue(lowRate > 10 && lowRate < 30, "about 20 requests/s at rate.per.minute=1200: " + lowRate);
            figures.put("low-rate run", low.size() + " requests, " + logins + " logins, 0 errors");

            // closed loop, 4 threads: the throughput after a 4 s warm-up
            Path satJtl = dir.resolve(env + "-closed.jtl");
            List<Sample> closed = Jmeter.run(
                    PLAN,
                    satJtl,
                    List.of(
                            "-Jenvbench.port=" + port,
                            "-Jenvbench.run.environment=" + env,
                            "-Jenvbench.threads=4",
                            "-Jenvbench.duration.seconds=9"));
            assertEquals(
                    0,
                    closed.stream().filter(s -> !s.success()).count(),
                    "no errors at saturation: " + failures(satJtl));
            long first = closed.stream().mapToLong(Sample::startMs).min().orElseThrow();
            List<Sample> counted =
                    closed.stream().filter(s -> s.startMs() >= first + 4_000).toList();
            long last = counted.stream()
                    .mapToLong(s -> s.startMs() + s.elapsedMs())
                    .max()
                    .orElseThrow();
            double perSecond = counted.size() * 1000.0 / (last - first - 4_000);
            double meanMs =
                    counted.stream().mapToLong(Sample::elapsedMs).average().orElseThrow();
            figures.put("closed loop 4 threads", String.format("%.0f req/s, mean %.2f ms", perSecond, meanMs));
            figures.put("RSS after load", rssMb(pid) + " MB");
            assertTrue(perSecond > 50, "DayTrader answers more than 50 requests/s on 4 threads: " + perSecond);
        }
        assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "the DayTrader JVM stopped");
        try (var s = Files.list(Path.of(System.getProperty("java.io.tmpdir"), "envbench", "bare"))) {
            assertEquals(
                    List.of(),
                    s.filter(p -> p.getFileName().toString().equals(env + "-" + RunSession.runId()))
                            .toList(),
                    "no STATE folder (CATALINA_BASE) left");
        } catch (NoSuchFileException none) {
            // nothing was ever started bare here
        }
        FIGURES.put(env, figures);
        System.out.println("DayTrader " + env + ": " + figures);
    }

    /** The JTL's failed rows (label, code, message, assertion text), for a failure's message. */
    static List<String> failures(Path jtl) throws IOException {
        return Jmeter.lines(jtl).stream()
                .filter(l -> l.contains(",false,"))
                .limit(5)
                .toList();
    }

    /** docker0's address: the host as a container on the default bridge sees it. */
    static String bridgeGateway() throws Exception {
        return Collections.list(NetworkInterface.getByName("docker0").getInetAddresses()).stream()
                .filter(a -> a instanceof Inet4Address)
                .map(InetAddress::getHostAddress)
                .findFirst()
                .orElseThrow();
    }

    static long ms(long t0) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    }

    static long rssMb(long pid) throws IOException {
        String rss = Files.readAllLines(Path.of("/proc", Long.toString(pid), "status")).stream()
                .filter(l -> l.startsWith("VmRSS:"))
                .findFirst()
                .orElseThrow();
        return Long.parseLong(rss.replaceAll("\\D", "")) / 1024;
    }

    static String get(String url) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient()
                .send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), url);
        return r.body();
    }

    record Result(int exitCode, String output) {}

    static Result run(List<String> cmd) throws Exception {
        Process p = new ProcessBuilder(new ArrayList<>(cmd))
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(300, TimeUnit.SECONDS), cmd + " did not end");
        return new Result(p.exitValue(), out.lines().collect(Collectors.joining("\n")));
    }
}
