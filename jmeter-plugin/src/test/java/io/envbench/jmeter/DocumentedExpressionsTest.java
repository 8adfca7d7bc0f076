package io.envbench.jmeter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * JMeter's {@code ${__P(name)}} without a default yields "1" when the property is unset, and a sampler then sends
 * its request to {@code http://1:1/}. Every {@code __P(envbench...)} the project documents or ships (READMEs, plans,
 * templates, tooltips, help) has a default; endpoints a loopback one.
 */
class DocumentedExpressionsTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern EXPRESSION = Pattern.compile("__P\\(\\s*(envbench[^,)]*)\\s*(,[^)]*)?\\)");

    static List<Path> documented() throws IOException {
        List<Path> files = new ArrayList<>();
        try (Stream<Path> all = Files.walk(ROOT)) {
            all.filter(Files::isRegularFile)
                    .filter(p -> !ROOT.relativize(p).toString().matches("(.*/)?(target|\\.git|results)/.*"))
                    .filter(p -> p.toString().matches(".*\\.(md|jmx|properties|html|xml)$"))
                    .forEach(files::add);
        }
        return files;
    }

    @Test
    void everyDocumentedExpressionHasADefaultAndEndpointsALoopbackOne() throws IOException {
        List<String> missing = new ArrayList<>();
        int seen = 0;
        for (Path f : documented()) {
            String text = Files.readString(f);
            Matcher m = EXPRESSION.matcher(text);
            while (m.find()) {
                seen++;
                String name = m.group(1).trim();
                String dflt =
                        m.group(2) == null ? null : m.group(2).substring(1).trim(); // "" is a default: empty
                String where = ROOT.relativize(f) + ": " + m.group();
                if (dflt == null) {
                    missing.add(where + " has no default");
                } else if (name.endsWith(".host")
                        && !name.equals("envbench.docker.host")
                        && !dflt.equals("127.0.0.1")) {
                    missing.add(where + " has no loopback default");
                }
            }
        }
        assertTrue(seen > 20, "the scan found only " + seen + " expressions: wrong folder " + ROOT + "?");
        assertEquals(List.of(), missing);
    }
}
