package io.envbench.jmeter.listeners;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;

import io.envbench.jmeter.GuiTests;
import org.apache.jmeter.reporters.ResultCollector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** JMeter 5.6.3's JTL writers are found where it keeps them: a newer JMeter that moves them fails this test. */
class JtlWritersTest {
    @TempDir
    Path dir;

    @Test
    void aResultCollectorsOpenFileIsFoundWithItsWriter() throws Exception {
        GuiTests.initJMeter();
        Path jtl = dir.toRealPath().resolve("r.jtl"); // JMeter keeps its writers by canonical path
        ResultCollector rc = new ResultCollector();
        rc.setFilename(jtl.toString());
        rc.testStarted();
        try {
            Map<Path, PrintWriter> open = JtlWriters.open();
            assertTrue(open.containsKey(jtl), open.toString());
            assertFalse(open.get(jtl).checkError(), "a writer that works");
        } finally {
            rc.testEnded();
        }
        assertFalse(JtlWriters.open().containsKey(jtl), "closed at the test's end");
    }
}
