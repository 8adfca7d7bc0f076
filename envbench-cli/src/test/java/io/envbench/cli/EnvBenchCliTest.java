package io.envbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;

import io.envbench.measure.results.ResultColumns;
import io.envbench.measure.results.ResultFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Bad input to {@code envbench report}: a clear message, exit code 2, no stack trace, nothing written. */
class EnvBenchCliTest {
    @TempDir
    Path dir;

    private String[] run(String... args) {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        System.setOut(new PrintStream(o));
        System.setErr(new PrintStream(e));
        try {
            int code = new CommandLine(new EnvBenchCli()).execute(args);
            return new String[] {Integer.toString(code), o.toString(), e.toString()};
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
    }

    @Test
    void badFilesAreNamedWithoutAStackTrace() throws Exception {
        Path report = dir.resolve("report");
        for (String[] bad : new String[][] {
            {"empty.jtl", ""}, {"x.jtl", "<?xml version=\"1.0\"?>\n<testResults>"}, {"notes.txt", "just some text\n"}
        }) {
            Path f = Files.writeString(dir.resolve(bad[0]), bad[1]);
            String[] r = run("report", f.toString(), "-o", report.toString());
            assertEquals("2", r[0], bad[0]);
            assertTrue(r[2].startsWith("envbench report: " + f), r[2]);
            assertFalse(r[2].contains("\tat "), "no stack trace: " + r[2]);
        }
        String[] missing = run("report", dir.resolve("nope.jtl").toString(), "-o", report.toString());
        assertTrue(
                missing[2].contains("JTL: " + dir.resolve("nope.jtl") + " does not exist; give CSV result files"),
                missing[2]);
        assertFalse(Files.exists(report), "nothing written");
    }

    /** A folder as a JTL, a missing metrics file, a report folder that cannot be made: each named with the fix. */
    @Test
    void badPathsAreNamedWithWhatIsWrongAndTheFix() throws Exception {
        Path good = Files.writeString(
                dir.resolve("r.jtl"),
                "timeStamp,elapsed,label,success,bytes,sentBytes,envbench.env\n1000,5,GET,true,100,10,bare\n");
        Path folder = Files.createDirectories(dir.resolve("adir.jtl"));
        String[] f = run("summary", folder.toString());
        assertEquals("2", f[0], f[2]);
        assertTrue(f[2].contains("JTL: " + folder + " is a folder, not a file; give CSV result files"), f[2]);

        String[] m = run(
                "summary", good.toString(), "--metrics", dir.resolve("none.csv").toString());
        assertEquals("2", m[0], m[2]);
        assertTrue(
                m[2].contains(
                        "--metrics: " + dir.resolve("none.csv") + " does not exist; give the Resource Monitor's CSV"),
                m[2]);

        Path blocker = Files.writeString(dir.resolve("blocker"), "a file where the report's parent folder should be");
        String[] r =
                run("report", good.toString(), "-o", blocker.resolve("report").toString());
        assertEquals("2", r[0], r[2]);
        assertTrue(r[2].contains("cannot write the report folder (-o) " + blocker.resolve("report")), r[2]);
        assertTrue(r[2].contains("give a folder on a writable file system"), r[2]);
    }

    @Test
    void aGoodFileGivesTheReport() throws Exception {
        Path f = Files.writeString(
                dir.resolve("r.jtl"),
                "timeStamp,elapsed,label,success,bytes,sentBytes,envbench.env\n"
                        + "1000,5,GET,true,100,10,bare\n1003,9,GET,true,100,10,docker-bridge\n1004,7,GET,false,100,10,docker-bridge\n");
        String[] r = run("report", f.toString(), "-o", dir.resolve("out").toString(), "--baseline", "docker-bridge");
        assertEquals("0", r[0], r[2]);
        assertTrue(r[1].contains("baseline docker-bridge"), r[1]);
        assertTrue(Files.readString(dir.resolve("out/comparison.csv")).contains("docker-bridge,GET,2,8,"));
        String[] s = run("summary", f.toString());
        assertEquals("0", s[0], s[2]);
        assertTrue(s[1].contains("90% line ms (Aggregate)") && s[1].contains("docker-bridge"), s[1]);
        assertTrue(s[1].contains("(too few runs: 1 vs 1)"), "one file is one run: no verdict, and it says so: " + s[1]);
        assertFalse(Files.exists(dir.resolve("summary")), "summary writes nothing");
    }

    /** Labels as JMeter 5.6.3 writes them (quoted, quotes doubled, the line end inside the quotes): each sample read. */
    @Test
    void labelsWithACommaAQuoteAndALineEndAreEverySampleRead() throws Exception {
        String header = "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,"
                + "failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect,\"envbench.env\"\n";
        String tail = ",200,OK,tg 1-1,text,true,,0,0,1,1,null,0,0,0,bare\n";
        StringBuilder jtl = new StringBuilder(header);
        for (int i = 0; i < 46; i++) {
            jtl.append(1000 + i).append(",1,GET /plain").append(tail);
            jtl.append(1000 + i).append(",2,\"GET a, \"\"b\"\"\nc\"").append(tail);
            jtl.append(1000 + i).append(",3,\"crlf\r\nx\"").append(tail);
        }
        Path f = Files.writeString(dir.resolve("quoted.jtl"), jtl);
        String[] s = run("summary", f.toString());
        assertEquals("0", s[0], s[2]);
        assertTrue(s[1].lines().anyMatch(l -> l.matches("GET a, \"b\"\\\\nc +bare +1 +46 .*")), s[1]);
        assertTrue(s[1].lines().anyMatch(l -> l.matches("crlf\\\\r\\\\nx +bare +1 +46 .*")), s[1]);
        assertTrue(s[1].lines().anyMatch(l -> l.matches("TOTAL +bare +1 +138 .*")), "all 138 samples: " + s[1]);

        String[] r = run("report", f.toString(), "-o", dir.resolve("out").toString());
        assertEquals("0", r[0], r[2]);
        String csv = Files.readString(dir.resolve("out/comparison.csv"));
        assertTrue(csv.contains("\nbare,\"GET a, \"\"b\"\"\nc\",46,2,"), "the label quoted as JMeter does: " + csv);
        assertTrue(csv.contains("\nbare,\"crlf\r\nx\",46,3,"), csv);
    }

    /** Two runs whose files share a name are two runs, named by their folders, and the output says which file made which. */
    @Test
    void filesOfTheSameNameInTwoFoldersAreTwoRunsAndSaidSo() throws Exception {
        Path one = dir.resolve("run1/static-web.jtl");
        Path two = dir.resolve("run2/static-web.jtl");
        for (Path f : new Path[] {one, two}) {
            Files.createDirectories(f.getParent());
            Files.writeString(
                    f,
                    "timeStamp,elapsed,label,success,bytes,sentBytes,envbench.env\n"
                            + "1000,5,GET,true,100,10,bare\n1100,6,GET,true,100,10,bare\n");
        }
        String[] s = run("summary", one.toString(), two.toString());
        assertEquals("0", s[0], s[2]);
        assertTrue(s[1].lines().anyMatch(l -> l.matches("TOTAL +bare +2 +4 .*")), "two runs of 2 samples: " + s[1]);
        assertTrue(s[1].contains("Runs and their files:"), s[1]);
        assertTrue(
                s[1].lines()
                        .anyMatch(l -> l.matches("run1/static-web +" + Pattern.quote(one.toString()) + " +bare +2")),
                s[1]);
        assertTrue(
                s[1].lines()
                        .anyMatch(l -> l.matches("run2/static-web +" + Pattern.quote(two.toString()) + " +bare +2")),
                s[1]);

        String[] r = run(
                "report",
                one.toString(),
                two.toString(),
                "-o",
                dir.resolve("out").toString());
        assertEquals("0", r[0], r[2]);
        String md = Files.readString(dir.resolve("out/comparison.md"));
        assertTrue(md.contains("| run1/static-web | " + one + " | bare | 2 |"), md);
        assertTrue(Files.readString(dir.resolve("out/index.html")).contains("<h2>Runs and their files</h2>"));

        String[] twice = run("summary", one.toString(), one.toString());
        assertEquals("2", twice[0], twice[1]);
        assertTrue(twice[2].contains(one + ": given twice (also as " + one + ")"), twice[2]);
    }

    /** A run directory's compressed JTL and a plain one side by side: the same table as both plain, runs named alike. */
    @Test
    void compressedAndPlainFilesSummarizeAlike() throws Exception {
        String rows = "timeStamp,elapsed,label,success,bytes,sentBytes,envbench.env\n"
                + "1000,5,GET,true,100,10,bare\n1100,7,GET,false,100,10,bare\n";
        Path a = dir.resolve("plain/bare-r1.jtl");
        Path b = dir.resolve("plain/bare-r2.jtl");
        Files.createDirectories(a.getParent());
        Files.writeString(a, rows);
        Files.writeString(b, rows);
        String[] plain = run("summary", a.toString(), b.toString());
        assertEquals("0", plain[0], plain[2]);

        Path gz = ResultFiles.compress(b, ResultColumns.COMPACT);
        String[] mixed = run("summary", a.toString(), gz.toString());
        assertEquals("0", mixed[0], mixed[2]);
        assertEquals(
                plain[1].lines()
                        .takeWhile(l -> !l.startsWith("Runs and their files"))
                        .toList(),
                mixed[1].lines()
                        .takeWhile(l -> !l.startsWith("Runs and their files"))
                        .toList());
        assertTrue(
                mixed[1].lines().anyMatch(l -> l.matches("bare-r2 +" + Pattern.quote(gz.toString()) + " +bare +2")),
                mixed[1]);
    }
}
