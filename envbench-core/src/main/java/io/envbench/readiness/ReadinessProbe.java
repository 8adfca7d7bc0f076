package io.envbench.readiness;

import io.envbench.environment.Endpoint;
import io.envbench.environment.TargetStartException;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/** Polls a starting target until its {@link Readiness} check passes, it dies, or time runs out. */
public final class ReadinessProbe {
    private static final Duration POLL = Duration.ofMillis(25);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(500)).build();

    private ReadinessProbe() {
    }

    /**
     * @param whyDead returns the reason when the target is no longer running (exit code, state), else empty
     * @param logs    last log lines, used by LOG readiness and for the failure message
     */
    public static void await(Readiness readiness, Endpoint endpoint, Supplier<Optional<String>> whyDead, IntFunction<String> logs)
            throws TargetStartException {
        long deadline = System.nanoTime() + readiness.timeout().toNanos();
        String lastProblem = "not checked yet";
        while (true) {
            Optional<String> dead = whyDead.get();
            if (dead.isPresent()) {
                throw new TargetStartException("target stopped before it was ready: " + dead.get() + lastLines(logs));
            }
            try {
                if (passes(readiness, endpoint, logs)) {
                    return;
                }
                lastProblem = "check not passed yet";
            } catch (IOException e) {
                lastProblem = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TargetStartException("interrupted while waiting for readiness");
            }
            if (System.nanoTime() > deadline) {
                throw new TargetStartException("target not ready: no " + readiness + " at " + endpoint
                        + " (last check: " + lastProblem + "); raise readyTimeoutSeconds if it is only slow" + lastLines(logs));
            }
            try {
                Thread.sleep(POLL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TargetStartException("interrupted while waiting for readiness");
            }
        }
    }

    private static boolean passes(Readiness r, Endpoint e, IntFunction<String> logs) throws IOException, InterruptedException {
        switch (r.kind()) {
            case TCP -> {
                try (Socket s = new Socket()) {
                    s.connect(new InetSocketAddress(e.host(), e.port()), 500);
                    return true;
                }
            }
            case HTTP -> {
                HttpRequest req = HttpRequest.newBuilder(URI.create("http://" + e.host() + ":" + e.port() + r.detail()))
                        .timeout(Duration.ofSeconds(1)).GET().build();
                HttpResponse<Void> resp = HTTP.send(req, HttpResponse.BodyHandlers.discarding());
                if (resp.statusCode() != 200) {
                    throw new IOException("HTTP " + resp.statusCode());
                }
                return true;
            }
            case LOG -> {
                return logs.apply(1000).contains(r.detail());
            }
            default -> throw new IllegalStateException(r.kind().toString());
        }
    }

    private static String lastLines(IntFunction<String> logs) {
        String l;
        try {
            l = logs.apply(20).strip();
        } catch (RuntimeException e) {
            l = "";
        }
        return l.isEmpty() ? "" : "; last output:\n" + l;
    }
}
