package io.envbench.measure.metrics;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;

/** What the tests' own local servers (Prometheusd, Influxd) share: finding Debian's binary, a free port, stopping. */
final class LocalServers {
    private LocalServers() {}

    /** {@code name} on PATH, else in /usr/bin; none fails under CI=true, else skips, saying how to install it. */
    static Path binary(String name, String install) {
        String path = Optional.ofNullable(System.getenv("PATH")).orElse("");
        Optional<Path> found = Stream.concat(
                        Stream.of(path.split(File.pathSeparator))
                                .filter(d -> !d.isEmpty())
                                .map(d -> Path.of(d, name)),
                        Stream.of(Path.of("/usr/bin", name)))
                .filter(Files::isExecutable)
                .findFirst();
        if (found.isEmpty()) {
            String why =
                    "no " + name + " on PATH nor /usr/bin/" + name + ": install Debian's package (" + install + ")";
            if ("true".equals(System.getenv("CI"))) {
                fail(why);
            }
            Assumptions.abort(why);
        }
        return found.get();
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    static void stop(Process process) throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
