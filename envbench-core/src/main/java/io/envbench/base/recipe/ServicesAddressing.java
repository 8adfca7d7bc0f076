package io.envbench.base.recipe;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import io.envbench.base.settings.InvalidSettingException;
import io.envbench.base.units.LocalPorts;

/**
 * How the services of one environment listen and reach each other, wherever each is placed. Two namespaces matter:
 * the host's (a host process, or a container with host networking) and the environment's own bridge network (a
 * container on a bridge, named after its service there).
 * <ul>
 * <li>In the host's namespace a service listens on 127.0.0.1 on a port of its own (the front on the environment's
 * port, the others on free ones); when a service on the bridge depends on it, also on the host's address on the
 * Docker bridge ({@link HostOnDockerBridge}), which is how a container reaches the host. Its recipe names the variable
 * that sets the addresses ({@code service.NAME.listen.env}, comma-separated).</li>
 * <li>On the bridge a service listens on its container port on every address of its container; the front's port is
 * published on 127.0.0.1 as the environment's port, another's on a free port when a service in the host's namespace
 * depends on it (through the port mapping, as the study's host processes reached a containerised database) or its
 * readiness is checked on its port.</li>
 * <li>A dependent gets {@code DEP_HOST} and {@code DEP_PORT}: the dependency's name and container port when both are
 * on the bridge; 127.0.0.1 and its port (or published port) from the host's namespace; the host's bridge address and
 * the dependency's port from the bridge to the host's namespace.</li>
 * </ul>
 * Nothing listens beyond loopback and the Docker bridge, and load only ever goes to 127.0.0.1.
 */
final class ServicesAddressing {
    private final List<ServiceRecipe> services;
    private final Map<String, ServicePlacement> placements;
    private final Map<String, Integer> listenPorts = new LinkedHashMap<>();
    private final Map<String, Integer> hostPorts = new LinkedHashMap<>();
    private final Supplier<String> bridgeAddress;
    private String bridgeAddressRead;

    ServicesAddressing(
            List<ServiceRecipe> services,
            Map<String, ServicePlacement> placements,
            String front,
            int port,
            Supplier<String> bridgeAddress) {
        this.services = services;
        this.placements = placements;
        this.bridgeAddress = bridgeAddress;
        for (ServiceRecipe s : services) {
            if (!placements.containsKey(s.name())) {
                throw new IllegalArgumentException("no placement for service " + s.name());
            }
        }
        for (ServiceRecipe s : services) {
            boolean isFront = s.name().equals(front);
            if (bridged(s)) {
                listenPorts.put(s.name(), s.port());
                boolean published = dependents(s, false)
                        || s.readiness(Duration.ofSeconds(1)).check().needsPort();
                hostPorts.put(s.name(), isFront ? port : published ? LocalPorts.pickFree() : 0);
            } else {
                int p = isFront ? port : LocalPorts.pickFree();
                listenPorts.put(s.name(), p);
                hostPorts.put(s.name(), p);
            }
        }
    }

    /** Whether any container is on a bridge: then the environment has a network of its own. */
    boolean ownNetwork() {
        return services.stream().anyMatch(this::bridged);
    }

    /** The port it listens on in its namespace. */
    int listenPort(ServiceRecipe s) {
        return listenPorts.get(s.name());
    }

    /** Where the host reaches it on 127.0.0.1; 0 for a bridged service nobody on the host needs. */
    int hostPort(ServiceRecipe s) {
        return hostPorts.get(s.name());
    }

    /** Its variables: where it listens ({@code port.env}, {@code listen.env}) and where each dependency is. */
    Map<String, String> environment(ServiceRecipe s) {
        Map<String, String> env = new LinkedHashMap<>();
        for (String d : s.dependsOn()) {
            ServiceRecipe dep = services.stream()
                    .filter(x -> x.name().equals(d))
                    .findFirst()
                    .orElseThrow();
            String host;
            int port;
            if (bridged(s) && bridged(dep)) {
                host = d;
                port = dep.port();
            } else if (bridged(s)) {
                host = bridgeAddress();
                port = listenPort(dep);
            } else {
                host = "127.0.0.1";
                port = hostPort(dep);
            }
            env.put(dep.variablePrefix() + "_HOST", host);
            env.put(dep.variablePrefix() + "_PORT", Integer.toString(port));
        }
        env.put(s.portEnv(), Integer.toString(listenPort(s)));
        String listen = listenAddresses(s);
        if (s.listenEnv() != null) {
            env.put(s.listenEnv(), listen);
        } else if (!bridged(s) && dependents(s, true)) {
            throw new InvalidSettingException(
                    "services",
                    "service " + s.name() + " runs in the host's namespace and "
                            + "a container on the bridge depends on it, so it must listen on the host's bridge address too; its recipe gives no "
                            + "service." + s.name()
                            + ".listen.env (the variable that sets where it listens), so place it in a container as well");
        }
        return env;
    }

    /** Comma-separated: 0.0.0.0 in its own container; 127.0.0.1, and the bridge address when a bridged service needs it. */
    String listenAddresses(ServiceRecipe s) {
        if (bridged(s)) {
            return "0.0.0.0";
        }
        return dependents(s, true) ? "127.0.0.1," + bridgeAddress() : "127.0.0.1";
    }

    private boolean bridged(ServiceRecipe s) {
        return placements.get(s.name()).bridged();
    }

    /** Whether a service on the bridge ({@code onBridge}) or in the host's namespace depends on it. */
    private boolean dependents(ServiceRecipe s, boolean onBridge) {
        return services.stream().anyMatch(x -> x.dependsOn().contains(s.name()) && bridged(x) == onBridge);
    }

    private String bridgeAddress() {
        if (bridgeAddressRead == null) {
            bridgeAddressRead = bridgeAddress.get();
        }
        return bridgeAddressRead;
    }
}
