package io.envbench.measure.results;

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

import io.envbench.measure.stats.Comparison;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * JTLs cut or damaged anywhere: the reader names the file and the line, says what is wrong, and reads no half row as
 * data. Only a last line without its newline (JMeter killed mid-write) is left out quietly.
 */
class DamagedJtlTest {
    static final String HEADER = "timeStamp,elapsed,label,responseCode,success,bytes,sentBytes,envbench.env\n";
    static final String ROW = "1700000000000,12,GET page,200,true,4096,120,bare\n";

    @TempDir
    Path dir;

    private Path file(byte[] content) throws IOException {
        Path f = dir.resolve("run-r1.jtl");
        Files.write(f, content);
        return f;
    }

    private static byte[] text(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static Stream<Arguments> damaged() {
        byte[] garbage = new byte[64];
        for (int i = 0; i < garbage.length; i++) {
            garbage[i] = (byte) (0x80 + i); // not UTF-8
        }
        byte[] withGarbage = concat(text(HEADER + ROW), garbage, text("\n" + ROW));
        return Stream.of(
                Arguments.of("empty", text(""), "empty file"),
                Arguments.of("header cut before 'elapsed'", text("timeStamp,ela"), "not a CSV JTL with a header line"),
                Arguments.of("header without label", text("timeStamp,elapsed\n1,2\n"), "no 'label' column"),
                Arguments.of(
                        "a row cut in the middle of the file",
                        text(HEADER + ROW + "1700000000100,13,GET pa\n" + ROW),
                        "line 3: has 3 fields, the header 8"),
                Arguments.of(
                        "a row with a field too many",
                        text(HEADER + ROW + "1700000000100,13,GET page,200,true,4096,120,bare,x\n"),
                        "line 3: has more than 8 fields"),
                Arguments.of(
                        "a number field with text",
                        text(HEADER + "1700000000000,12ms,GET page,200,true,4096,120,bare\n"),
                        "line 2: elapsed is '12ms', not a whole number"),
                Arguments.of(
                        "an empty timestamp",
                        text(HEADER + ",12,GET page,200,true,4096,120,bare\n"),
                        "line 2: timeStamp is '', not a whole number"),
                Arguments.of("binary garbage between rows", withGarbage, "line 3: has 1 fields, the header 8"),
                Arguments.of(
                        "NUL bytes (a hole left by a crash)",
                        concat(text(HEADER + ROW), new byte[200], text("\n" + ROW)),
                        "line 3: has 1 fields"),
                Arguments.of(
                        "a stray quote that would swallow the rest",
                        text(HEADER + "1700000000000,12,\"GET page,200,true,4096,120,bare\n" + ROW.repeat(1100)),
                        "line 2: a quote opens a field that runs on for 1000 lines"),
                Arguments.of(
                        "a quoted row with fields missing",
                        text(HEADER + "1700000000000,12,\"GET, page\",200\n" + ROW),
                        "line 2: has 4 fields, the header 8"),
                Arguments.of(
                        "an unclosed quote at the end of a finished file",
                        text(HEADER + ROW + "1700000000000,12,\"GET page\n"),
                        "line 3: a quote opens a field that never closes"));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("damaged")
    void isRefusedNamingTheFileAndLine(String what, byte[] content, String fragment) throws Exception {
        Path f = file(content);
        List<Sample> read = new ArrayList<>();
        IOException e = assertTimeoutPreemptively(
                Duration.ofSeconds(5), () -> assertThrows(IOException.class, () -> Comparison.of(List.of(f))));
        assertTrue(e.getMessage().startsWith(f.toString()), "names the file: " + e.getMessage());
        assertTrue(e.getMessage().contains(fragment), "expected '" + fragment + "' in: " + e.getMessage());
        assertFalse(e.getMessage().contains("Exception"), e.getMessage());
        assertThrows(IOException.class, () -> JtlReader.read(f, read::add));
        assertTrue(
                read.stream().allMatch(s -> s.label().equals("GET page") && s.elapsedMs() == 12),
                "no half row read as data: " + read);
    }

    /** A label that is the name of a row EnvBench adds itself would be counted twice into it. */
    @Test
    void aSampleLabelledTotalIsRefusedByTheComparisonNamingTheFileAndLine() throws Exception {
        Path f = file(text(HEADER + ROW + "1700000000000,12,TOTAL,200,true,4096,120,bare\n"));
        IOException e = assertThrows(IOException.class, () -> Comparison.of(List.of(f)));
        assertTrue(
                e.getMessage()
                        .startsWith(
                                f + " line 3: label: a sample is labelled 'TOTAL', the name of the row EnvBench adds"),
                e.getMessage());
        assertTrue(e.getMessage().contains("rename that sampler in the plan"), e.getMessage());
        assertEquals(2, JtlReader.read(f, s -> {}), "the reader itself reads it: the table is what cannot hold it");
    }

    @Test
    void onlyALastLineWithoutItsNewlineIsLeftOutQuietly() throws Exception {
        List<Sample> read = new ArrayList<>();
        assertEquals(2, JtlReader.read(file(text(HEADER + ROW + ROW + "1700000000100,1")), read::add));
        assertEquals(2, JtlReader.read(file(text(HEADER + ROW + ROW + "1700000000000,12,\"GET pa")), s -> {}));
        assertEquals(0, JtlReader.read(file(text(HEADER)), s -> {}), "a header alone is no sample, and no damage");
        assertEquals(12, read.get(1).elapsedMs());
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
