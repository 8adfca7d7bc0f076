package io.envbench.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.stream.Stream;

/**
 * A stock JMeter 5.6.3 that EnvBench is not in: the assembled JMeter's layout (JMeter's own jars from Maven Central, as
 * the binary distribution has them) without what jmeter-dist adds for EnvBench: the plugin jar, the BouncyCastle jars
 * in lib/ (the official lib/ has none), EnvBench's templates, and with JMeter's own bin/user.properties (from
 * ApacheJMeter_config) instead of EnvBench's. The binary distribution itself is not on Maven Central.
 */
final class StockJmeter {
    private StockJmeter() {}

    /** Copies the stock JMeter into {@code home}, which must not exist, and returns it. */
    static Path copyTo(Path home) throws IOException {
        try (Stream<Path> files = Files.walk(Jmeter.HOME)) {
            for (Path from : (Iterable<Path>) files::iterator) {
                Path relative = Jmeter.HOME.relativize(from);
                if (isEnvBenchs(relative)) {
                    continue;
                }
                Path to = home.resolve(relative.toString());
                if (Files.isDirectory(from)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(from, to, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
        try (InputStream stock = StockJmeter.class.getClassLoader().getResourceAsStream("bin/user.properties")) {
            assertNotNull(stock, "ApacheJMeter_config's bin/user.properties is on the test class path");
            Files.copy(stock, home.resolve("bin/user.properties"), StandardCopyOption.REPLACE_EXISTING);
        }
        assertEquals(List.of(), envBenchFiles(home), "the stock JMeter holds nothing of EnvBench");
        return home;
    }

    /** Every file under {@code home} whose name says EnvBench or BouncyCastle (relative paths). */
    static List<String> envBenchFiles(Path home) throws IOException {
        try (Stream<Path> files = Files.walk(home)) {
            return files.map(home::relativize)
                    .filter(StockJmeter::isEnvBenchs)
                    .map(Path::toString)
                    .sorted()
                    .toList();
        }
    }

    private static boolean isEnvBenchs(Path relative) {
        String name = relative.getFileName().toString();
        return name.startsWith("envbench") || (relative.startsWith("lib") && name.matches("bc\\w+-jdk18on.*\\.jar"));
    }
}
