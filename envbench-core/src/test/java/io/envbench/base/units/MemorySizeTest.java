package io.envbench.base.units;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.envbench.base.settings.InvalidSettingException;
import org.junit.jupiter.api.Test;

class MemorySizeTest {
    @Test
    void parsesDockerStyleSizes() {
        assertEquals(512L << 20, MemorySize.parseBytes("memory", "512m"));
        assertEquals(1L << 30, MemorySize.parseBytes("memory", "1g"));
        assertEquals(3L << 29, MemorySize.parseBytes("memory", "1.5G"));
        assertEquals(268435456L, MemorySize.parseBytes("memory", "268435456"));
        assertEquals(512L << 20, MemorySize.parseBytes("memory", "512MiB"));
        assertEquals(64L << 10, MemorySize.parseBytes("memory", " 64k "));
    }

    @Test
    void badSizeNamesTheFieldAndTheFix() {
        InvalidSettingException e =
                assertThrows(InvalidSettingException.class, () -> MemorySize.parseBytes("memory", "12XB"));
        assertEquals("memory", e.field());
        assertTrue(e.getMessage().startsWith("memory: '12XB' is not a size"), e.getMessage());
        assertTrue(e.getMessage().contains("512m"), e.getMessage());
    }

    @Test
    void containerLimitBelowDockersMinimumIsRefused() {
        InvalidSettingException e =
                assertThrows(InvalidSettingException.class, () -> MemorySize.parseContainerLimit("memory", "1m"));
        assertTrue(e.getMessage().contains("6m"), e.getMessage());
        assertEquals(6L << 20, MemorySize.parseContainerLimit("memory", "6m"));
    }
}
