package io.envbench.base.units;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

import io.envbench.base.settings.InvalidSettingException;

/** Port checks done before anything is started, so a busy port fails fast and leaves nothing behind. */
public final class LocalPorts {
    private LocalPorts() {}

    public static void checkRange(String field, int port) {
        if (port < 1 || port > 65535) {
            throw new InvalidSettingException(field, port + " is not a TCP port; use 1 to 65535");
        }
    }

    /** Fails when something on this host already listens on the port (on any address). */
    public static void checkFree(String field, int port) {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(port));
        } catch (IOException e) {
            throw new InvalidSettingException(
                    field,
                    port + " is already in use on this host; stop what listens there " + "(ss -ltnp 'sport = :" + port
                            + "') or choose another port");
        }
    }

    /**
     * A port nothing listens on now, picked by the kernel on 127.0.0.1: for a service of a multi-service target that
     * load never reaches (its database), on the host, next to the environment's own port.
     */
    public static int pickFree() {
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress("127.0.0.1", 0));
            return s.getLocalPort();
        } catch (IOException e) {
            throw new InvalidSettingException("port", "no free port on 127.0.0.1 for a service: " + e.getMessage());
        }
    }
}
