package io.envbench.measure.hints;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import io.envbench.measure.metrics.MetricsFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** When JMeter, not the target, set the pace: on CPUs of its own, and sharing them. */
class GeneratorLoadTest {
    @TempDir
    Path dir;

    /** Three rows per environment: host CPU (both cores), per core, JMeter's CPU (one core = 100). */
    private MetricsFile metrics(String... envHostJmeter) throws Exception {
        StringBuilder b = new StringBuilder(
                "timestamp,environment,host.cpu.pct,host.cpu0.pct,host.cpu1.pct," + "process.jmeter.cpu.pct\n");
        long t = 1_000;
        for (String e : envHostJmeter) {
            String[] f = e.split(":");
            for (int i = 0; i < 3; i++) {
                b.append(t += 1000)
                        .append(',')
                        .append(f[0])
                        .append(',')
                        .append(f[1])
                        .append(",50,50,")
                        .append(f[2])
                        .append('\n');
            }
        }
        Path file = dir.resolve("metrics.csv");
        Files.writeString(file, b);
        return MetricsFile.read(file);
    }

    @Test
    void onItsOwnCpuJMeterAtNinetyPercentSetsThePace() throws Exception {
        // the demo's bare runs, isolated on two cores: JMeter 97% of CPU 0, nginx 20% of CPU 1
        MetricsFile m = metrics("bare:60:97", "light:40:50");
        Optional<GeneratorLoad.Bound> bound = GeneratorLoad.bound(m, "bare", 1);
        assertTrue(bound.isPresent());
        assertTrue(
                bound.get().text().startsWith("JMeter used 97% of the CPUs it had to itself"),
                bound.get().text());
        assertTrue(
                bound.get()
                        .text()
                        .contains("process.jmeter.cpu.pct avg 97% of 1 CPU, at 90% or more in 100% of the seconds"),
                bound.get().text());
        assertEquals(Optional.empty(), GeneratorLoad.bound(m, "light", 1));
        assertEquals(Optional.empty(), GeneratorLoad.bound(m, "bare", 2), "97% of two CPUs is under half of them");
    }

    /**
     * Study 001's login site: JMeter on a core of its own saturated in most seconds (its own JIT warm-up outlasting the
     * warm-up left out, then the target's pace), yet under 90% on average: the seconds decide.
     */
    @Test
    void saturatedInHalfTheSecondsSetsThePaceWhateverTheAverage() throws Exception {
        StringBuilder b = new StringBuilder("timestamp,environment,host.cpu.pct,process.jmeter.cpu.pct\n");
        long t = 1_000;
        // "half": 5 of 10 seconds at 99%, the rest at 40% (average 69.5%); "third": 3 of 9 at 99%, the rest at 40%
        for (String[] env : new String[][] {{"half", "5", "10"}, {"third", "3", "9"}}) {
            for (int i = 0; i < Integer.parseInt(env[2]); i++) {
                b.append(t += 1000)
                        .append(',')
                        .append(env[0])
                        .append(",80,")
                        .append(i < Integer.parseInt(env[1]) ? 99 : 40)
                        .append('\n');
            }
        }
        Path file = dir.resolve("seconds.csv");
        Files.writeString(file, b);
        MetricsFile m = MetricsFile.read(file);
        GeneratorLoad.Bound half = GeneratorLoad.bound(m, "half", 1).orElseThrow();
        assertEquals(
                "JMeter was saturated on the CPUs it had to itself in 50% of the seconds after the warm-up: in those"
                        + " the load generator, not the target, set the pace (process.jmeter.cpu.pct avg 70% of 1 CPU,"
                        + " at 90% or more in 50% of the seconds)",
                half.text());
        assertEquals(
                Optional.empty(), GeneratorLoad.bound(m, "third", 1), "a third of the seconds is not most of a run");
        assertEquals(Optional.empty(), GeneratorLoad.bound(m, "half", 2), "99% of one core is half of two");
    }

    @Test
    void sharingTheCpusJMetersShareOfASaturatedMachineCounts() throws Exception {
        // 2 cores at 95%: JMeter's 110 of 190 busy is 58%; at 40 it is 21%, under the 30% rule
        MetricsFile m = metrics("heavy:95:110", "fair:95:40", "idle:50:110");
        assertTrue(GeneratorLoad.bound(m, "heavy", 0).orElseThrow().why().contains("58% of a saturated machine"));
        assertEquals(Optional.empty(), GeneratorLoad.bound(m, "fair", 0));
        assertEquals(Optional.empty(), GeneratorLoad.bound(m, "idle", 0), "the machine had CPU left");
        assertEquals(Optional.empty(), GeneratorLoad.bound(m, "nosuch", 0));
    }
}
