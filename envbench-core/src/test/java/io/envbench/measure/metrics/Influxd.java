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

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * A real InfluxDB 1.x (Debian's {@code influxdb}, {@code influxd}) of a test's own: its config, metadata, data and WAL
 * in the test's folder, HTTP and RPC on free ports of 127.0.0.1, usage reporting and self-monitoring off (it never
 * phones home, writes nothing elsewhere). Without the binary the test is skipped with the reason, and fails under
 * {@code CI=true} ({@code ./envbench test} installs the package without its service).
 */
public final class Influxd implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder()
            .proxy(HttpClient.Builder.NO_PROXY)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    private final Process process;
    private final Path log;
    private final URI base;

    private Influxd(Process process, Path log, URI base) {
        this.process = process;
        this.log = log;
        this.base = base;
    }

    /** Starts influxd with everything in {@code dir} and waits (30 s at most) until {@code /ping} answers. */
    public static Influxd start(Path dir) throws Exception {
        Path binary = binary();
        int http = freePort();
        int rpc = freePort();
        Path config = Files.writeString(dir.resolve("influxdb.conf"), """
                reporting-disabled = true
                bind-address = "127.0.0.1:%d"
                [meta]
                  dir = "%s"
                [data]
                  dir = "%s"
                  wal-dir = "%s"
                  query-log-enabled = false
                [monitor]
                  store-enabled = false
                [subscriber]
                  enabled = false
                [http]
                  enabled = true
                  bind-address = "127.0.0.1:%d"
                  log-enabled = false
                """.formatted(
                        rpc, dir.resolve("meta"), dir.resolve("data"), dir.resolve("wal"), http));
        Path log = dir.resolve("influxd.log");
        Process p = new ProcessBuilder(binary.toString(), "-config", config.toString())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        Influxd d = new Influxd(p, log, URI.create("http://127.0.0.1:" + http + "/"));
        try {
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (true) {
                if (!p.isAlive()) {
                    fail("influxd exited with " + p.exitValue() + ": " + Files.readString(log));
                }
                if (d.ping()) {
                    return d;
                }
                if (System.nanoTime() > deadline) {
                    fail("influxd did not answer /ping in 30 s: " + Files.readString(log));
                }
                Thread.sleep(200);
            }
        } catch (Exception | AssertionError e) {
            d.close();
            throw e;
        }
    }

    /** Its HTTP API: {@code http://127.0.0.1:PORT/}. */
    public URI url() {
        return base;
    }

    /** InfluxQL read on {@code database}, times in epoch milliseconds: the first statement's result. */
    public JsonNode query(String database, String influxQl) throws IOException, InterruptedException {
        URI q = base.resolve("query?epoch=ms&db=" + URLEncoder.encode(database, StandardCharsets.UTF_8) + "&q="
                + URLEncoder.encode(influxQl, StandardCharsets.UTF_8));
        HttpResponse<String> r = HTTP.send(
                HttpRequest.newBuilder(q).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), influxQl + ": " + r.body());
        JsonNode result = JSON.readTree(r.body()).path("results").path(0);
        if (result.has("error")) {
            fail(influxQl + ": " + result.get("error").asText());
        }
        return result;
    }

    private boolean ping() throws InterruptedException {
        try {
            return HTTP.send(
                                    HttpRequest.newBuilder(base.resolve("ping"))
                                            .timeout(Duration.ofSeconds(2))
                                            .build(),
                                    HttpResponse.BodyHandlers.discarding())
                            .statusCode()
                    == 204;
        } catch (IOException e) {
            return false;
        }
    }

    public String log() throws IOException {
        return Files.readString(log);
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    @Override
    public void close() throws InterruptedException {
        LocalServers.stop(process);
    }

    /** influxd on PATH, else Debian's; none fails under CI=true, else skips with the reason. */
    public static Path binary() {
        return LocalServers.binary(
                "influxd",
                "apt-get install influxdb, then systemctl disable --now influxdb; ./envbench test does both");
    }

    private static int freePort() throws IOException {
        return LocalServers.freePort();
    }
}
