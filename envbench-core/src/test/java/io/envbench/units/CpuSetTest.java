package io.envbench.units;

import io.envbench.settings.InvalidSettingException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
        InvalidSettingException e = assertThrows(InvalidSettingException.class, () -> CpuSet.parseForHost("cpuset", "0-99"));
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
}
