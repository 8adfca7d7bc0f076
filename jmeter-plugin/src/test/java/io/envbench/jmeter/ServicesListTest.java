package io.envbench.jmeter;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.apache.jmeter.functions.Function;
import org.apache.jmeter.gui.JMeterGUIComponent;
import org.apache.jmeter.testbeans.TestBean;
import org.apache.jorphan.reflect.ClassFinder;
import org.junit.jupiter.api.Test;

/**
 * The jar says JMeter-Skip-Class-Scanning, so JMeter finds its functions only through META-INF/services: each list
 * holds exactly the classes a scan of the compiled plugin finds, and an element added without its line fails here.
 */
class ServicesListTest {
    private static final Path CLASSES = Path.of("target/classes");

    @Test
    void functionsAreListed() throws IOException {
        assertEquals(scanned(Function.class), listed(Function.class));
    }

    @Test
    void guiComponentsAndTestBeansAreListed() throws IOException {
        assertEquals(scanned(JMeterGUIComponent.class), listed(JMeterGUIComponent.class));
        assertEquals(scanned(TestBean.class), listed(TestBean.class));
    }

    @SuppressWarnings("deprecation") // the scan JMeter itself still runs for jars without the attribute
    private static Set<String> scanned(Class<?> service) throws IOException {
        List<String> found = ClassFinder.findClassesThatExtend(
                new String[] {CLASSES.toAbsolutePath().toString()}, new Class<?>[] {service});
        return new TreeSet<>(found);
    }

    private static Set<String> listed(Class<?> service) throws IOException {
        Path file = CLASSES.resolve("META-INF/services/" + service.getName());
        return new TreeSet<>(Files.readAllLines(file).stream()
                .map(String::trim)
                .filter(l -> !l.isEmpty() && !l.startsWith("#"))
                .toList());
    }
}
