package io.envbench.study.steering;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The host end of a container's veth, found by its eth0's iflink in a fixture tree; the real one is in CpuControlRealTest. */
class VethHostEndTest {
    @TempDir
    Path dir;

    @Test
    void theHostInterfaceWhoseIfindexIsTheContainersIflinkIsFound() throws IOException {
        HostFixture host = new HostFixture(dir);
        HostFixture.write(host.sys.resolve("class/net/eth0/ifindex"), "2");
        HostFixture.write(host.sys.resolve("class/net/lo/ifindex"), "1");
        HostFixture.write(host.sys.resolve("class/net/vethab12cd/ifindex"), "27");
        HostFixture.write(host.proc.resolve("4242/root/sys/class/net/eth0/iflink"), "27");
        HostFixture.write(host.proc.resolve("4242/root/sys/class/net/eth0/ifindex"), "26");
        assertEquals(Optional.of("vethab12cd"), VethHostEnd.of(host.roots(), 4242));
    }

    @Test
    void aContainerOnTheHostsNetworkOrGoneHasNone() throws IOException {
        HostFixture host = new HostFixture(dir);
        HostFixture.write(host.sys.resolve("class/net/eth0/ifindex"), "2");
        HostFixture.write(host.proc.resolve("77/root/sys/class/net/eth0/iflink"), "2");
        HostFixture.write(host.proc.resolve("77/root/sys/class/net/eth0/ifindex"), "2");
        assertEquals(Optional.empty(), VethHostEnd.of(host.roots(), 77), "eth0 is its own peer: the host's network");
        assertEquals(Optional.empty(), VethHostEnd.of(host.roots(), 78), "no such process");
        HostFixture.write(host.proc.resolve("79/root/sys/class/net/eth0/iflink"), "99");
        HostFixture.write(host.proc.resolve("79/root/sys/class/net/eth0/ifindex"), "98");
        assertEquals(Optional.empty(), VethHostEnd.of(host.roots(), 79), "a peer in another namespace");
    }
}
