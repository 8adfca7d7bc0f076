package io.envbench.jmeter.samplers;

import java.util.List;

/** GUI of the Target Environment Sampler: fields, defaults and choices; labels and tooltips in the resources file. */
public class TargetEnvironmentSamplerBeanInfo extends FieldsBeanInfo {
    /** The fields that only a container uses: {@link TargetEnvironmentFields} disables them for runtime bare. */
    static final List<String> CONTAINER_FIELDS = List.of(
            "networkMode",
            "volumeType",
            "volumeSource",
            "volumePath",
            "cpuset",
            "cpus",
            "cpuShares",
            "memory",
            "seccomp",
            "containerEnv");

    public TargetEnvironmentSamplerBeanInfo() {
        super(TargetEnvironmentSampler.class, TargetEnvironmentFields.class);
        createPropertyGroup("environmentGroup", new String[] {"action", "environment", "target", "runtime", "port"});
        createPropertyGroup("containerGroup", CONTAINER_FIELDS.toArray(new String[0]));
        createPropertyGroup("readinessGroup", new String[] {"readyTimeoutSeconds"});

        choice("action", "switch", true, "switch", "start", "stop");
        text("environment", "");
        text("target", "nginx-static");
        choice("runtime", "docker", true, "bare", "docker", "podman");
        text("port", "18080");
        choice("networkMode", "bridge", true, "bridge", "host");
        choice("volumeType", "none", true, "none", "bind", "named", "tmpfs");
        text("volumeSource", "");
        text("volumePath", "");
        text("cpuset", "");
        text("cpus", "");
        text("cpuShares", "");
        text("memory", "");
        choice("seccomp", "default", true, "default", "unconfined");
        text("containerEnv", "");
        text("readyTimeoutSeconds", "");
    }
}
