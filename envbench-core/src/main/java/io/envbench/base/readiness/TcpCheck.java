package io.envbench.base.readiness;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;

/** Ready when the target's port accepts a TCP connection. */
public record TcpCheck() implements ReadinessCheck {
    private static final int CONNECT_TIMEOUT_MS = 500;

    @Override
    public boolean passes(ReadinessContext target) throws IOException {
        var e = target.requireEndpoint();
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(e.host(), e.port()), CONNECT_TIMEOUT_MS);
            return true;
        }
    }

    @Override
    public boolean needsPort() {
        return true;
    }

    @Override
    public String describe() {
        return "TCP port open";
    }
}
