package io.envbench.jmeter.listeners;

import java.io.PrintWriter;
import java.lang.reflect.Field;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.jmeter.reporters.ResultCollector;

/**
 * The JTL writers JMeter has open: every result file of the plan's listeners and of {@code -l}, by file. JMeter writes
 * them through a {@link PrintWriter}, which swallows every IOException (a full disk, a file system gone read-only) and
 * only remembers it for {@link PrintWriter#checkError()}; JMeter asks that once, when it closes the file, and logs a
 * warning nobody sees. The writers are kept in {@code ResultCollector}'s private map, so they are read by reflection:
 * JMeter offers no other way to a file's writer. Another JMeter than 5.6.x may keep them differently; then
 * {@link #open()} throws and the JTLs go unwatched, said once in the log.
 */
final class JtlWriters {
    private JtlWriters() {}

    /**
     * A copy of JMeter's open writers (file -> writer), taken under JMeter's own lock: the map changes when a test starts
     * or ends.
     */
    static Map<Path, PrintWriter> open() throws ReflectiveOperationException {
        Field filesField = ResultCollector.class.getDeclaredField("files");
        Field lockField = ResultCollector.class.getDeclaredField("LOCK");
        filesField.setAccessible(true);
        lockField.setAccessible(true);
        Map<?, ?> files = (Map<?, ?>) filesField.get(null);
        Map<Path, PrintWriter> out = new LinkedHashMap<>();
        synchronized (lockField.get(null)) {
            for (Map.Entry<?, ?> e : files.entrySet()) {
                Field pw = e.getValue().getClass().getDeclaredField("pw");
                pw.setAccessible(true);
                out.put(Path.of((String) e.getKey()), (PrintWriter) pw.get(e.getValue()));
            }
        }
        return out;
    }
}
