package io.envbench.base.units;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import io.envbench.base.settings.InvalidSettingException;
import org.junit.jupiter.api.Test;

class CpuSetTest {
    @Test
    void parsesRangesAndLists() {
        CpuSet s = CpuSet.parseList("cpuset", "0-2,5");
        assertEquals(4, s.size());
        assertTrue(s.contains(5));
        assertFalse(s.contains(3));
        assertEquals("0-2,5", s.toString());
    }

    @Test
    void onlineCpusMatchTheJvmsView() {
        // the JVM may be limited to fewer CPUs than are online, never more
        assertTrue(CpuSet.online().size() >= Runtime.getRuntime().availableProcessors());
        assertTrue(CpuSet.online().contains(0));
    }

    @Test
    void cpusTheHostLacksAreRefusedWithTheValidRange() {
        InvalidSettingException e =
                assertThrows(InvalidSettingException.class, () -> CpuSet.parseForHost("cpuset", "0-99"));
        assertEquals("cpuset", e.field());
        assertTrue(e.getMessage().contains("does not exist on this host"), e.getMessage());
        assertTrue(e.getMessage().contains("online CPUs: "), e.getMessage());
    }

    @Test
    void malformedListsAreRefused() {
        assertThrows(InvalidSettingException.class, () -> CpuSet.parseList("cpuset", "abc"));
        assertThrows(InvalidSettingException.class, () -> CpuSet.parseList("cpuset", "3-1"));
        assertThrows(InvalidSettingException.class, () -> CpuSet.parseList("cpuset", ""));
        assertThrows(InvalidSettingException.class, () -> CpuSet.parseList("cpuset", "1-2-3"));
    }

    @Test
    void hexMasksAreWrittenAndReadAsTheKernelDoes() {
        assertEquals("3", CpuSet.parseList("rpsCpus", "0-1").toHexMask());
        assertEquals("a", CpuSet.parseList("rpsCpus", "1,3").toHexMask());
        assertEquals("80000000", CpuSet.parseList("rpsCpus", "31").toHexMask());
        assertEquals("2,00000001", CpuSet.parseList("rpsCpus", "0,33").toHexMask(), "32-bit groups, highest first");
        assertEquals(CpuSet.parseList("rpsCpus", "0,33"), CpuSet.parseHexMask("rpsCpus", "00000002,00000001"));
        assertEquals(CpuSet.parseList("rpsCpus", "0-1"), CpuSet.parseHexMask("rpsCpus", "3"));
        assertEquals("0-1", CpuSet.parseHexMask("rpsCpus", "3").toString());
        assertEquals(List.of(1, 3), CpuSet.parseHexMask("rpsCpus", "A").cpus());
        for (String bad : new String[] {"", "xyz", "0", "00000000,00000000", "123456789", ",3", "3,"}) {
            InvalidSettingException e =
                    assertThrows(InvalidSettingException.class, () -> CpuSet.parseHexMask("rpsCpus", bad), bad);
            assertEquals("rpsCpus", e.field());
        }
    }

    @Test
    void aSetIsCheckedAgainstTheOnlineCpusGiven() {
        CpuSet online = CpuSet.parseList("online CPUs", "0-3");
        assertEquals(
                CpuSet.parseList("irqCpus", "2-3"),
                CpuSet.parseList("irqCpus", "2,3").requireWithin("irqCpus", online));
        InvalidSettingException e = assertThrows(
                InvalidSettingException.class,
                () -> CpuSet.parseList("irqCpus", "3-5").requireWithin("irqCpus", online));
        assertEquals(
                "irqCpus: CPU 4-5 does not exist on this host (online CPUs: 0-3); use CPUs within 0-3", e.getMessage());
    }
}
