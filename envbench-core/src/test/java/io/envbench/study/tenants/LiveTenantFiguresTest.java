package io.envbench.study.tenants;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The per-tenant windows read from a JTL as JMeter writes it: whole lines only, each line counted once. */
class LiveTenantFiguresTest {
    static final String HEADER =
            "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,failureMessage,bytes,"
                    + "sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect,envbench.env\n";

    static String row(long elapsed, boolean ok, String tenant) {
        return "1700000000000," + elapsed + ",login,200,OK,t 1-1,text," + ok + ",,100,10,1,1,http://x,1,0,0," + tenant
                + "\n";
    }

    @Test
    void drainsWholeLinesOncePerTenant(@TempDir Path dir) throws Exception {
        Path jtl = dir.resolve("r.jtl");
        LiveTenantFigures live = new LiveTenantFigures(jtl);
        assertEquals(Map.of(), live.drain(), "no file yet");
        Files.writeString(
                jtl,
                HEADER + row(10, true, "tenant-1") + row(20, true, "tenant-1") + row(30, false, "tenant-2")
                        + "1700000000000,40,login"); // a line JMeter is still writing
        Map<String, LiveTenantFigures.Window> w = live.drain();
        assertEquals(2, w.get("tenant-1").requests());
        assertEquals(15.0, w.get("tenant-1").elapsed().mean());
        assertEquals(1, w.get("tenant-2").errors());
        Files.writeString(
                jtl, ",200,OK,t 1-1,text,true,,100,10,1,1,http://x,1,0,0,tenant-2\n", StandardOpenOption.APPEND);
        w = live.drain();
        assertEquals(1, w.get("tenant-2").requests(), "the finished line, once");
        assertEquals(0, w.get("tenant-2").errors());
        assertEquals(40, w.get("tenant-2").elapsed().nearestRank(0.9));
        assertEquals(null, w.get("tenant-1"), "nothing new of tenant-1");
        assertEquals(Map.of(), live.drain());
    }
}
