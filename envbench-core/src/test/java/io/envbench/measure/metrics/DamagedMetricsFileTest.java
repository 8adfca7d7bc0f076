package io.envbench.measure.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Metrics files cut or damaged anywhere: refused with the file and line; only a cut last row is left out. */
class DamagedMetricsFileTest {
    static final String HEADER = "timestamp,environment,host.cpu.pct,target.cpu.pct\n";
    static final String ROW = "1700000000000,bare,12.5,40\n";

    @TempDir
    Path dir;

    static Stream<Arguments> damaged() {
        return Stream.of(
                Arguments.of("empty", "", "not an EnvBench metrics file"),
                Arguments.of("header cut", "timestamp,envir", "not an EnvBench metrics file"),
                Arguments.of(
                        "a row cut in the middle",
                        HEADER + ROW + "1700000001000,bare\n" + ROW,
                        "line 3: has 2 fields, the header 4"),
                Arguments.of(
                        "a field too many", HEADER + ROW + ROW.strip() + ",7\n", "line 3: has 5 fields, the header 4"),
                Arguments.of(
                        "text in a number field",
                        HEADER + "1700000000000,bare,12.5%,40\n",
                        "line 2: host.cpu.pct is '12.5%', not a number"),
                Arguments.of(
                        "NaN in a figure",
                        HEADER + "1700000000000,bare,NaN,40\n",
                        "line 2: host.cpu.pct is 'NaN', not a finite number"),
                Arguments.of(
                        "Infinity in a figure",
                        HEADER + "1700000000000,bare,1,Infinity\n",
                        "target.cpu.pct is 'Infinity'"),
                Arguments.of(
                        "a timestamp with text",
                        HEADER + "17000000x0000,bare,1,2\n",
                        "line 2: timestamp is '17000000x0000', not a whole number"),
                Arguments.of("binary garbage", HEADER + ROW + "\u0000\u0000\u0000\n" + ROW, "line 3: has 1 fields"));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("damaged")
    void isRefusedNamingTheFileAndLine(String what, String content, String fragment) throws Exception {
        Path f = dir.resolve("bare-r1.csv");
        Files.writeString(f, content);
        IOException e = assertTimeoutPreemptively(
                Duration.ofSeconds(5), () -> assertThrows(IOException.class, () -> MetricsFile.read(f)));
        assertTrue(e.getMessage().startsWith(f.toString()), "names the file: " + e.getMessage());
        assertTrue(e.getMessage().contains(fragment), "expected '" + fragment + "' in: " + e.getMessage());
        assertFalse(e.getMessage().contains("Exception"), e.getMessage());
    }

    @Test
    void bytesThatAreNotUtf8AreADamagedRowNotADecoderError() throws Exception {
        Path f = dir.resolve("bare-r1.csv");
        byte[] head = (HEADER + ROW).getBytes(StandardCharsets.UTF_8);
        byte[] bad = {(byte) 0xC3, (byte) 0x28, ',', 'x', '\n'};
        Files.write(f, concat(head, bad, ROW.getBytes(StandardCharsets.UTF_8)));
        IOException e = assertThrows(IOException.class, () -> MetricsFile.read(f));
        assertTrue(e.getMessage().contains("line 3: has 2 fields"), e.getMessage());
    }

    @Test
    void aCutLastRowIsLeftOutAndTheWholeRowsAreRead() throws Exception {
        Path f = dir.resolve("bare-r1.csv");
        Files.writeString(f, HEADER + ROW + "1700000001000,bare,13.5,41\n1700000002000,ba");
        List<MetricsFile.Row> rows = new ArrayList<>();
        MetricsFile.forEachRow(f, rows::add);
        assertEquals(2, rows.size());
        assertEquals(13.5, rows.get(1).values().get("host.cpu.pct"));
        assertEquals(2, MetricsFile.read(f).summary("bare", "target.cpu.pct").samples());
    }

    private static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) {
            n += p.length;
        }
        byte[] all = new byte[n];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, all, at, p.length);
            at += p.length;
        }
        return all;
    }
}
