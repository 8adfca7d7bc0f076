package io.envbench.base.recipe;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.stream.Stream;

import io.envbench.base.container.ContainerOptions;
import io.envbench.base.container.NetworkMode;
import io.envbench.base.readiness.HttpCheck;
import io.envbench.base.readiness.Readiness;
import io.envbench.base.settings.FileSafeName;
import io.envbench.base.settings.InvalidSettingException;

/**
 * One folder under {@code targets/}: how to run the same server as a host process and as a container.
 * Its {@code target.properties} holds {@code image}, {@code container.port}, {@code port.env},
 * {@code bare.command}, {@code bare.env.*} and a readiness check (see {@link #readiness}). A target
 * without {@code container.port} and {@code port.env} has no port (a one-shot job such as bonnie++).
 */
public final class TargetRecipe {
    private final String name;
    private final Path dir;
    private final Properties props;

    private TargetRecipe(String name, Path dir, Properties props) {
        this.name = name;
        this.dir = dir;
        this.props = props;
    }

    public static TargetRecipe load(Path targetsDir, String name) {
        if (targetsDir == null || !Files.isDirectory(targetsDir)) {
            throw new InvalidSettingException(
                    "envbench.targets.dir",
                    "'" + targetsDir + "' is not a folder; set it to the "
                            + "repository's targets/ folder (the assembled JMeter sets it in bin/user.properties)");
        }
        if (name != null && !name.isBlank()) {
            try {
                // a recipe is a folder of targets/: '../x', '/abs' or 'a/b' would read a file from elsewhere
                FileSafeName.check("target", name.trim(), "nginx-static");
            } catch (InvalidSettingException e) {
                throw new InvalidSettingException(
                        "target",
                        "'" + name + "' is not a recipe's folder name under " + targetsDir + "; use one of "
                                + available(targetsDir));
            }
        }
        Path dir = targetsDir.resolve(name == null ? "" : name.trim());
        Path file = dir.resolve("target.properties");
        if (name == null || name.isBlank() || !Files.isRegularFile(file)) {
            throw new InvalidSettingException(
                    "target", "'" + name + "' is not a target recipe; use one of " + available(targetsDir));
        }
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file)) {
            p.load(r);
        } catch (IOException e) {
            throw new InvalidSettingException("target", "cannot read " + file + ": " + e.getMessage());
        }
        return new TargetRecipe(name.trim(), dir, p);
    }

    /** Names of the recipes in a targets folder. */
    public static List<String> available(Path targetsDir) {
        try (Stream<Path> s = Files.list(targetsDir)) {
            return s.filter(d -> Files.isRegularFile(d.resolve("target.properties")))
                    .map(d -> d.getFileName().toString())
                    .sorted()
                    .toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    public String name() {
        return name;
    }

    /** What the target is, in a line, for a list of targets; empty when the recipe gives no {@code description}. */
    public String description() {
        return props.getProperty("description", "").strip();
    }

    public String image() {
        return required("image");
    }

    /**
     * The folder of targets/ that builds a local image ({@code envbench/NAME:latest} -> {@code NAME}): what
     * {@code ./envbench setup NAME} prepares.
     */
    public static String buildFolderOf(String image) {
        String name = image.startsWith("envbench/") ? image.substring("envbench/".length()) : image;
        int tag = name.indexOf(':');
        return tag < 0 ? name : name.substring(0, tag);
    }

    /**
     * The folders of targets/ whose images {@code target} runs: its own, or its services' (what setup builds for it,
     * and what {@code scripts/images.sh --check} is asked about before a run).
     */
    public static Set<String> imageFolders(Path targetsDir, String target) {
        TargetRecipe recipe = load(targetsDir, target);
        Set<String> images = new TreeSet<>();
        images.add(buildFolderOf(recipe.image()));
        if (recipe.hasServices()) {
            recipe.services().forEach(s -> images.add(buildFolderOf(s.image())));
        }
        return images;
    }

    /** The port the server listens on inside the container; 0 when the target has none. */
    public int containerPort() {
        if (!props.containsKey("container.port")) {
            return 0;
        }
        return intProperty("container.port", 0);
    }

    public BareMetalTarget bare(int port, Duration readyTimeout) {
        List<String> cmd = Arrays.asList(required("bare.command").trim().split("\\s+"));
        Map<String, String> env = new LinkedHashMap<>();
        props.stringPropertyNames().stream()
                .filter(k -> k.startsWith("bare.env."))
                .sorted()
                .forEach(k -> env.put(k.substring("bare.env.".length()), props.getProperty(k)));
        String portEnv = props.getProperty("port.env", "").trim();
        if (!portEnv.isEmpty() && port != 0) {
            env.put(portEnv, Integer.toString(port));
        }
        return new BareMetalTarget(cmd, dir, env, hasPort() ? port : 0, readiness(readyTimeout));
    }

    /** With host networking the server listens on {@code hostPort} directly (set through {@code port.env}). */
    public ContainerTarget container(ContainerOptions options, int hostPort, Duration readyTimeout) {
        String image =
                props.getProperty("image", "envbench/" + name + ":latest").trim();
        if (!hasPort()) {
            return new ContainerTarget(image, options, 0, 0, readiness(readyTimeout));
        }
        if (options.networkMode() == NetworkMode.HOST) {
            String portEnv = required("port.env").trim();
            ContainerOptions withPort =
                    options.toBuilder().env(portEnv, Integer.toString(hostPort)).build();
            return new ContainerTarget(image, withPort, hostPort, hostPort, readiness(readyTimeout));
        }
        return new ContainerTarget(image, options, containerPort(), hostPort, readiness(readyTimeout));
    }

    /**
     * One of {@code ready.http.path} (with {@code ready.http.status}, default 200), {@code ready.log},
     * {@code ready.command} (run where the target runs, ready at exit 0), {@code ready.exit.code} (a
     * one-shot job: done when it exits with that code) or {@code ready.tcp}; TCP when none is given
     * and the target has a port.
     */
    Readiness readiness(Duration timeout) {
        return readiness("", timeout);
    }

    /** The readiness check of the keys under {@code prefix} ({@code ""} for the target, {@code service.NAME.} for a service). */
    Readiness readiness(String prefix, Duration timeout) {
        List<String> given = READINESS_KEYS.stream()
                .map(k -> prefix + k)
                .filter(props::containsKey)
                .toList();
        if (given.size() > 1) {
            throw new InvalidSettingException(
                    "target",
                    "recipe " + dir.resolve("target.properties") + " sets " + given + "; keep one readiness check");
        }
        if (props.containsKey(prefix + "ready.http.path")) {
            int status = intProperty(prefix + "ready.http.status", 200);
            return new Readiness(
                    new HttpCheck(props.getProperty(prefix + "ready.http.path").trim(), status), timeout);
        }
        if (props.containsKey(prefix + "ready.log")) {
            return Readiness.logLine(props.getProperty(prefix + "ready.log"), timeout);
        }
        if (props.containsKey(prefix + "ready.command")) {
            return Readiness.command(
                    Arrays.asList(
                            props.getProperty(prefix + "ready.command").trim().split("\\s+")),
                    timeout);
        }
        if (props.containsKey(prefix + "ready.exit.code")) {
            return Readiness.exitCode(intProperty(prefix + "ready.exit.code", 0), timeout);
        }
        return Readiness.tcp(timeout);
    }

    /** Whether the recipe is made of several services ({@code services=}); see {@link ServiceRecipe}. */
    public boolean hasServices() {
        return !props.getProperty("services", "").isBlank();
    }

    /** The services of a multi-service recipe, in start order (each after those it depends on). */
    public List<ServiceRecipe> services() {
        return ServiceRecipe.read(this);
    }

    /**
     * The multi-service target with each service where {@code placements} puts it (every service must have one), see
     * {@link ServicesAddressing} for how they listen and find each other.
     */
    public ServicesTarget servicesTarget(Map<String, ServicePlacement> placements, int port, Duration readyTimeout) {
        return servicesTarget(placements, port, readyTimeout, HostOnDockerBridge::address);
    }

    /** As {@link #servicesTarget(Map, int, Duration)}, with the host's address on the Docker bridge from {@code bridgeAddress}. */
    ServicesTarget servicesTarget(
            Map<String, ServicePlacement> placements, int port, Duration readyTimeout, Supplier<String> bridgeAddress) {
        List<ServiceRecipe> services = services();
        String front = frontService();
        ServicesAddressing addressing = new ServicesAddressing(services, placements, front, port, bridgeAddress);
        List<ServicesTarget.Service> resolved = new ArrayList<>();
        for (ServiceRecipe s : services) {
            ServicePlacement where = placements.get(s.name());
            Map<String, String> env = new LinkedHashMap<>(s.env());
            env.putAll(addressing.environment(s));
            TargetSpec spec;
            if (!where.inContainer()) {
                Map<String, String> bareEnv = new LinkedHashMap<>(s.bareEnv());
                bareEnv.putAll(env);
                spec = new BareMetalTarget(
                        s.bareCommand(), dir, bareEnv, addressing.listenPort(s), s.readiness(readyTimeout));
            } else {
                ContainerOptions.Builder b = where.container().orElseThrow().toBuilder();
                env.forEach(b::env);
                if (!s.containerCommand().isEmpty()) {
                    b.command(s.containerCommand());
                }
                spec = new ContainerTarget(
                        s.image(),
                        b.build(),
                        addressing.listenPort(s),
                        addressing.hostPort(s),
                        s.readiness(readyTimeout));
            }
            resolved.add(new ServicesTarget.Service(s.name(), spec));
        }
        return new ServicesTarget(resolved, front, addressing.ownNetwork());
    }

    /** The service load goes to: {@code front}, else the last one listed in {@code services}. */
    public String frontService() {
        List<String> names = serviceNames();
        String front = props.getProperty("front", names.get(names.size() - 1)).trim();
        if (!names.contains(front)) {
            throw new InvalidSettingException(
                    "target",
                    "recipe " + dir.resolve("target.properties") + ": front=" + front + " is not one of services="
                            + String.join(",", names));
        }
        return front;
    }

    List<String> serviceNames() {
        return Arrays.stream(props.getProperty("services", "").split(","))
                .map(String::trim)
                .filter(n -> !n.isEmpty())
                .toList();
    }

    /** The folder of the recipe (where a bare command runs). */
    public Path dir() {
        return dir;
    }

    String property(String key) {
        String v = props.getProperty(key);
        return v == null || v.isBlank() ? null : v.trim();
    }

    Map<String, String> propertiesUnder(String prefix) {
        Map<String, String> out = new LinkedHashMap<>();
        props.stringPropertyNames().stream()
                .filter(k -> k.startsWith(prefix))
                .sorted()
                .forEach(k -> out.put(k.substring(prefix.length()), props.getProperty(k)));
        return out;
    }

    int intProperty(String key) {
        return intProperty(key, 0);
    }

    InvalidSettingException invalid(String what) {
        return new InvalidSettingException("target", "recipe " + dir.resolve("target.properties") + ": " + what);
    }

    private static final List<String> READINESS_KEYS =
            List.of("ready.http.path", "ready.log", "ready.command", "ready.exit.code", "ready.tcp");

    private int intProperty(String key, int fallback) {
        String v = props.getProperty(key, "").trim();
        if (v.isEmpty()) {
            return fallback;
        }
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new InvalidSettingException(
                    "target",
                    "recipe " + dir.resolve("target.properties") + ": " + key + "='" + v + "' is not a whole number");
        }
    }

    /** Whether the target serves on a port (a one-shot job such as bonnie++ has none). */
    public boolean hasPort() {
        return hasServices() || props.containsKey("container.port") || props.containsKey("port.env");
    }

    private String required(String key) {
        String v = props.getProperty(key);
        if (v == null || v.isBlank()) {
            throw new InvalidSettingException(
                    "target", "recipe " + dir.resolve("target.properties") + " has no '" + key + "'");
        }
        return v;
    }
}
