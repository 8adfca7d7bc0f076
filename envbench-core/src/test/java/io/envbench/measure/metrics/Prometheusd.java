package io.envbench.measure.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * A real Prometheus (Debian's {@code prometheus}) of a test's own: its configuration and storage in the test's folder,
 * its web API on a free port of 127.0.0.1, scraping one target on loopback every second. Without the binary the test
 * is skipped with the reason, and fails under {@code CI=true} ({@code ./envbench test} installs the package).
 */
public final class Prometheusd implements AutoCloseable {
    /** Scrape job of the target. */
    public static final String JOB = "envbench";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder()
            .proxy(HttpClient.Builder.NO_PROXY)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    private final Process process;
    private final Path log;
    private final URI api;

    private Prometheusd(Process process, Path log, URI api) {
        this.process = process;
        this.log = log;
        this.api = api;
    }

    /** Starts prometheus scraping {@code 127.0.0.1:targetPort} every second; waits (30 s at most) until it is ready. */
    public static Prometheusd start(Path dir, int targetPort) throws Exception {
        Path binary = binary();
        int web = freePort();
        Path config = Files.writeString(dir.resolve("prometheus.yml"), """
                global:
                  scrape_interval: 1s
                  scrape_timeout: 1s
                  evaluation_interval: 1s
                scrape_configs:
                  - job_name: %s
                    static_configs:
                      - targets: ['127.0.0.1:%d']
                """.formatted(JOB, targetPort));
        Path log = dir.resolve("prometheus.log");
        Process p = new ProcessBuilder(
                        binary.toString(),
                        "--config.file=" + config,
                        "--web.listen-address=127.0.0.1:" + web,
                        "--storage.tsdb.path=" + dir.resolve("data"),
                        "--log.level=warn")
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        Prometheusd d = new Prometheusd(p, log, URI.create("http://127.0.0.1:" + web));
        try {
            d.waitFor(() -> d.get("/-/ready").map(r -> r.statusCode() == 200).orElse(false), "Prometheus ready");
            return d;
        } catch (Exception | AssertionError e) {
            d.close();
            throw e;
        }
    }

    /** {@code /api/v1/query}: the result (a vector, or a matrix for a range selector). */
    public JsonNode query(String promql) throws IOException, InterruptedException {
        HttpResponse<String> r = get("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8))
                .orElseThrow(() -> new IOException("Prometheus does not answer"));
        JsonNode body = JSON.readTree(r.body());
        assertEquals("success", body.path("status").asText(), promql + ": " + r.body());
        return body.path("data").path("result");
    }

    /** A condition a test waits for. */
    public interface Check {
        boolean ok() throws Exception;
    }

    /** Waits (30 s at most) for {@code check}; fails with Prometheus's log when it exits or the time is up. */
    public void waitFor(Check check, String what) throws Exception {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                fail("prometheus exited with " + process.exitValue() + " before " + what + ": "
                        + Files.readString(log));
            }
            if (check.ok()) {
                return;
            }
            Thread.sleep(250);
        }
        fail("waited 30 s for " + what + "; prometheus said: " + Files.readString(log));
    }

    private Optional<HttpResponse<String>> get(String pathAndQuery) throws InterruptedException {
        try {
            return Optional.of(HTTP.send(
                    HttpRequest.newBuilder(api.resolve(pathAndQuery))
                            .timeout(Duration.ofSeconds(5))
                            .build(),
                    HttpResponse.BodyHandlers.ofString()));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    @Override
    public void close() throws InterruptedException {
        LocalServers.stop(process);
    }

    /** The prometheus binary on PATH, else Debian's; none fails under CI=true, else skips with the reason. */
    public static Path binary() {
        return LocalServers.binary("prometheus", "apt-get install prometheus; ./envbench test does");
    }

    private static int freePort() throws IOException {
        return LocalServers.freePort();
    }
}
