package io.envbench.measure.engines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.envbench.base.settings.InvalidSettingException;
import io.envbench.measure.metrics.MetricsFile;
import io.envbench.measure.results.JtlReader;
import io.envbench.measure.results.JtlTail;
import io.envbench.measure.results.ResultFiles;
import io.envbench.measure.results.Sample;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Engines as -R names them, the carrier format, and a JTL split into per-engine metrics files; carriers are no load. */
class EngineMetricsTest {
    @TempDir
    Path dir;

    static final String HEADER =
            "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,failureMessage,bytes,"
                    + "sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect,\"envbench.env\",\"envbench.engine\"\n";

    @Test
    void enginesAreParsedAsRemoteHostsNamesThem() {
        assertEquals(new RemoteEngine("127.0.0.1", 1099), RemoteEngine.parse("127.0.0.1"));
        assertEquals("127.0.0.1:24101", RemoteEngine.parse(" 127.0.0.1:24101 ").toString());
        assertEquals("[::1]:1100", RemoteEngine.parse("[::1]:1100").toString());
        assertTrue(RemoteEngine.parse("127.0.0.2:1").loopback());
        assertTrue(RemoteEngine.parse("localhost:1099").loopback());
        assertFalse(RemoteEngine.parse("loadgen-2:1099").loopback());
        assertEquals("127.0.0.1_24101", RemoteEngine.parse("127.0.0.1:24101").fileTag());
        assertTrue(assertThrows(InvalidSettingException.class, () -> RemoteEngine.parse("127.0.0.1:99999"))
                .getMessage()
                .contains("not a TCP port"));
        assertTrue(assertThrows(InvalidSettingException.class, () -> RemoteEngine.parse("a b:1099"))
                .getMessage()
                .contains("HOST:PORT"));
        assertTrue(assertThrows(InvalidSettingException.class, () -> RemoteEngine.parse("h:x"))
                .getMessage()
                .contains("'x' is not a port"));
        InvalidSettingException twice = assertThrows(
                InvalidSettingException.class,
                () -> RemoteEngines.of(
                        List.of(RemoteEngine.parse("h:1"), RemoteEngine.parse("h:1")),
                        dir.resolve("k.jks").toAbsolutePath()));
        assertEquals("engines[1]", twice.field());
        assertEquals(
                "rmiKeystore",
                assertThrows(
                                InvalidSettingException.class,
                                () -> new RemoteEngines(List.of(RemoteEngine.parse("h:1")), Optional.empty()))
                        .field());
        assertEquals(
                "h:1,h:2",
                RemoteEngines.of(List.of(RemoteEngine.parse("h:1"), RemoteEngine.parse("h:2")), Path.of("/k.jks"))
                        .remoteHosts());
        assertEquals("changeit", RemoteEngines.password(Map.of()));
        assertEquals("s3", RemoteEngines.password(Map.of(RemoteEngines.PASSWORD_VARIABLE, "s3")));
    }

    @Test
    void aTickSurvivesTheCarrierUnchangedAndWithoutCommasOrQuotes() {
        Map<String, Double> tick = new LinkedHashMap<>();
        tick.put("host.cpu.pct", 12.345678);
        tick.put("process.jmeter.rss.bytes", 2.5e9);
        tick.put("host.disk.sda.busy.pct", Double.NaN);
        String message = EngineMetrics.encode(tick);
        assertFalse(message.contains(",") || message.contains("\""), message);
        Map<String, Double> back = EngineMetrics.decode(message);
        assertEquals(
                List.of("host.cpu.pct", "process.jmeter.rss.bytes"),
                List.copyOf(back.keySet()),
                "no reading, no value");
        assertEquals(12.345678, back.get("host.cpu.pct"));
        assertEquals(2.5e9, back.get("process.jmeter.rss.bytes"));
        assertThrows(IllegalArgumentException.class, () -> EngineMetrics.decode("host.cpu.pct=abc"));
    }

