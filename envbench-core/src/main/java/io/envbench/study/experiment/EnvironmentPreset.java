package io.envbench.study.experiment;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The environments a comparison usually holds, as a starting point the form then lets one change; a new experiment
 * ({@link ExperimentText#newExperiment}) starts with two of them.
 */
public enum EnvironmentPreset {
    BARE_METAL("Bare metal (a host process)", "bare", Map.of("placement", "bare")),
    DOCKER_BRIDGE(
            "Container, bridge network (published port)",
            "docker-bridge",
            Map.of("placement", "docker", "network", "bridge")),
    DOCKER_HOST("Container, host network", "docker-host", Map.of("placement", "docker", "network", "host")),
    DOCKER_HOST_VOLUME(
            "Container, host network, data on a named volume",
            "docker-host-volume",
            // a named volume needs the path it is mounted on: /data, the folder bonnie's image writes into; the
            // controller puts a target's own data folder there when its example names one
            Map.of(
                    "placement",
                    "docker",
                    "network",
                    "host",
                    "volume.type",
                    "named",
                    "volume.source",
                    "envbench-data",
                    "volume.path",
                    "/data")),
    DOCKER_PINNED(
            "Container pinned to CPU 0",
            "docker-pinned",
            Map.of("placement", "docker", "network", "host", "cpuset", "0")),
    DOCKER_CPU_QUOTA(
            "Container with a quota of 1 CPU",
            "docker-1cpu",
            Map.of("placement", "docker", "network", "host", "cpus", "1")),
    DOCKER_MEMORY_LIMIT(
            "Container with 512 MB of memory",
            "docker-512m",
            Map.of("placement", "docker", "network", "host", "memory", "512m"));

    private final String title;
    private final String defaultName;
    private final Map<String, String> fields;

    EnvironmentPreset(String title, String defaultName, Map<String, String> fields) {
        this.title = title;
        this.defaultName = defaultName;
        this.fields = fields;
    }

    public String title() {
        return title;
    }

    public String defaultName() {
        return defaultName;
    }

    /** The environment's fields, named {@code name}. */
    public Map<String, String> fields(String name) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("name", name);
        m.putAll(fields);
        return m;
    }

    @Override
    public String toString() {
        return title;
    }
}
