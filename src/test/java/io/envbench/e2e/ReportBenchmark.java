package io.envbench.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Benchmark (run by {@code ./envbench bench}, not by the test suite): {@code envbench report} with
 * -Xmx256m next to JMeter's own {@code jmeter -g} (statistic_window=-1) on the same 5,000,000-sample
 * JTL, in one run: wall time, peak RSS, and whether the Total figures agree. Prints; asserts nothing.
 */
@Isolated
class ReportBenchmark {
    static final int SAMPLES = Integer.getInteger("envbench.bench.samples", 5_000_000);

    @TempDir
    Path dir;

    @Test
    void reportVersusJmeterG() throws Exception {
        Path jtl = ReportGoldenTest.synthetic(
                dir.resolve("big.jtl"),
                "docker-bridge",
                SAMPLES,
                9,
                "login",
                "open project",
                "create ticket",
                "logout");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // the command line's class path, as ./envbench runs it (the plugin jar holds no CLI)
        String cli = Jmeter.ROOT.resolve("envbench-cli/target/lib/*").toString();
        long[] ours = measure(
                List.of(
                        java,
                        "-Xmx256m",
                        "-Djava.awt.headless=true",
                        "-cp",
                        cli,
                        "io.envbench.cli.EnvBenchCli",
                        "report",
                        jtl.toString(),
                        "-o",
                        dir.resolve("ours").toString()),
                dir.resolve("ours.out"));
        long[] theirs = measure(
                List.of(
                        java,
                        "-jar",
                        Jmeter.HOME.resolve("bin/ApacheJMeter.jar").toString(),
                        "-g",
                        jtl.toString(),
                        "-o",
                        dir.resolve("jmeter").toString(),
                        "-Jjmeter.reportgenerator.statistic_window=-1",
                        "-j",
                        dir.resolve("g.log").toString()),
                dir.resolve("jmeter.out"));

        JsonNode total = new ObjectMapper()
                .readTree(dir.resolve("jmeter/statistics.json").toFile())
                .get("Total");
        String ourTotal = Files.readAllLines(dir.resolve("ours/comparison.csv")).stream()
                .filter(l -> l.startsWith("docker-bridge,TOTAL,"))
                .findFirst()
                .orElse("");
        String[] f = ourTotal.split(",");
        boolean same = f.length > 11
                && Long.parseLong(f[2]) == total.get("sampleCount").asLong()
                && Math.abs(Double.parseDouble(f[3]) - total.get("meanResTime").asDouble()) < 1e-3
                && Math.abs(Double.parseDouble(f[5]) - total.get("pct1ResTime").asDouble()) < 1e-9
                && Math.abs(Double.parseDouble(f[7]) - total.get("pct3ResTime").asDouble()) < 1e-9;
        System.out.printf(
                Locale.ROOT,
                "%n%d samples, JTL %.0f MB%n%-34s %10s %14s%n",
                SAMPLES,
                Files.size(jtl) / 1e6,
                "",
                "wall s",
                "peak RSS MiB");
        System.out.printf(
                Locale.ROOT, "%-34s %10.1f %14d%n", "envbench report (-Xmx256m)", ours[0] / 1000.0, ours[1] / 1024);
        System.out.printf(
                Locale.ROOT,
                "%-34s %10.1f %14d%n",
                "jmeter -g (statistic_window=-1)",
                theirs[0] / 1000.0,
                theirs[1] / 1024);
        System.out.printf(
                Locale.ROOT,
                "speed-up %.1fx; Total count, mean, 90%% and 99%% agree with jmeter -g: %s%n",
                (double) theirs[0] / ours[0],
                same ? "yes" : "NO: " + ourTotal + " vs " + total);
    }

    /** @return {wall ms, peak RSS KiB} of a command run to its end */
    static long[] measure(List<String> cmd, Path out) throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        Process p = new ProcessBuilder(new ArrayList<>(cmd))
                .redirectErrorStream(true)
                .redirectOutput(out.toFile())
                .start();
        long peak = 0;
        Path status = Path.of("/proc", Long.toString(p.pid()), "status");
        while (!p.waitFor(100, TimeUnit.MILLISECONDS)) {
            try {
                for (String line : Files.readAllLines(status)) {
                    if (line.startsWith("VmHWM:")) {
                        peak = Math.max(peak, Long.parseLong(line.replaceAll("\\D", "")));
                    }
                }
            } catch (IOException e) {
                // exited between checks
            }
        }
        if (p.exitValue() != 0) {
            throw new IllegalStateException(cmd + " exited " + p.exitValue() + ": " + Files.readString(out));
        }
        return new long[] {(System.nanoTime() - t0) / 1_000_000, peak};
    }
}
