package io.envbench.study.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JMeterStartGateTest {
    @TempDir
    Path dir;

    @Test
    void whatTheRunnerWritesJMeterReadsBackInOrderAndTheEmptyLineOpensTheGate() throws IOException {
        Map<String, String> props = new LinkedHashMap<>();
        props.put("envbench.host", "127.0.0.1");
        props.put("envbench.port", "18480");
        props.put("envbench.empty", "");
        props.put("envbench.url", "http://x/?a=b");
        StringWriter w = new StringWriter();
        JMeterStartGate.open(w, props);
        assertTrue(w.toString().endsWith("\n\n"), w.toString());
        // what follows the empty line is not the gate's
        BufferedReader in = new BufferedReader(new StringReader(w + "later=1\n"));
        assertEquals(Optional.of(props), JMeterStartGate.await(in));
        assertEquals("later=1", in.readLine());
        StringWriter none = new StringWriter();
        JMeterStartGate.open(none, Map.of());
        assertEquals(
                Optional.of(Map.of()), JMeterStartGate.await(new BufferedReader(new StringReader(none.toString()))));
    }

    @Test
    void standardInputEndingBeforeTheEmptyLineMeansTheRunWillNotHappen() throws IOException {
        assertEquals(Optional.empty(), JMeterStartGate.await(new BufferedReader(new StringReader(""))));
        assertEquals(
                Optional.empty(),
                JMeterStartGate.await(new BufferedReader(new StringReader("envbench.host=127.0.0.1\n"))));
    }

    @Test
    void aLineThatIsNotNameValueNamesTheVersionMismatchAndTheFix() {
        IOException e = assertThrows(
                IOException.class, () -> JMeterStartGate.await(new BufferedReader(new StringReader("go\n\n"))));
        assertTrue(e.getMessage().contains("'go'") && e.getMessage().contains("./envbench setup"), e.getMessage());
        assertThrows(IOException.class, () -> JMeterStartGate.await(new BufferedReader(new StringReader("=1\n\n"))));
        IllegalArgumentException bad = assertThrows(
                IllegalArgumentException.class, () -> JMeterStartGate.open(new StringWriter(), Map.of("a", "x\ny")));
        assertTrue(bad.getMessage().contains("'a'"), bad.getMessage());
    }

    @Test
    void aPlanStartsAheadOnlyWithAnEnabledGate() throws IOException {
        Path builtin = Path.of(System.getProperty("envbench.root", "..")).resolve("testplans/http-load.jmx");
        assertTrue(JMeterStartGate.in(builtin), builtin.toString());
        String gate =
                "<" + JMeterStartGate.ELEMENT + " guiclass=\"io.envbench.jmeter.startgate.StartGateGui\" testclass=\""
                        + JMeterStartGate.ELEMENT + "\" testname=\"EnvBench Start Gate\" enabled=\"%s\">\n</"
                        + JMeterStartGate.ELEMENT + ">\n";
        Path on = Files.writeString(dir.resolve("on.jmx"), "<hashTree>\n" + gate.formatted("true") + "</hashTree>\n");
        Path off =
                Files.writeString(dir.resolve("off.jmx"), "<hashTree>\n" + gate.formatted("false") + "</hashTree>\n");
        Path both = Files.writeString(dir.resolve("both.jmx"), gate.formatted("false") + gate.formatted("true"));
        Path without = Files.writeString(dir.resolve("without.jmx"), "<hashTree><TestPlan/></hashTree>");
        assertTrue(JMeterStartGate.in(on));
        assertFalse(JMeterStartGate.in(off));
        assertTrue(JMeterStartGate.in(both));
        assertFalse(JMeterStartGate.in(without));
        assertFalse(JMeterStartGate.in(dir.resolve("missing.jmx")));
    }
}
