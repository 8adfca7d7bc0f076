package io.envbench.environment;

/** Where load for a started target goes; always a loopback address. */
public record Endpoint(String host, int port) {
    @Override
    public String toString() {
        return host + ":" + port;
    }
}
