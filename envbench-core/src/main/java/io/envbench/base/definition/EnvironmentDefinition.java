package io.envbench.base.definition;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

import io.envbench.base.container.ContainerEngine;
import io.envbench.base.container.ContainerOptions;
import io.envbench.base.recipe.ServicePlacement;
import io.envbench.base.recipe.ServiceRecipe;
import io.envbench.base.recipe.TargetRecipe;
import io.envbench.base.recipe.TargetSpec;
import io.envbench.base.settings.FileSafeName;
import io.envbench.base.settings.InvalidSettingException;
import io.envbench.base.units.LocalPorts;
import net.jcip.annotations.Immutable;

/**
 * A named environment: which target recipe runs, on bare metal or in a container (Docker or Podman) with which options, and the
 * loopback port where load goes. Immutable.
 *
 * @param services a multi-service target's services placed otherwise than {@code placement} and {@code options} say
 *                 (service name → its placement); empty: every service where the environment is
 */
@Immutable
public record EnvironmentDefinition(
        String name,
        String target,
        Placement placement,
        ContainerOptions options,
        int port,
        Duration readyTimeout,
        Map<String, ServicePlacement> services) {
    public enum Placement {
        BARE,
        DOCKER,
        /** A container on Podman, through its Docker-compatible API: the same options as {@link #DOCKER}. */
        PODMAN;

        public static Placement parse(String field, String text) {
            String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
            return switch (t) {
                case "bare", "bare-metal", "host-process" -> BARE;
                case "docker", "container" -> DOCKER;
                case "podman" -> PODMAN;
                default ->
                    throw new InvalidSettingException(
                            field,
                            "'" + text + "' is not a placement; use bare (a host process), docker (a Docker container)"
                                    + " or podman (a Podman container)");
            };
        }

        /** The engine its container runs on; empty for bare metal. */
        public Optional<ContainerEngine> engine() {
            return switch (this) {
                case BARE -> Optional.empty();
                case DOCKER -> Optional.of(ContainerEngine.DOCKER);
                case PODMAN -> Optional.of(ContainerEngine.PODMAN);
            };
        }

        /** Whether it runs in a container (Docker or Podman): the container options apply. */
        public boolean inContainer() {
            return this != BARE;
        }

        /** As the experiment file writes it: {@code bare}, {@code docker}, {@code podman}. */
        public String fieldValue() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** An environment whose services, if it has several, all run where it says. */
    public EnvironmentDefinition(
            String name,
            String target,
            Placement placement,
            ContainerOptions options,
            int port,
            Duration readyTimeout) {
        this(name, target, placement, options, port, readyTimeout, Map.of());
    }

    public EnvironmentDefinition {
        services = services == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(services));
        // names the run's files (jtl/NAME-r1.jtl) and the container
        FileSafeName.check("environment", name, "docker-bridge");
        Objects.requireNonNull(placement, "placement");
        options = options == null ? ContainerOptions.builder().build() : options;
        if (port != 0) { // 0: a target without a port (a one-shot job)
            LocalPorts.checkRange("port", port);
        }
        if (readyTimeout == null || readyTimeout.isNegative() || readyTimeout.isZero()) {
            throw new InvalidSettingException("readyTimeoutSeconds", "must be a positive number of seconds, e.g. 60");
        }
        if (readyTimeout.compareTo(MAX_READY_TIMEOUT) > 0) {
            throw new InvalidSettingException(
                    "readyTimeoutSeconds",
                    readyTimeout.toSeconds() + " s is above a day (" + MAX_READY_TIMEOUT.toSeconds()
                            + " s); give how long a target may take to get ready, e.g. 60");
        }
    }

    /** A start that takes longer than a day is a typo, not a slow target. */
    public static final Duration MAX_READY_TIMEOUT = Duration.ofDays(1);

    /** Resolves the recipe into what to start. */
    public TargetSpec resolve(Path targetsDir) {
        TargetRecipe recipe = TargetRecipe.load(targetsDir, target);
        if (port == 0 && recipe.hasPort()) {
            throw new InvalidSettingException(
                    "port", "is 0, but target " + target + " serves on a port; give a port on 127.0.0.1, e.g. 18080");
        }
        if (recipe.hasServices()) {
            if (placement == Placement.PODMAN) {
                throw new InvalidSettingException(
                        "placement",
                        "podman runs single-server targets; target " + target
                                + " is several services: use placement: docker or bare for it");
            }
            ServicePlacement everywhere =
                    placement == Placement.DOCKER ? ServicePlacement.container(options) : ServicePlacement.bare();
            List<String> names =
                    recipe.services().stream().map(ServiceRecipe::name).toList();
            for (String s : services.keySet()) {
                if (!names.contains(s)) {
                    throw new InvalidSettingException(
                            "services." + s,
                            "is not a service of target " + target + "; its services are " + String.join(", ", names));
                }
            }
            Map<String, ServicePlacement> each = new LinkedHashMap<>();
            names.forEach(n -> each.put(n, services.getOrDefault(n, everywhere)));
            return recipe.servicesTarget(each, port, readyTimeout);
        }
        if (!services.isEmpty()) {
            throw new InvalidSettingException(
                    "services", "target " + target + " is a single server, not several services; remove services:");
        }
        Optional<ContainerEngine> engine = placement.engine();
        return engine.isEmpty()
                ? recipe.bare(port, readyTimeout)
                : recipe.container(options, port, readyTimeout).on(engine.get());
    }

    /** Whether it runs on Podman. */
    public boolean usesPodman() {
        return placement == Placement.PODMAN;
    }

    /** Whether anything of it runs in a Docker container: the environment itself, or one of its services. */
    public boolean usesDocker() {
        return placement == Placement.DOCKER || services.values().stream().anyMatch(ServicePlacement::inContainer);
    }

    @Override
    public String toString() {
        return name + " (" + target + ", "
                + (placement == Placement.BARE ? "bare metal" : placement.fieldValue() + " " + options)
                + (services.isEmpty()
                        ? ""
                        : ", "
                                + services.entrySet().stream()
                                        .map(e -> e.getKey() + " " + e.getValue())
                                        .collect(Collectors.joining(", ")))
                + ", port " + port + ")";
    }
}
