package io.envbench.jmeter.samplers;

import java.beans.PropertyDescriptor;

import io.envbench.jmeter.BeanFieldsPanel;
import io.envbench.jmeter.EnvBenchBeanInfo;
import io.envbench.jmeter.EnvBenchHelp;

/** GUI of the Container Options Sampler. */
public class ContainerOptionsSamplerBeanInfo extends EnvBenchBeanInfo {
    public ContainerOptionsSamplerBeanInfo() {
        super(ContainerOptionsSampler.class, Fields.class);
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

    /** This element's fields in JMeter's TestBeanGUI, with its Help button. */
    public static final class Fields extends BeanFieldsPanel {
        private static final long serialVersionUID = 1L;

        public Fields() {
            super(ContainerOptionsSampler.class, EnvBenchHelp.Topic.CONTAINER_OPTIONS);
        }
    }
}
