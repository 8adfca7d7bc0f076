package io.envbench.launch.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import io.envbench.base.container.ContainerOptions;
import io.envbench.base.definition.EnvironmentDefinition;
import io.envbench.base.definition.EnvironmentDefinition.Placement;
import io.envbench.base.environment.Endpoint;
import io.envbench.base.environment.RunningTarget;
import io.envbench.base.recipe.TargetRecipeTest;
import io.envbench.control.registry.EnvironmentRegistry;
import io.envbench.launch.docker.DockerDaemon;
import io.envbench.launch.docker.DockerRequired;
import org.junit.jupiter.api.Test;

/** Study 001's three-tier login site (targets/isucon-login: nginx, the login app, MariaDB), for real, on the host and
 * with every tier in a container: it answers, its logins are read from and written to its database, and a connection
 * whose client says "Connection: close" is closed after the answer, as the study's benchmarker needed.
 */
class IsuconLoginTargetTest {
    private static final HttpClient HTTP = HttpClient.newBuilder()
            .followRedirects(HttpClient.Redirect.NEVER)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    private static EnvironmentDefinition def(String name, Placement placement, int port) {
        return new EnvironmentDefinition(
                name, "isucon-login", placement, ContainerOptions.builder().build(), port, Duration.ofSeconds(60));
    }

    @Test
    void theLoginSiteAnswersKeepsItsLoginsInItsDatabaseAndClosesConnectionsWhenTold() throws Exception {
        DockerRequired.check();
        try (EnvironmentRegistry r =
                new EnvironmentRegistry(TargetRecipeTest.TARGETS, DockerDaemon.fromEnvironment())) {
            for (Placement p : List.of(Placement.BARE, Placement.DOCKER)) {
                String name = "isucon-" + p.name().toLowerCase();
                RunningTarget t = r.start(def(name, p, p == Placement.BARE ? 18311 : 18312));
                System.out.println(name + " ready in " + t.startToReady().toMillis() + " ms: " + t.describe());
                Endpoint front = t.endpoint().orElseThrow();
                assertTrue(
                        get(front, "/", null).body().contains("<form method=\"post\" action=\"/login\">"), "the form");
                HttpResponse<String> css = get(front, "/css/site.css", null);
                assertEquals(200, css.statusCode());
                assertTrue(css.body().contains("font-family"), "nginx's static file");

                // a login is written to login_log; the next one's page reads it back
                String session = login(front, "isucon-user-5", "pw-5", "/mypage");
                assertTrue(get(front, "/mypage", session).body().contains("first login"));
                String again = login(front, "isucon-user-5", "pw-5", "/mypage");
                assertTrue(
                        get(front, "/mypage", again).body().contains("isucon-user-5, last login"),
                        "the previous login, read from the database");
                // three failures recorded lock the account: even the right password is refused
                for (int i = 0; i < 3; i++) {
                    login(front, "isucon-user-7", "wrong", "/?error=Wrong+username+or+password");
                }
                login(front, "isucon-user-7", "pw-7", "/?error=This+account+is+locked.");
                assertEquals(302, get(front, "/mypage", null).statusCode(), "no session, no page");

                // a client that says close gets its connection closed after the answer; one that does not keeps it
                assertTrue(rawGet(front, true).endsWith("</html>"), "the whole answer, then the end of the stream");
                assertTrue(rawGetTwiceOnOneConnection(front), "keep-alive keeps the connection for a second request");
                assertTrue(r.stop(name));
            }
        }
        try (Stream<ProcessHandle> all = ProcessHandle.allProcesses()) {
            assertEquals(
                    List.of(),
                    all.filter(ph -> ph.info()
                                    .commandLine()
                                    .orElse("")
                                    .matches(".*(mariadbd|LoginApp|envbench-nginx).*"))
                            .map(ph -> ph.info().commandLine().orElse(""))
                            .toList(),
                    "no tier left running");
        }
    }

    private static HttpResponse<String> get(Endpoint e, String path, String cookie) throws Exception {
        HttpRequest.Builder b =
                HttpRequest.newBuilder(URI.create("http://" + e + path)).timeout(Duration.ofSeconds(10));
        if (cookie != null) b.header("Cookie", cookie);
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Posts the login form; asserts the redirect and returns the session cookie (null when none was set). */
    private static String login(Endpoint e, String user, String password, String expectedLocation) throws Exception {
        HttpResponse<String> r = HTTP.send(
                HttpRequest.newBuilder(URI.create("http://" + e + "/login"))
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .POST(HttpRequest.BodyPublishers.ofString("login=" + user + "&password=" + password))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(302, r.statusCode(), user + ": " + r.body());
        assertEquals(expectedLocation, r.headers().firstValue("Location").orElse(""), user);
        return r.headers().firstValue("Set-Cookie").map(c -> c.split(";")[0]).orElse(null);
    }

    /** GET / on a socket of its own; with close, reads to the end of the stream (the server must end it). */
    private static String rawGet(Endpoint e, boolean close) throws Exception {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(e.host(), e.port()), 5000);
            s.setSoTimeout(5000);
            s.getOutputStream().write(request(close));
            return new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static boolean rawGetTwiceOnOneConnection(Endpoint e) throws Exception {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(e.host(), e.port()), 5000);
            s.setSoTimeout(5000);
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            out.write(request(false));
            readOneAnswer(in);
            out.write(request(true));
            return readOneAnswer(in).startsWith("HTTP/1.1 200");
        }
    }

    private static byte[] request(boolean close) {
        return ("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n" + (close ? "Connection: close\r\n" : "") + "\r\n")
                .getBytes(StandardCharsets.US_ASCII);
    }

    /** One answer with a Content-Length body (the app's pages have one). */
    private static String readOneAnswer(InputStream in) throws Exception {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) throw new AssertionError("the connection ended before the answer: " + head);
            head.write(b);
        }
        String headers = head.toString(StandardCharsets.US_ASCII);
        int length = Integer.parseInt(headers.replaceAll("(?is).*content-length: *(\\d+).*", "$1"));
        in.readNBytes(length);
        return headers;
    }
}
