package io.envbench.base.recipe;

import java.util.List;

import io.envbench.base.readiness.Readiness;
import io.envbench.base.settings.InvalidSettingException;

/**
 * A target made of several services ({@link ServiceRecipe}), each resolved to a host process or a container, in start
 * order (each after those it depends on). Load goes to the {@code front} service; its port is the environment's.
 *
 * @param services    in start order; none is itself a {@code ServicesTarget}
 * @param front       the name of the service load goes to
 * @param ownNetwork  whether the containers share a user-defined network that the launcher makes for the environment
 *                    (each container reached by its service's name there)
 */
public record ServicesTarget(List<Service> services, String front, boolean ownNetwork) implements TargetSpec {
    /** One service: its name and what runs for it. */
    public record Service(String name, TargetSpec spec) {
        public Service {
            if (spec instanceof ServicesTarget) {
                throw new IllegalArgumentException("a service is a host process or a container");
            }
        }
    }

    public ServicesTarget {
        services = List.copyOf(services);
        if (services.stream().noneMatch(s -> s.name().equals(front))) {
            throw new InvalidSettingException("target", "front service '" + front + "' is not one of the services");
        }
    }

    public Service frontService() {
        return services.stream().filter(s -> s.name().equals(front)).findFirst().orElseThrow();
    }

    @Override
    public int hostPort() {
        return frontService().spec().hostPort();
    }

    @Override
    public Readiness readiness() {
        return frontService().spec().readiness();
    }
}