    @Test
    void aJtlIsSplitIntoOneMetricsFilePerEngineAndReadersCountOnlyTheLoad() throws Exception {
        Path jtl = dir.resolve("bare-r1.jtl");
        Files.writeString(
                jtl,
                HEADER
                        + "1000,2,GET /,200,OK,127.0.0.1:1099-HTTP load 1-1,text,true,,100,10,1,1,http://x/,1,0,0,bare,127.0.0.1:1099\n"
                        + "1001,0,EnvBench engine metrics,200,host.cpu.pct=50.0;process.jmeter.cpu.pct=80.5,127.0.0.1:1099-EnvBench engine metrics 1-1,text,true,,0,0,1,1,,0,0,0,bare,127.0.0.1:1099\n"
                        + "1002,3,GET /,200,OK,127.0.0.1:1100-HTTP load 1-1,text,true,,100,10,1,1,http://x/,1,0,0,bare,127.0.0.1:1100\n"
                        + "1003,0,EnvBench engine metrics,200,host.cpu.pct=60.0;process.jmeter.cpu.pct=70.0,127.0.0.1:1100-EnvBench engine metrics 1-1,text,true,,0,0,1,1,,0,0,0,bare,127.0.0.1:1100\n"
                        + "1004,0,EnvBench engine metrics,200,host.cpu.pct=70.0;process.jmeter.cpu.pct=90.0;host.net.lo.rx.bytesPerSec=5,127.0.0.1:1099-EnvBench engine metrics 1-1,text,true,,0,0,1,1,,0,0,0,bare,127.0.0.1:1099\n");
        List<Sample> load = new ArrayList<>();
        assertEquals(2, JtlReader.read(jtl, load::add));
        assertTrue(load.stream().allMatch(s -> s.label().equals("GET /")), "carriers are no load: " + load);
        List<Sample> tailed = new ArrayList<>();
        assertEquals(2, new JtlTail(jtl).poll(tailed::add), "the live tail leaves them out too");

        Map<String, Path> files = EngineMetricsFiles.split(
                jtl, ResultFiles.reader(jtl), "bare", e -> dir.resolve("m-" + RemoteEngine.tagOf(e) + ".csv"));
        assertEquals(List.of("127.0.0.1:1099", "127.0.0.1:1100"), List.copyOf(files.keySet()));
        MetricsFile first = MetricsFile.read(files.get("127.0.0.1:1099"));
        assertEquals(2, first.summary("bare", "host.cpu.pct").samples());
        assertEquals(60.0, first.summary("bare", "host.cpu.pct").average(), 1e-9);
        assertEquals(90.0, first.summary("bare", "process.jmeter.cpu.pct").peak(), 1e-9);
        assertEquals(
                1,
                first.summary("bare", "host.net.lo.rx.bytesPerSec").samples(),
                "a column that appears later widens the file");
        assertEquals(
                70.0,
                MetricsFile.read(files.get("127.0.0.1:1100"))
                        .summary("bare", "process.jmeter.cpu.pct")
                        .average(),
                1e-9);
        assertTrue(Files.readString(files.get("127.0.0.1:1100")).startsWith("timestamp,environment,host.cpu.pct"));
    }

    @Test
    void aJtlWithoutTheEngineColumnSaysWhatIsMissing() throws Exception {
        Path jtl = dir.resolve("x.jtl");
        Files.writeString(jtl, "timeStamp,elapsed,label,responseMessage\n1,0,EnvBench engine metrics,host.cpu.pct=1\n");
        String message = assertThrows(
                        IOException.class,
                        () -> EngineMetricsFiles.split(jtl, ResultFiles.reader(jtl), "bare", e -> dir.resolve("m.csv")))
                .getMessage();
        assertTrue(message.contains("envbench.engine") && message.contains("sample_variables"), message);
        assertFalse(Files.exists(dir.resolve("m.csv")), "nothing half-made");
    }
}
