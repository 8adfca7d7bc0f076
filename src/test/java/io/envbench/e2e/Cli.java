package io.envbench.e2e;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The EnvBench command line (envbench-cli/target/lib) as ./envbench runs it, in its own process. */
final class Cli {
    static final Path LIB = Jmeter.ROOT.resolve("envbench-cli/target/lib");

    private Cli() {}

    /** Starts {@code envbench ARGS} with stdout and stderr into {@code output}. */
    static Process start(Path output, String... args) throws IOException {
        assertTrue(Files.isRegularFile(LIB.resolve("envbench-cli.jar")), "CLI not built in " + LIB);
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.awt.headless=true",
                "-Denvbench.root=" + Jmeter.ROOT,
                "-cp",
                LIB + "/*",
                "io.envbench.cli.EnvBenchCli"));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(output.toFile())
                .start();
    }

    /** Runs it to its end (bounded) with {@code input} on its standard input; returns the exit code. */
    static int runWithInput(Path output, long timeoutSeconds, String input, String... args) throws Exception {
        Process p = start(output, args);
        try (var in = p.getOutputStream()) {
            in.write(input.getBytes(StandardCharsets.UTF_8));
        }
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("envbench " + String.join(" ", args) + " did not end in " + timeoutSeconds
                    + " s:\n" + Files.readString(output));
        }
        return p.exitValue();
    }

    /** Runs it to its end (bounded); returns the exit code. */
    static int run(Path output, long timeoutSeconds, String... args) throws Exception {
        Process p = start(output, args);
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("envbench " + String.join(" ", args) + " did not end in " + timeoutSeconds
                    + " s:\n" + Files.readString(output));
        }
        return p.exitValue();
    }
}
