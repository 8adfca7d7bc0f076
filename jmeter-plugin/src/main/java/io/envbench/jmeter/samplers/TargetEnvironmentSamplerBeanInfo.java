package io.envbench.jmeter.samplers;

import java.beans.PropertyDescriptor;

import org.apache.jmeter.testbeans.BeanInfoSupport;

/** GUI of the Target Environment Sampler: fields, defaults and choices; labels and tooltips in the resources file. */
public class TargetEnvironmentSamplerBeanInfo extends BeanInfoSupport {
    public TargetEnvironmentSamplerBeanInfo() {
        super(TargetEnvironmentSampler.class);
        createPropertyGroup("environmentGroup", new String[] {"action", "environment", "target", "runtime", "port"});
        createPropertyGroup("containerGroup", new String[] {"networkMode", "volumeType", "volumeSource", "volumePath",
                "cpuset", "cpus", "cpuShares", "memory", "containerEnv"});
        createPropertyGroup("readinessGroup", new String[] {"readyTimeoutSeconds"});

        choice("action", "switch", true, "switch", "start", "stop");
        text("environment", "");
        text("target", "nginx-static");
        choice("runtime", "docker", true, "bare", "docker");
        text("port", "18080");
        choice("networkMode", "bridge", true, "bridge", "host");
        choice("volumeType", "none", true, "none", "bind", "named", "tmpfs");
        text("volumeSource", "");
        text("volumePath", "");
        text("cpuset", "");
        text("cpus", "");
        text("cpuShares", "");
        text("memory", "");
        text("containerEnv", "");
        text("readyTimeoutSeconds", "");
    }

    private void text(String name, String dflt) {
        PropertyDescriptor p = property(name);
        p.setValue(NOT_UNDEFINED, Boolean.TRUE);
        p.setValue(DEFAULT, dflt);
    }

    private void choice(String name, String dflt, boolean allowExpressions, String... tags) {
        PropertyDescriptor p = property(name);
        p.setValue(NOT_UNDEFINED, Boolean.TRUE);
        p.setValue(DEFAULT, dflt);
        p.setValue(TAGS, tags);
        p.setValue(NOT_OTHER, !allowExpressions);
    }
}
