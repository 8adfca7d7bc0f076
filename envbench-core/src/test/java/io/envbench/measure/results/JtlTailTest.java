package io.envbench.measure.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JtlTailTest {
    @TempDir
    Path dir;

    private static void append(Path f, String text) throws IOException {
        Files.writeString(f, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    @Test
    void handsOverOnlyCompletedLinesAsTheFileGrows() throws IOException {
        Path f = dir.resolve("bare.jtl");
        JtlTail tail = new JtlTail(f);
        List<Sample> got = new ArrayList<>();
        assertEquals(0, tail.poll(got::add), "no file yet");
        append(f, "timeStamp,elapsed,label,success,bytes,sentBytes,envbench.env\n1000,5,GET,true,10,1,bare\n1001,7,GE");
        assertEquals(1, tail.poll(got::add));
        append(f, "T,false,12,1,bare\n");
        assertEquals(1, tail.poll(got::add), "the line completed since the last poll");
        assertEquals(0, tail.poll(got::add), "nothing new");
        assertEquals(List.of(5L, 7L), got.stream().map(Sample::elapsedMs).toList());
        assertEquals("GET", got.get(1).label());
        assertEquals(false, got.get(1).success());
        assertEquals("bare", got.get(1).environment());
    }

    @Test
    void aQuotedRecordOverSeveralLinesWaitsForItsEnd() throws IOException {
        Path f = dir.resolve("docker.jtl");
        JtlTail tail = new JtlTail(f);
        List<Sample> got = new ArrayList<>();
        append(f, "timeStamp,elapsed,label,success,bytes,sentBytes\n2000,3,\"GET, page\n");
        assertEquals(0, tail.poll(got::add));
        append(f, "two\",true,1,1\n2001,4,x,true,1,1\n");
        assertEquals(2, tail.poll(got::add));
        assertEquals("GET, page\ntwo", got.get(0).label());
        assertEquals("docker", got.get(1).environment(), "no env column: the file's name");
    }

    @Test
    void labelsJMeterQuotedAreReadExactlyWhateverThePollSees() throws IOException {
        Path f = dir.resolve("quoted.jtl");
        JtlTail tail = new JtlTail(f);
        List<Sample> got = new ArrayList<>();
        String all = JtlReaderTest.JMETER_QUOTED_LABELS;
        int cut = all.indexOf("crlf\r") + 5; // between the CR and the LF of a quoted label
        append(f, all.substring(0, cut));
        tail.poll(got::add);
        append(f, all.substring(cut));
        tail.poll(got::add);
        assertEquals(
                List.of("GET /plain", "GET a, \"b\"\nc", "crlf\r\nx", "GET /plain", "GET a, \"b\"\nc", "crlf\r\nx"),
                got.stream().map(Sample::label).toList());
    }

    @Test
    void aFileThatIsNoJtlIsNamed() throws IOException {
        Path f = dir.resolve("x.jtl");
        append(f, "hello,world\n");
        IOException e = assertThrows(IOException.class, () -> new JtlTail(f).poll(s -> {}));
        assertEquals(true, e.getMessage().contains("x.jtl"));
    }
}
