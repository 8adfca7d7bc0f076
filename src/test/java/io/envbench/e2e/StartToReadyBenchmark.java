package io.envbench.e2e;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import io.envbench.base.container.ContainerOptions;
import io.envbench.base.container.NetworkMode;
import io.envbench.base.definition.EnvironmentDefinition;
import io.envbench.base.environment.RunSession;
import io.envbench.base.environment.RunningTarget;
import io.envbench.control.registry.EnvironmentRegistry;
import io.envbench.launch.docker.DockerDaemon;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Benchmark (run by {@code ./envbench bench}, not by the test suite): start-to-ready of each environment
 * through EnvBench next to the plain way (the docker CLI's {@code docker run}, or the script by hand)
 * with the same readiness poll, side by side in one run. Prints figures; asserts nothing.
 */
@Isolated
class StartToReadyBenchmark {
    static final int PORT = 18280;
    static final int ROUNDS = Integer.getInteger("envbench.bench.rounds", 5);

    @Test
    void startToReady() throws Exception {
        Jmeter.docker();
        Path targets = Jmeter.ROOT.resolve("targets");
        EnvironmentRegistry registry = new EnvironmentRegistry(targets, DockerDaemon.fromEnvironment());
        String[][] envs = {
            {"bare", "bare", "bridge"}, {"docker-bridge", "docker", "bridge"}, {"docker-host", "docker", "host"}
        };
        StringBuilder table = new StringBuilder(String.format(
                Locale.ROOT, "%n%-14s %14s %14s %8s%n", "environment", "EnvBench ms", "plain ms", "ratio"));
        for (String[] e : envs) {
            List<Double> ours = new ArrayList<>();
            List<Double> plain = new ArrayList<>();
            for (int i = 0; i < ROUNDS; i++) {
                EnvironmentDefinition def = new EnvironmentDefinition(
                        e[0],
                        "nginx-static",
                        EnvironmentDefinition.Placement.parse("runtime", e[1]),
                        ContainerOptions.builder()
                                .networkMode(NetworkMode.parse("networkMode", e[2]))
                                .build(),
                        PORT,
                        Duration.ofSeconds(30));
                RunningTarget t = registry.start(def);
                ours.add((double) t.startToReady().toNanos() / 1e6);
                registry.stop(e[0]);
                plain.add(plainStart(e[0], targets));
            }
            double a = median(ours);
            double b = median(plain);
            table.append(String.format(Locale.ROOT, "%-14s %14.1f %14.1f %8.2f%n", e[0], a, b, a / b));
        }
        table.append("median of ")
                .append(ROUNDS)
                .append(" rounds each; plain = docker run -d (CLI) or the recipe's run.sh, "
                        + "then the same HTTP readiness poll (25 ms) on /health; ratio = EnvBench / plain");
        System.out.println(table);
    }

    private static double plainStart(String env, Path targets) throws Exception {
        String labels = "--label=" + RunSession.LABEL_MANAGED + "=true";
        long t0 = System.nanoTime();
        Process server = null;
        String id = null;
        switch (env) {
            case "bare" -> {
                ProcessBuilder pb = new ProcessBuilder(
                                targets.resolve("nginx-static/run.sh").toString())
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD);
                pb.environment().put("PORT", Integer.toString(PORT));
                server = pb.start();
            }
            case "docker-bridge" ->
                id = docker("run", "-d", labels, "-p", "127.0.0.1:" + PORT + ":8080", "envbench/nginx-static:latest");
            default ->
                id = docker(
                        "run", "-d", labels, "--network", "host", "-e", "PORT=" + PORT, "envbench/nginx-static:latest");
        }
        awaitHttp();
        double ms = (System.nanoTime() - t0) / 1e6;
        if (server != null) {
            server.toHandle().descendants().forEach(ProcessHandle::destroy);
            server.destroy();
            server.waitFor();
        } else {
            docker("rm", "-f", id);
        }
        return ms;
    }

    private static void awaitHttp() throws Exception {
        HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofMillis(500)).build();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline) {
            try {
                if (http.send(
                                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + PORT + "/health"))
                                                .build(),
                                        HttpResponse.BodyHandlers.discarding())
                                .statusCode()
                        == 200) {
                    return;
                }
            } catch (IOException e) {
                // not yet
            }
            Thread.sleep(25);
        }
        throw new IllegalStateException("not ready");
    }

    private static String docker(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("docker"));
        cmd.addAll(Arrays.asList(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes()).trim();
        if (p.waitFor() != 0) {
            throw new IllegalStateException(String.join(" ", cmd) + ": " + out);
        }
        return out;
    }

    private static double median(List<Double> v) {
        List<Double> s = v.stream().sorted().toList();
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }
}
