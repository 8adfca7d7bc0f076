package io.envbench.jmeter.cpucontrol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import io.envbench.jmeter.GuiTests;
import io.envbench.study.cpucontrol.CpuControlMode;
import io.envbench.study.cpucontrol.FloatingCpus;
import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.util.JMeterUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The element at a test's start: a wrong field stops the test before its first sample and leaves nothing (no timeline
 * file); good fields with no tenant running change nothing and make no file, samples included.
 */
class CpuControlTest {
    @TempDir
    Path dir;

    private final AtomicInteger stops = new AtomicInteger();
    private CpuControl control;

    @BeforeAll
    static void jmeter() {
        GuiTests.initJMeter();
    }

    private CpuControl control(String interval, Path file) {
        control = new CpuControl();
        control.setMode("dynamic");
        control.setIntervalSeconds(interval);
        control.setHighTenants("");
        control.setGoals("");
        control.setCpusPerTenant("1");
        control.setIrqSteering("off");
        control.setIrqBalance("refuse");
        control.setRpsSteering("off");
        control.setFilename(file.toString());
        control.onFailureStop(stops::incrementAndGet);
        return control;
    }

    @AfterEach
    void end() {
        if (control != null) {
            control.testEnded();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "11", "abc", "", "0.5"})
    void aBadIntervalStopsTheTestAndWritesNothing(String interval) throws Exception {
        Path file = dir.resolve("timeline.csv");
        control(interval, file).testStarted();
        assertEquals(1, stops.get(), "the test is stopped");
        Thread.sleep(300);
        assertFalse(Files.exists(file), "a timeline file was written");
    }

    /** A plan saved before the floating field existed: the property its default names decides, unpinned without it. */
    @Test
    void aPlanWithoutTheFloatingFieldTakesItsProperty() {
        CpuControl old = control("2", dir.resolve("timeline.csv"));
        assertEquals(FloatingCpus.UNPINNED, old.checkedFields().settings().floating());
        JMeterUtils.setProperty("envbench.cpucontrol.floating", "spare");
        try {
            assertEquals(FloatingCpus.SPARE, old.checkedFields().settings().floating());
            old.setFloating("all");
            assertEquals(FloatingCpus.ALL, old.checkedFields().settings().floating(), "the field, once saved, wins");
        } finally {
            JMeterUtils.getJMeterProperties().remove("envbench.cpucontrol.floating");
        }
    }

    /** A plan with none of the fields (written by hand): each field's property decides, its own default without it. */
    @Test
    void aPlanWithoutAnyFieldTakesEachProperty() {
        CpuControl bare = new CpuControl();
        CpuControlFields defaults = bare.checkedFields();
        assertEquals(CpuControlMode.DYNAMIC, defaults.settings().mode());
        assertEquals(Duration.ofSeconds(2), defaults.settings().interval());
        assertEquals(FloatingCpus.UNPINNED, defaults.settings().floating());
        assertFalse(defaults.interruptSteering());
        JMeterUtils.setProperty("envbench.cpucontrol.mode", "static");
        JMeterUtils.setProperty("envbench.cpucontrol.interval.seconds", "5");
        JMeterUtils.setProperty("envbench.cpucontrol.irq.steering", "on");
        try {
            CpuControlFields set = bare.checkedFields();
            assertEquals(CpuControlMode.STATIC, set.settings().mode());
            assertEquals(Duration.ofSeconds(5), set.settings().interval());
            assertTrue(set.interruptSteering());
        } finally {
            JMeterUtils.getJMeterProperties().remove("envbench.cpucontrol.mode");
            JMeterUtils.getJMeterProperties().remove("envbench.cpucontrol.interval.seconds");
            JMeterUtils.getJMeterProperties().remove("envbench.cpucontrol.irq.steering");
        }
    }

    @Test
    void aTimelineInAFolderThatDoesNotExistStopsTheTest() {
        control("2", dir.resolve("no-such-folder/timeline.csv")).testStarted();
        assertEquals(1, stops.get());
    }

    @Test
    void withoutTenantsNothingIsChangedNorWritten() throws IOException, InterruptedException {
        Path file = dir.resolve("timeline.csv");
        control("1", file).testStarted();
        assertEquals(0, stops.get());
        SampleResult r = SampleResult.createTestSample(12);
        r.setSampleLabel("login");
        control.sampleOccurred(new SampleEvent(r, "tenant-1"));
        Thread.sleep(1500); // a look at the tenants: none runs
        control.testEnded();
        assertFalse(Files.exists(file), "no tenant ran, yet a timeline file was made");
        assertEquals(0, stops.get());
    }
}
