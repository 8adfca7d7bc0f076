package io.envbench.measure.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.envbench.measure.stats.SampleStatistics;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JtlReaderTest {
    @TempDir
    Path dir;

    private static final String HEADER =
            "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,"
                    + "failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect,\"envbench.env\"\n";

    @Test
    void splitsByEnvironmentColumnAndSkipsATruncatedLastLine() throws IOException {
        Path f = dir.resolve("r.jtl");
        Files.writeString(
                f,
                HEADER
                        + "1000,5,GET,200,OK,t 1-1,text,true,,4336,130,1,1,http://127.0.0.1/,5,0,1,bare\n"
                        + "1010,7,GET,500,\"a, quoted message\",t 1-1,text,false,boom,100,130,1,1,http://127.0.0.1/,7,0,1,docker-bridge\n"
                        + "1020,3,GET,200,OK,t 1-1,te");
        List<Sample> out = new ArrayList<>();
        assertEquals(2, JtlReader.read(f, out::add));
        assertEquals("bare", out.get(0).environment());
        assertEquals("docker-bridge", out.get(1).environment());
        assertEquals(false, out.get(1).success());
        assertEquals(4336, out.get(0).receivedBytes());
    }

    @Test
    void theIntendedStartOfAnOpenModelLoadIsReadWhereThereIsOne() throws IOException {
        // envbench.intended as the Arrivals Timer sets it; "null" where JMeter had no value (a closed-loop sample)
        Path f = dir.resolve("open.jtl");
        Files.writeString(
                f,
                "timeStamp,elapsed,label,responseCode,responseMessage,success,\"envbench.env\",\"envbench.intended\"\n"
                        + "1000,5,GET,200,OK,true,bare,990\n"
                        + "1010,7,GET,200,\"quoted, message\",true,bare,1020\n"
                        + "1020,3,GET,200,OK,true,bare,null\n");
        List<Sample> out = new ArrayList<>();
        assertEquals(3, JtlReader.read(f, out::add));
        assertEquals(990, out.get(0).intendedStartMs());
        assertEquals(15, out.get(0).fromIntendedMs(), "5 ms elapsed after 10 ms late");
        assertEquals(7, out.get(1).fromIntendedMs(), "an early start is no negative wait");
        assertEquals(-1, out.get(2).intendedStartMs());
        assertEquals(3, out.get(2).fromIntendedMs());
    }

    @Test
    void aLastLineCutInsideItsLastFieldIsNoSample() throws IOException {
        // every comma is there, but the environment name is cut: without its line end it is not data
        Path f = dir.resolve("cut.jtl");
        Files.writeString(
                f,
                HEADER
                        + "1000,5,GET,200,OK,t 1-1,text,true,,4336,130,1,1,http://127.0.0.1/,5,0,1,docker-bridge\n"
                        + "1010,5,GET,200,OK,t 1-1,text,true,,4336,130,1,1,http://127.0.0.1/,5,0,1,docker-br");
        List<Sample> out = new ArrayList<>();
        assertEquals(1, JtlReader.read(f, out::add));
        assertEquals(
                List.of("docker-bridge"), out.stream().map(Sample::environment).toList());
    }

    @Test
    void quotedFieldsEvenAcrossLinesReadLikeCommonsCsv() throws IOException {
        Path f = dir.resolve("q.jtl");
        Files.writeString(
                f,
                HEADER
                        + "1000,5,\"GET /a, then /b\",200,OK,t 1-1,text,true,,10,1,1,1,http://127.0.0.1/,5,0,1,bare\n"
                        + "1001,6,GET,500,\"line one\nline \"\"two\"\"\",t 1-1,text,false,x,11,2,1,1,http://127.0.0.1/,6,0,1,bare\n"
                        + "1002,7,GET,200,OK,t 1-1,text,true,,12,3,1,1,http://127.0.0.1/,7,0,1,bare\n");
        List<Sample> out = new ArrayList<>();
        assertEquals(3, JtlReader.read(f, out::add));
        assertEquals("GET /a, then /b", out.get(0).label());
        assertEquals(6, out.get(1).elapsedMs());
        assertEquals(false, out.get(1).success());
        assertEquals(12, out.get(2).receivedBytes());
        assertEquals(3, out.get(2).sentBytes());
    }

    /**
     * Byte for byte what JMeter 5.6.3 wrote (CSV defaults, {@code -Jsample_variables=envbench.env}) for Debug Samplers
     * named {@code GET a, "b"<LF>c} and {@code crlf<CR><LF>x}: the label quoted, its quotes doubled, its line ends
     * kept inside the quotes, each record ended by a bare LF.
     */
    static final String JMETER_QUOTED_LABELS = "timeStamp,elapsed,label,responseCode,responseMessage,threadName,"
            + "dataType,success,failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect,"
            + "\"envbench.env\"\n"
            + "1795686264471,0,GET /plain,200,OK,tg 1-1,text,true,,0,0,1,1,null,0,0,0,null\n"
            + "1795686264477,1,\"GET a, \"\"b\"\"\nc\",200,OK,tg 1-1,text,true,,0,0,1,1,null,0,0,0,null\n"
            + "1795686264477,2,\"crlf\r\nx\",200,OK,tg 1-1,text,true,,0,0,1,1,null,0,0,0,null\n"
            + "1795686264478,3,GET /plain,200,OK,tg 1-1,text,true,,0,0,1,1,null,0,0,0,null\n"
            + "1795686264478,4,\"GET a, \"\"b\"\"\nc\",200,OK,tg 1-1,text,true,,0,0,1,1,null,0,0,0,null\n"
            + "1795686264478,5,\"crlf\r\nx\",200,OK,tg 1-1,text,true,,0,0,1,1,null,0,0,0,null\n";

    @Test
    void labelsJMeterQuotedAreReadExactly() throws IOException {
        Path f = Files.writeString(dir.resolve("quoted.jtl"), JMETER_QUOTED_LABELS);
        List<Sample> out = new ArrayList<>();
        assertEquals(6, JtlReader.read(f, out::add));
        assertEquals(
                List.of("GET /plain", "GET a, \"b\"\nc", "crlf\r\nx", "GET /plain", "GET a, \"b\"\nc", "crlf\r\nx"),
                out.stream().map(Sample::label).toList());
        assertEquals(
                List.of(0L, 1L, 2L, 3L, 4L, 5L),
                out.stream().map(Sample::elapsedMs).toList());
        assertTrue(out.stream().allMatch(Sample::success));
    }

    @Test
    void aLoneCarriageReturnInAQuotedLabelIsKept() throws IOException {
        Path f = Files.writeString(
                dir.resolve("cr.jtl"),
                "timeStamp,elapsed,label,success\n1000,5,\"a\rb\",true\n1001,6,plain,true\n1002,7,\"x\r\",true\n");
        List<Sample> out = new ArrayList<>();
        assertEquals(3, JtlReader.read(f, out::add));
        assertEquals(
                List.of("a\rb", "plain", "x\r"), out.stream().map(Sample::label).toList());
    }

    @Test
    void aFileWrittenWithWindowsLineEndsReadsLikeOneWithLf() throws IOException {
        // JMeter on Windows ends each record with CRLF (println); the CR is the record's end, not part of its last
        // field
        Path f = Files.writeString(
                dir.resolve("win.jtl"),
                "timeStamp,elapsed,label,success,\"envbench.env\"\r\n1000,5,\"a,\r\nb\",true,bare\r\n"
                        + "1001,6,plain,true,bare\r\n");
        List<Sample> out = new ArrayList<>();
        assertEquals(2, JtlReader.read(f, out::add));
        assertEquals(
                List.of("a,\r\nb", "plain"), out.stream().map(Sample::label).toList());
        assertEquals(
                List.of("bare", "bare"), out.stream().map(Sample::environment).toList());
    }

    @Test
    void recordsWithQuotesReadAsCommonsCsvReadsThem() throws IOException {
        // one-line records with quotes are split from their bytes; each must give what commons-csv gives
        String header = "timeStamp,elapsed,label,success,bytes,sentBytes,\"envbench.env\"\n";
        List<String> records = List.of(
                "1000,5,\"GET a, \"\"b\"\"\",true,10,1,bare",
                "1001,+6,\"\",TRUE,\"11\",2,\"docker, host\"",
                "1002,7,x,trueish,12,3,\"bare\"",
                "1003,8,\"é, €\",\"false\",13,4,bare",
                "1004,9,\"q\"\"\",true,14,5,\"\"");
        Path f = Files.writeString(dir.resolve("quotes.jtl"), header + String.join("\n", records) + "\n");
        List<Sample> out = new ArrayList<>();
        assertEquals(records.size(), JtlReader.read(f, out::add));
        for (int i = 0; i < records.size(); i++) {
            CSVRecord rec = CSVParser.parse(records.get(i), CSVFormat.DEFAULT)
                    .getRecords()
                    .get(0);
            Sample s = out.get(i);
            assertEquals(rec.get(2), s.label(), records.get(i));
            assertEquals(rec.get(6), s.environment(), records.get(i));
            assertEquals(Long.parseLong(rec.get(1)), s.elapsedMs(), records.get(i));
            assertEquals(Boolean.parseBoolean(rec.get(3)), s.success(), records.get(i));
            assertEquals(Long.parseLong(rec.get(4)), s.receivedBytes(), records.get(i));
        }
    }

    @Test
    void numbersInOtherDigitsOrTooLongAreReadAsJavaReadsThem() throws IOException {
        // the byte reader takes ASCII digits; anything else is left to Long.parseLong, which decides
        Path f = Files.writeString(
                dir.resolve("digits.jtl"),
                "timeStamp,elapsed,label,success\n1000,\u0665,GET,true\n1001,0009223372036854775807,GET,true\n");
        List<Sample> out = new ArrayList<>();
        assertEquals(2, JtlReader.read(f, out::add));
        assertEquals(
                List.of(5L, Long.MAX_VALUE), out.stream().map(Sample::elapsedMs).toList());
        Path over = Files.writeString(
                dir.resolve("over.jtl"), "timeStamp,elapsed,label,success\n1000,9223372036854775808,GET,true\n");
        assertTrue(assertThrows(IOException.class, () -> JtlReader.read(over, s -> {}))
                .getMessage()
                .contains("elapsed is '9223372036854775808', not a whole number"));
    }

    @Test
    void linesLongerThanTheBufferAndCharactersAcrossItsEdgeAreWhole() throws IOException {
        // the reader splits bytes at LF: a long line, or a UTF-8 character cut by the buffer's end, must come out whole
        String longLabel = "é€".repeat(70_000);
        StringBuilder b = new StringBuilder("timeStamp,elapsed,label,success\n");
        for (int i = 0; i < 3000; i++) {
            b.append(1000 + i)
                    .append(",5,")
                    .append(i == 1500 ? longLabel : "Grüße €" + i)
                    .append(",true\n");
        }
        Path f = Files.writeString(dir.resolve("long.jtl"), b);
        List<Sample> out = new ArrayList<>();
        assertEquals(3000, JtlReader.read(f, out::add));
        assertEquals(longLabel, out.get(1500).label());
        for (int i = 0; i < 3000; i++) {
            if (i != 1500) {
                assertEquals("Grüße €" + i, out.get(i).label());
            }
        }
    }

    @Test
    void withoutTheEnvironmentColumnTheFileNamesTheEnvironment() throws IOException {
        Path f = dir.resolve("docker-host.jtl");
        Files.writeString(f, "timeStamp,elapsed,label,success,bytes,sentBytes\n1000,5,GET,true,10,1\n");
        List<Sample> out = new ArrayList<>();
        JtlReader.read(f, out::add);
        assertEquals("docker-host", out.get(0).environment());
    }

    @Test
    void badFilesGiveAClearMessage() throws IOException {
        Path empty = Files.writeString(dir.resolve("empty.jtl"), "");
        Path xml = Files.writeString(dir.resolve("x.jtl"), "<?xml version=\"1.0\"?>\n<testResults>");
        Path other = Files.writeString(dir.resolve("o.jtl"), "hello,world\n1,2\n");
        assertTrue(assertThrows(IOException.class, () -> JtlReader.read(empty, s -> {}))
                .getMessage()
                .contains("empty"));
        assertTrue(assertThrows(IOException.class, () -> JtlReader.read(xml, s -> {}))
                .getMessage()
                .contains("XML JTL"));
        assertTrue(assertThrows(IOException.class, () -> JtlReader.read(other, s -> {}))
                .getMessage()
                .contains("not a CSV JTL"));
    }

    @Test
    void throughputIsCountOverFirstStartToLastEnd() {
        SampleStatistics s = new SampleStatistics();
        s.add(new Sample("e", "l", 1000, 100, true, 2048, 0));
        s.add(new Sample("e", "l", 1500, 500, false, 2048, 0)); // ends at 2000
        assertEquals(1.0, s.durationSec(), 1e-9);
        assertEquals(2.0, s.throughputPerSec(), 1e-9);
        assertEquals(4.0, s.receivedKBytesPerSec(), 1e-9);
        assertEquals(50.0, s.errorPct(), 1e-9);
    }
}
