package io.envbench.base.recipe;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.Collections;

import io.envbench.base.settings.InvalidSettingException;

/**
 * The host's own address on Docker's default bridge ({@code docker0}, e.g. 172.17.0.1): how a container, on that
 * bridge or on a user-defined one, reaches a service of the host's (the packet is for the host itself, so Docker's
 * isolation between bridges does not apply). A host service that containers need listens there besides 127.0.0.1.
 */
final class HostOnDockerBridge {
    static final String INTERFACE = "docker0";

    private HostOnDockerBridge() {}

    /** docker0's IPv4 address. */
    static String address() {
        try {
            NetworkInterface nic = NetworkInterface.getByName(INTERFACE);
            if (nic != null) {
                for (InetAddress a : Collections.list(nic.getInetAddresses())) {
                    if (a instanceof Inet4Address) {
                        return a.getHostAddress();
                    }
                }
            }
        } catch (SocketException e) {
            throw new InvalidSettingException(
                    "services", "cannot read the network interface " + INTERFACE + ": " + e.getMessage());
        }
        throw new InvalidSettingException(
                "services",
                "a container reaches a service on this host through Docker's bridge, and this "
                        + "host has no " + INTERFACE
                        + " with an IPv4 address (is the local Docker daemon running?); place that service in a "
                        + "container too, or start Docker");
    }
}
