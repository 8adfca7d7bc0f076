package io.envbench.measure.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Result files plain and gzip-compressed read alike (samples, errors, a cut last row), a compressed file cut short is
 * refused by name, compact keeps exactly the columns the readers read, and a compression that fails or was cut short
 * leaves the plain file as the data.
 */
class ResultFilesTest {
    /** JMeter's default columns and EnvBench's sample variables, as the assembled JMeter writes them. */
    static final String HEADER = "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,"
            + "failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect,\"envbench.env\","
            + "\"envbench.engine\",\"envbench.intended\",\"envbench.host.cpu.pct\"\n";

    @TempDir
    Path dir;

    /** Samples with errors, a quoted message holding a comma and a line end, and (when asked) a last row cut. */
    static String jtl(int n, boolean cutLast) {
        Random r = new Random(7);
        StringBuilder b = new StringBuilder(HEADER);
        long t = 1_700_000_000_000L;
        for (int i = 0; i < n; i++) {
            t += r.nextInt(3);
            boolean ok = i % 13 != 0;
            String message = ok ? "OK" : i % 2 == 0 ? "\"Bad, \"\"gateway\"\"\nretry\"" : "Internal Server Error";
            b.append(t)
                    .append(',')
                    .append(r.nextInt(9))
                    .append(i % 3 == 0 ? ",GET /a," : ",\"GET /b, with comma\",")
                    .append(ok ? "200" : i % 2 == 0 ? "502" : "500")
                    .append(',')
                    .append(message)
                    .append(",HTTP load 1-")
                    .append(i % 8)
                    .append(",text,")
                    .append(ok)
                    .append(",,4336,132,8,8,http://127.0.0.1:18080/a,1,0,0,bare,,")
                    .append(t - r.nextInt(2))
                    .append(",12.5\n");
        }
        if (cutLast) {
            b.append(t + 1).append(",3,GET /a,200,O");
        }
        return b.toString();
    }

    private Path write(String name, String content) throws IOException {
        Path f = dir.resolve(name);
        Files.writeString(f, content, StandardCharsets.UTF_8);
        return f;
    }

    private static List<Sample> samples(Path f) throws IOException {
        List<Sample> out = new ArrayList<>();
        JtlReader.read(f, out::add);
        return out;
    }

    private static List<ResponseErrors.Row> errors(Path f) throws IOException {
        ResponseErrors e = new ResponseErrors();
        e.read(f, "bare", 0);
        return e.rows();
    }

    @ParameterizedTest
    @EnumSource(ResultColumns.class)
    void compressedReadsAsThePlainFileDid(ResultColumns columns) throws IOException {
        Path plain = write("bare-r1.jtl", jtl(5_000, true));
        List<Sample> before = samples(plain);
        List<ResponseErrors.Row> errorsBefore = errors(plain);
        assertEquals(5_000, before.size(), "the cut last row is no sample");
        assertTrue(ResultFiles.endsWithCutRow(plain));
        long plainBytes = Files.size(plain);

        Path gz = ResultFiles.compress(plain, columns);

        assertEquals(dir.resolve("bare-r1.jtl.gz"), gz);
        assertFalse(Files.exists(plain), "the plain file is gone once the compressed one is whole");
        assertFalse(Files.exists(dir.resolve("bare-r1.jtl.gz.tmp")));
        assertEquals(gz, ResultFiles.kept(plain));
        assertEquals(before, samples(gz));
        assertEquals(errorsBefore, errors(gz));
        assertFalse(errorsBefore.isEmpty());
        assertTrue(errorsBefore.stream().anyMatch(e -> e.responseMessage().contains("\n")), errorsBefore.toString());
        assertTrue(ResultFiles.endsWithCutRow(gz), "still said to end with a cut row");
        assertTrue(Files.size(gz) * 10 < plainBytes, Files.size(gz) + " bytes of " + plainBytes);
        assertEquals("bare-r1", ResultFiles.stem(gz));
    }

