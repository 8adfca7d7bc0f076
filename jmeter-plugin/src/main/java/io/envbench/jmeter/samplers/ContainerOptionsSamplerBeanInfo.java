package io.envbench.jmeter.samplers;

import java.beans.PropertyDescriptor;

import org.apache.jmeter.testbeans.BeanInfoSupport;

/** GUI of the Container Options Sampler. */
public class ContainerOptionsSamplerBeanInfo extends BeanInfoSupport {
    public ContainerOptionsSamplerBeanInfo() {
        super(ContainerOptionsSampler.class);
        createPropertyGroup("containerGroup", new String[] {"container", "action", "allowUnmanagedContainers"});
        createPropertyGroup("limitsGroup", new String[] {"cpuset", "cpus", "memory"});
        for (String name : new String[] {"container", "cpuset", "cpus", "memory"}) {
            PropertyDescriptor p = property(name);
            p.setValue(NOT_UNDEFINED, Boolean.TRUE);
            p.setValue(DEFAULT, "");
        }
        PropertyDescriptor a = property("action");
        a.setValue(NOT_UNDEFINED, Boolean.TRUE);
        a.setValue(DEFAULT, "update");
        a.setValue(TAGS, new String[] {"update", "pause", "unpause"});
        a.setValue(NOT_OTHER, Boolean.FALSE);
        PropertyDescriptor allow = property("allowUnmanagedContainers");
        allow.setValue(NOT_UNDEFINED, Boolean.TRUE);
        allow.setValue(DEFAULT, Boolean.FALSE);
    }
}
