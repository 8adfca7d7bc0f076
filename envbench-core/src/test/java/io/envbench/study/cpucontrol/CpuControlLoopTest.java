package io.envbench.study.cpucontrol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.envbench.base.units.CpuSet;
import io.envbench.host.hostsettings.HostSettingsJournal;
import io.envbench.launch.dockerdaemon.DaemonRestart;
import io.envbench.study.steering.HostFixture;
import io.envbench.study.steering.InterruptSteering;
import io.envbench.study.steering.IrqBalancePolicy;
import io.envbench.study.steering.ReceivePacketSteering;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The loop on made-up readings and a recording cpuset target, steering a fixture host tree (4 CPUs, eth0's IRQs
 * 37-39, eth1's 50-51, a veth): only changed cpusets are applied, the IRQs and the veth's RPS mask follow the free
 * CPUs, every action reaches the CSV timeline, and close puts the cpusets back (the journal the steering).
 */
class CpuControlLoopTest {
    @TempDir
    Path dir;

    /** Records the cpusets set; restore says what it puts back. */
    static final class Recorded implements TenantCpusets {
        final List<String> applied = new ArrayList<>();
        final Map<String, CpuSet> now = new LinkedHashMap<>();

        @Override
        public void apply(Tenant tenant, CpuSet cpus, boolean lowestWeight) {
            applied.add(tenant.name() + "=" + cpus + (lowestWeight ? " lowest" : ""));
            now.put(tenant.name(), cpus);
        }

        @Override
        public Map<String, String> restore() {
            Map<String, String> done = new LinkedHashMap<>();
            now.keySet().forEach(t -> done.put(t, "cpuset back to 0-3"));
            now.clear();
            return done;
        }
    }

    /** A clock that moves on a second at each reading. */
    static final class Ticking extends Clock {
        Instant now = Instant.parse("2024-01-01T00:00:00Z");

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    @Test
    void releasesSteersWritesTheTimelineAndPutsBack() throws IOException {
        HostFixture host = new HostFixture(dir.resolve("host"));
        List<Tenant> tenants = List.of(Tenant.of("tenant-1", "c1"), Tenant.of("tenant-2", "c2"));
        CpuController controller = new CpuController(
                CpuControlSettings.defaults(CpuControlMode.DYNAMIC).withInterval(Duration.ofSeconds(1)),
                tenants,
                CpuSet.online(host.sys));
        Ticking clock = new Ticking();
        double[] busy = {0.1};
        ReadingSource source = () -> {
            clock.now = clock.now.plusSeconds(1);
            return List.of(
                    TenantReading.ofCores("tenant-1", busy[0], Duration.ofSeconds(1)),
                    TenantReading.ofCores("tenant-2", 0.1, Duration.ofSeconds(1)));
        };
        Recorded cpusets = new Recorded();
        Path csv = dir.resolve("timeline.csv");
        try (HostSettingsJournal journal =
                        HostSettingsJournal.open(dir.resolve("journals"), DaemonRestart.onThisHost());
                TimelineCsv timeline = new TimelineCsv(csv)) {
            CpuControlLoop loop = CpuControlLoop.builder(controller, source, cpusets)
                    .clock(clock)
                    .timeline(timeline)
                    .steerInterrupts(InterruptSteering.ofNetworkDevices(journal, host.roots(), IrqBalancePolicy.REFUSE))
                    .steerReceivePackets(new ReceivePacketSteering(journal, host.roots()), List.of("vethab12cd"))
                    .build();
            loop.begin();
            assertEquals(List.of("tenant-1=0", "tenant-2=1"), cpusets.applied);
            assertEquals("2-3", loop.freeCpus().orElseThrow().toString());
            assertEquals("2", host.affinity(37), "IRQs spread over the free CPUs 2 and 3");
            assertEquals("3", host.affinity(38));
            assertEquals("c", host.rps("vethab12cd"), "RPS on CPUs 2-3");

            loop.step();
            assertEquals(2, cpusets.applied.size(), "nothing changed, nothing applied");
            busy[0] = 0.95;
            for (int i = 0; i < 3; i++) {
                loop.step();
            }
            assertEquals("tenant-1=0,2-3", cpusets.applied.get(2), "released: floats on its home and the free CPUs");
            loop.steer();
            assertEquals("d", host.rps("vethab12cd"), "RPS follows the free CPUs 0,2-3");
            assertEquals(
                    "0", host.affinity(39), "IRQs rotate over the free CPUs: the third of three moves on to the first");
            loop.close();
            assertEquals(Map.of(), cpusets.now, "put back");

            List<CpuAction.Kind> kinds =
                    loop.actions().stream().map(CpuAction::kind).toList();
            assertEquals(
                    List.of(
                            CpuAction.Kind.PIN,
                            CpuAction.Kind.PIN,
                            CpuAction.Kind.STEER_IRQ,
                            CpuAction.Kind.STEER_RPS,
                            CpuAction.Kind.RELEASE,
                            CpuAction.Kind.STEER_IRQ,
                            CpuAction.Kind.STEER_RPS,
                            CpuAction.Kind.RESTORE,
                            CpuAction.Kind.RESTORE),
                    kinds);
            CpuAction release = loop.actions().get(4);
            assertEquals(Duration.ofSeconds(4), release.sinceStart());
            timeline.close();
            List<String> rows = Files.readAllLines(csv);
            assertEquals(TimelineCsv.HEADER, rows.get(0));
            assertEquals(1 + kinds.size(), rows.size());
            assertEquals(
                    "2024-01-01T00:00:04Z,4.000,tenant-1,release,\"release to 0,2-3\",\"cpu 95% of its 1 CPU (0) for 3 steps, at least 90%\"",
                    rows.get(5));
            assertTrue(rows.get(3).contains(",,steer_irq,\"steer IRQ 37 -> CPU 2, IRQ 38 -> CPU 3"), rows.get(3));
        }
        assertEquals("0-3", host.affinity(38), "the journal put the IRQs back");
        assertEquals("0", host.rps("vethab12cd"));
    }
}