    @Test
    void aFullCompressionIsTheSameBytesAndCompactKeepsOnlyTheReadColumns() throws IOException {
        String content = jtl(300, false);
        Path full = ResultFiles.compress(write("full.jtl", content), ResultColumns.FULL);
        try (InputStream in = ResultFiles.open(full)) {
            assertEquals(content, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
        Path compact = ResultFiles.compress(write("compact.jtl", content), ResultColumns.COMPACT);
        try (BufferedReader r = new BufferedReader(ResultFiles.reader(compact))) {
            assertEquals(
                    "timeStamp,elapsed,label,responseCode,responseMessage,success,bytes,sentBytes,envbench.env,"
                            + "envbench.intended",
                    r.readLine());
        }
        assertTrue(Files.size(compact) < Files.size(full), Files.size(compact) + " vs " + Files.size(full));
        assertEquals(samples(full), samples(compact));
        assertFalse(ResultFiles.endsWithCutRow(compact));
    }

    @Test
    void aCompressedFileCutShortIsRefusedWithItsName() throws IOException {
        Path gz = ResultFiles.compress(write("bare-r2.jtl", jtl(20_000, false)), ResultColumns.FULL);
        byte[] all = Files.readAllBytes(gz);
        Files.write(gz, java.util.Arrays.copyOf(all, all.length / 2));
        IOException read = assertThrows(IOException.class, () -> samples(gz));
        assertTrue(
                read.getMessage().startsWith(gz.toString()) && read.getMessage().contains("cut short"),
                read.getMessage());
        IOException errors = assertThrows(IOException.class, () -> errors(gz));
        assertTrue(errors.getMessage().contains(gz.toString()), errors.getMessage());
        IOException cut = assertThrows(IOException.class, () -> ResultFiles.endsWithCutRow(gz));
        assertTrue(cut.getMessage().contains(gz.toString()), cut.getMessage());
        Files.write(gz, java.util.Arrays.copyOf(all, 12)); // the header and hardly more
        IOException header = assertThrows(IOException.class, () -> samples(gz));
        assertTrue(header.getMessage().contains(gz.toString()), header.getMessage());
    }

    @Test
    void aCompressionCutShortIsNoDataAndAFailedOneKeepsThePlainFile() throws IOException {
        Path plain = write("bare-r3.jtl", jtl(100, false));
        Path gz = ResultFiles.compressedOf(plain);
        // a crash mid-compression leaves the temporary file: never taken for the results
        Files.write(dir.resolve("bare-r3.jtl.gz.tmp"), new byte[] {0x1f, (byte) 0x8b, 8, 0});
        assertEquals(plain, ResultFiles.kept(plain));
        assertEquals(100, samples(ResultFiles.kept(plain)).size());

        // a row the header does not fit: compact refuses to drop columns of it, and nothing but the plain file stays
        Path damaged = write(
                "bare-r4.jtl",
                jtl(10, false) + "1700000009999,3,GET /a\n" + jtl(2, false).substring(HEADER.length()));
        IOException e = assertThrows(IOException.class, () -> ResultFiles.compress(damaged, ResultColumns.COMPACT));
        IOException reader = assertThrows(IOException.class, () -> samples(damaged));
        String line = reader.getMessage().replaceFirst("^.* (line \\d+): .*$", "$1");
        assertTrue(line.startsWith("line "), reader.getMessage());
        assertTrue(
                e.getMessage().contains(damaged + " " + line + ": "),
                "the same line as the reader names: " + e.getMessage());
        assertTrue(Files.exists(damaged));
        assertFalse(Files.exists(ResultFiles.compressedOf(damaged)));
        assertFalse(Files.exists(dir.resolve("bare-r4.jtl.gz.tmp")));

        // a crash after the rename, before the plain file went: the whole compressed file is read
        Path again = ResultFiles.compress(plain, ResultColumns.COMPACT);
        Files.writeString(plain, jtl(1, false));
        assertEquals(again, ResultFiles.kept(plain));
        assertEquals(100, samples(ResultFiles.kept(plain)).size());
        ResultFiles.deleteAll(plain);
        assertFalse(Files.exists(plain) || Files.exists(gz) || Files.exists(dir.resolve("bare-r3.jtl.gz.tmp")));
        assertNotEquals(plain, ResultFiles.compressedOf(plain));
    }

    @Test
    void resultFileNames() {
        for (String name : List.of("a.jtl", "a.csv", "a.jtl.gz", "a.csv.gz")) {
            assertTrue(ResultFiles.isResultFile(Path.of(name)), name);
            assertEquals("a", ResultFiles.stem(Path.of(name)), name);
        }
        assertFalse(ResultFiles.isResultFile(Path.of("a.jtl.gz.tmp")));
        assertFalse(ResultFiles.isResultFile(Path.of("a.log.gz")));
    }
}
