package io.envbench.base.recipe;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import io.envbench.base.readiness.Readiness;
import net.jcip.annotations.Immutable;

/**
 * One service of a multi-service recipe: {@code services=db,app} in {@code target.properties}, then per service
 * {@code service.NAME.*}:
 * <ul>
 * <li>{@code depends} the services it needs (comma-separated): started and ready before it, stopped after it; it gets
 * {@code DEP_HOST} and {@code DEP_PORT} of each (the dependency's name upper-cased, {@code -} as {@code _}), wherever
 * each is placed ({@link ServicesAddressing});</li>
 * <li>{@code image} (the recipe's {@code image} when absent) and {@code command} (the image's CMD when absent): the
 * container;</li>
 * <li>{@code bare.command} and {@code bare.env.*}: the host process, run from the recipe's folder;</li>
 * <li>{@code env.*}: variables it gets in either place;</li>
 * <li>{@code port} (the port it listens on in its container) and {@code port.env} (the variable that sets it: on the
 * host every service gets a port of its own this way);</li>
 * <li>{@code listen.env}: the variable that sets the addresses it listens on, comma-separated (127.0.0.1 on the host,
 * plus the host's Docker bridge address when a container needs it; 0.0.0.0 in its own container);</li>
 * <li>{@code ready.*}: its readiness check, the same keys as a target's.</li>
 * </ul>
 * {@code front=NAME} (default: the last listed) is the service load goes to: the environment's port is its port.
 * Immutable.
 */
@Immutable
public final class ServiceRecipe {
    private final TargetRecipe recipe;
    private final String name;
    private final List<String> dependsOn;

    private ServiceRecipe(TargetRecipe recipe, String name, List<String> dependsOn) {
        this.recipe = recipe;
        this.name = name;
        this.dependsOn = List.copyOf(dependsOn);
    }

    /** Every service of the recipe in start order, checked: known names, no cycle, a port and a bare command each. */
    static List<ServiceRecipe> read(TargetRecipe recipe) {
        List<String> names = recipe.serviceNames();
        if (names.isEmpty()) {
            throw recipe.invalid("services= lists no service; give their names, e.g. services=db,app");
        }
        Map<String, ServiceRecipe> byName = new LinkedHashMap<>();
        for (String n : names) {
            if (!n.matches("[a-z][a-z0-9-]*")) {
                throw recipe.invalid("service name '" + n + "' must be lower-case letters, digits and '-', e.g. db");
            }
            if (byName.containsKey(n)) {
                throw recipe.invalid("services= lists '" + n + "' twice");
            }
            String deps = recipe.property("service." + n + ".depends");
            List<String> dependsOn = deps == null
                    ? List.of()
                    : Arrays.stream(deps.split(","))
                            .map(String::trim)
                            .filter(d -> !d.isEmpty())
                            .toList();
            for (String d : dependsOn) {
                if (!names.contains(d)) {
                    throw recipe.invalid("service." + n + ".depends names '" + d + "', which is not one of services="
                            + String.join(",", names));
                }
            }
            ServiceRecipe s = new ServiceRecipe(recipe, n, dependsOn);
            if (s.bareCommand().isEmpty()) {
                throw recipe.invalid(
                        "service." + n + ".bare.command is missing; give the command that runs it on the host");
            }
            if (s.port() == 0 || s.portEnv() == null) {
                throw recipe.invalid("service." + n
                        + " needs port (where it listens in its container) and port.env (the variable that sets it)");
            }
            byName.put(n, s);
        }
        List<ServiceRecipe> ordered = new ArrayList<>();
        Set<String> visiting = new LinkedHashSet<>();
        for (String n : names) {
            order(recipe, n, byName, visiting, ordered);
        }
        return List.copyOf(ordered);
    }

    private static void order(
            TargetRecipe recipe,
            String n,
            Map<String, ServiceRecipe> byName,
            Set<String> visiting,
            List<ServiceRecipe> out) {
        ServiceRecipe s = byName.get(n);
        if (out.contains(s)) {
            return;
        }
        if (!visiting.add(n)) {
            throw recipe.invalid(
                    "services depend on each other in a circle: " + String.join(" -> ", visiting) + " -> " + n);
        }
        for (String d : s.dependsOn) {
            order(recipe, d, byName, visiting, out);
        }
        visiting.remove(n);
        out.add(s);
    }

    public String name() {
        return name;
    }

    public List<String> dependsOn() {
        return dependsOn;
    }

    /** The local image of its container. */
    public String image() {
        String own = recipe.property("service." + name + ".image");
        return own != null ? own : recipe.image();
    }

    /** The container's command; empty: the image's CMD. */
    public List<String> containerCommand() {
        String c = recipe.property("service." + name + ".command");
        return c == null ? List.of() : Arrays.asList(c.split("\\s+"));
    }

    public List<String> bareCommand() {
        String c = recipe.property("service." + name + ".bare.command");
        return c == null ? List.of() : Arrays.asList(c.split("\\s+"));
    }

    public Map<String, String> bareEnv() {
        return recipe.propertiesUnder("service." + name + ".bare.env.");
    }

    /** Variables it gets wherever it runs ({@code service.NAME.env.*}), e.g. Puma's workers. */
    public Map<String, String> env() {
        return recipe.propertiesUnder("service." + name + ".env.");
    }

    /** The port it listens on inside its container (and where the others reach it on the environment's network). */
    public int port() {
        return recipe.intProperty("service." + name + ".port");
    }

    /**
     * The variable that sets the addresses it listens on (comma-separated, e.g. {@code 127.0.0.1,172.17.0.1}); null when
     * the recipe gives none ({@code service.NAME.listen.env}). See {@link ServicesAddressing}.
     */
    public String listenEnv() {
        return recipe.property("service." + name + ".listen.env");
    }

    /** The variable that sets its listening port. */
    public String portEnv() {
        return recipe.property("service." + name + ".port.env");
    }

    public Readiness readiness(Duration timeout) {
        return recipe.readiness("service." + name + ".", timeout);
    }

    /** The prefix of the variables its dependents get: {@code db} gives {@code DB_HOST} and {@code DB_PORT}. */
    public String variablePrefix() {
        return name.toUpperCase(Locale.ROOT).replace('-', '_');
    }

    @Override
    public String toString() {
        return name + (dependsOn.isEmpty() ? "" : " (after " + String.join(", ", dependsOn) + ")");
    }
}
