package io.envbench.base.readiness;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import io.envbench.base.settings.InvalidSettingException;

/** Ready when an HTTP GET of {@code path} on the target's port answers {@code expectedStatus}. */
public record HttpCheck(String path, int expectedStatus) implements ReadinessCheck {
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofMillis(500)).build();

    public HttpCheck {
        path = path == null || path.isBlank() ? "/" : path.trim();
        if (!path.startsWith("/")) {
            path = "/" + path;
        }
        if (expectedStatus < 100 || expectedStatus > 599) {
            throw new InvalidSettingException(
                    "ready.http.status", expectedStatus + " is not an HTTP status; use 100 to 599, e.g. 200");
        }
    }

    public HttpCheck(String path) {
        this(path, 200);
    }

    @Override
    public boolean passes(ReadinessContext target) throws IOException, InterruptedException {
        var e = target.requireEndpoint();
        HttpRequest req = HttpRequest.newBuilder(URI.create("http://" + e.host() + ":" + e.port() + path))
                .timeout(Duration.ofSeconds(1))
                .GET()
                .build();
        int status = HTTP.send(req, HttpResponse.BodyHandlers.discarding()).statusCode();
        if (status != expectedStatus) {
            throw new IOException("HTTP " + status);
        }
        return true;
    }

    @Override
    public boolean needsPort() {
        return true;
    }

    @Override
    public String describe() {
        return "HTTP " + expectedStatus + " from " + path;
    }
}
