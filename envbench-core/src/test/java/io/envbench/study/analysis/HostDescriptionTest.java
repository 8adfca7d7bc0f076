package io.envbench.study.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HostDescriptionTest {
    @TempDir
    Path dir;

    @Test
    void aFixtureMachineIsReadFactByFact() throws Exception {
        Path proc = dir.resolve("proc");
        Files.createDirectories(proc.resolve("sys/kernel"));
        Files.writeString(
                proc.resolve("cpuinfo"),
                "processor\t: 0\nmodel name\t: Test CPU @ 2.0GHz\n\nprocessor\t: 1\nmodel name\t: Test CPU @ 2.0GHz\n");
        Files.writeString(proc.resolve("meminfo"), "MemTotal:        8000000 kB\nMemFree: 1 kB\n");
        Files.writeString(proc.resolve("sys/kernel/osrelease"), "6.5.0-test\n");
        Files.writeString(proc.resolve("sys/kernel/hostname"), "bench-1\n");
        Path cgroup = dir.resolve("cgroup");
        Files.createDirectories(cgroup);
        Files.writeString(cgroup.resolve("cgroup.controllers"), "cpu memory\n");
        Path osRelease = dir.resolve("os-release");
        Files.writeString(osRelease, "NAME=Test\nPRETTY_NAME=\"Test Linux 1\"\n");

        HostDescription h = HostDescription.probe(proc, cgroup, osRelease, Optional.of("24.0.7"));
        assertEquals(2, h.cpus());
        assertEquals("Test CPU @ 2.0GHz", h.cpuModel());
        assertEquals(8_000_000L * 1024, h.memoryBytes());
        assertEquals("v2", h.cgroupVersion());
        assertEquals(
                "bench-1: 2 CPUs (Test CPU @ 2.0GHz), 7.6 GiB memory, Test Linux 1, kernel 6.5.0-test, cgroup v2,"
                        + " Docker 24.0.7",
                h.describe());

        Path file = dir.resolve(HostDescription.FILE);
        h.write(file);
        assertEquals(Optional.of(h), HostDescription.read(file));
        assertFalse(Files.exists(dir.resolve(HostDescription.FILE + ".part")));
    }

    @Test
    void thisMachineHasCpusAndMemory() {
        HostDescription h = HostDescription.probe(Optional.empty());
        assertTrue(h.cpus() >= 1, h.toString());
        assertTrue(h.memoryBytes() > 0, h.toString());
        assertTrue(h.describe().contains("Docker version not recorded"), h.describe());
    }

    @Test
    void anOldRunDirectoryHasNone() throws Exception {
        assertEquals(Optional.empty(), HostDescription.read(new RunDirectory(dir).host()));
    }
}
