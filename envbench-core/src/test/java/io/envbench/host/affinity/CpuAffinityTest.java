package io.envbench.host.affinity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.envbench.base.units.CpuSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Affinities set and read on real processes of this host; docker-proxy found in a fixture /proc. */
class CpuAffinityTest {
    @TempDir
    Path proc;

    @Test
    void aProcessTreeIsConfinedAndReadBackFromProc() throws Exception {
        assertTrue(CpuAffinity.available(), "taskset (util-linux) is part of every Debian; isolation needs it");
        CpuSet online = CpuSet.online();
        CpuSet first = CpuSet.parseList("cpu", Integer.toString(online.cpus().get(0)));
        // a shell with a child: the child must be confined too
        Process p = new ProcessBuilder("sh", "-c", "sleep 30 & wait").start();
        try {
            long deadline = System.currentTimeMillis() + 5000;
            while (p.descendants().findAny().isEmpty() && System.currentTimeMillis() < deadline) {
                Thread.sleep(20);
            }
            CpuAffinity a = new CpuAffinity();
            assertEquals(Optional.of(online), a.allowed(p.pid()), "a new process may use every CPU");
            List<Long> confined = a.confineTree(p.pid(), first);
            assertEquals(2, confined.size(), "the shell and its sleep: " + confined);
            for (long pid : confined) {
                assertEquals(Optional.of(first), a.allowed(pid), "PID " + pid);
            }
        } finally {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            p.waitFor(5, TimeUnit.SECONDS);
        }
    }

    @Test
    void aProcessWhoseThreadsComeAndGoIsConfinedAllTheSame() throws Exception {
        assertTrue(CpuAffinity.available(), "taskset (util-linux) is part of every Debian; isolation needs it");
        // this JVM, with threads that end while taskset walks them (a server starting up does the same); confined to
        // the CPUs it already has, so nothing changes for the rest of the suite
        long self = ProcessHandle.current().pid();
        CpuAffinity a = new CpuAffinity();
        CpuSet own = a.allowed(self).orElseThrow();
        AtomicBoolean stop = new AtomicBoolean();
        Thread churn = new Thread(() -> {
            while (!stop.get()) {
                Thread t = new Thread(() -> {});
                t.start();
            }
        });
        churn.start();
        try {
            for (int i = 0; i < 40; i++) {
                assertTrue(a.confineProcess(self, own), "attempt " + i);
            }
        } finally {
            stop.set(true);
            churn.join(5000);
        }
        assertEquals(Optional.of(own), a.allowed(self));
    }

    @Test
    void aCpuTheHostLacksIsRefusedNamingTheProcess() throws Exception {
        assertTrue(CpuAffinity.available(), "taskset (util-linux) is part of every Debian; isolation needs it");
        Process p = new ProcessBuilder("sleep", "30").start();
        try {
            IOException e = assertThrows(
                    IOException.class, () -> new CpuAffinity().confineTree(p.pid(), CpuSet.parseList("cpu", "4000")));
            assertTrue(
                    e.getMessage().contains("PID " + p.pid()) && e.getMessage().contains("4000"), e.getMessage());
        } finally {
            p.destroyForcibly();
            p.waitFor(5, TimeUnit.SECONDS);
        }
    }

    @Test
    void theCommandStartsConfined() {
        assertEquals(
                List.of("/usr/bin/taskset", "-c", "0", "java", "-jar", "x.jar"),
                CpuAffinity.confined(CpuSet.parseList("cpu", "0"), List.of("java", "-jar", "x.jar")));
    }

    @Test
    void theDockerProxyOfAPortIsFoundByItsCommandLine() throws Exception {
        process(
                101,
                "/usr/bin/docker-proxy",
                "-proto",
                "tcp",
                "-host-ip",
                "127.0.0.1",
                "-host-port",
                "18080",
                "-container-ip",
                "172.17.0.2",
                "-container-port",
                "8080");
        process(102, "/usr/bin/docker-proxy", "-proto", "tcp", "-host-ip", "127.0.0.1", "-host-port", "18081");
        process(103, "/usr/sbin/nginx", "-host-port", "18080"); // not a proxy
        Files.createDirectories(proc.resolve("104")); // a process that ended while listed: no cmdline
        Files.writeString(proc.resolve("105-not-a-pid"), "");
        assertEquals(List.of(101L), new CpuAffinity(proc).dockerProxies(18080));
        assertEquals(List.of(), new CpuAffinity(proc).dockerProxies(9));
    }

    @Test
    void allowedCpusComeFromTheStatusLine() throws Exception {
        Path d = Files.createDirectories(proc.resolve("7"));
        Files.writeString(d.resolve("status"), "Name:\tnginx\nCpus_allowed:\t2\nCpus_allowed_list:\t1\n");
        assertEquals(Optional.of(CpuSet.parseList("cpu", "1")), new CpuAffinity(proc).allowed(7));
        assertEquals(Optional.empty(), new CpuAffinity(proc).allowed(8), "gone");
    }

    private void process(long pid, String... args) throws IOException {
        Path d = Files.createDirectories(proc.resolve(Long.toString(pid)));
        Files.write(d.resolve("cmdline"), (String.join("\0", args) + "\0").getBytes(StandardCharsets.UTF_8));
    }
}
