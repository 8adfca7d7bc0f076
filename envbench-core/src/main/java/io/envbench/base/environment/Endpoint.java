package io.envbench.base.environment;

/**
 * Where load for a started target goes: 127.0.0.1 for a host process or a container of the local daemon, the daemon
 * host's address for a container of a remote ({@code tcp://}) daemon.
 */
public record Endpoint(String host, int port) {
    @Override
    public String toString() {
        return host + ":" + port;
    }
}
