package io.envbench.jmeter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.beans.BeanInfo;
import java.beans.Introspector;
import java.beans.PropertyDescriptor;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import io.envbench.jmeter.modifiers.EnvironmentTag;
import io.envbench.jmeter.samplers.CommandSampler;
import io.envbench.jmeter.samplers.ContainerOptionsSampler;
import io.envbench.jmeter.samplers.EngineMetricsSampler;
import io.envbench.jmeter.samplers.TargetEnvironmentSampler;
import io.envbench.jmeter.timers.ArrivalsTimer;
import org.apache.jmeter.testbeans.gui.GenericTestBeanCustomizer;
import org.apache.jmeter.util.JMeterUtils;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The GUI JMeter builds for our TestBeans (TestBeanGUI) takes names, groups and tooltips from the
 * BeanInfo and its resources: every field must have a label, a tooltip and a default.
 */
class GuiDescriptionsTest {
    @ParameterizedTest
    @ValueSource(
            classes = {
                TargetEnvironmentSampler.class,
                ContainerOptionsSampler.class,
                EnvironmentTag.class,
                EngineMetricsSampler.class,
                CommandSampler.class,
                ArrivalsTimer.class
            })
    void everyFieldHasALabelATooltipAndADefault(Class<?> element) throws Exception {
        JMeterUtils.setLocale(Locale.ENGLISH); // as JMeter does at start
        BeanInfo info = Introspector.getBeanInfo(element);
        assertTrue(
                info.getBeanDescriptor().getDisplayName().startsWith("EnvBench "),
                info.getBeanDescriptor().getDisplayName());
        List<PropertyDescriptor> fields = Arrays.stream(info.getPropertyDescriptors())
                .filter(p -> !p.isHidden())
                .filter(p -> p.getValue(GenericTestBeanCustomizer.GROUP) != null)
                .toList(); // shown by TestBeanGUI
        for (PropertyDescriptor p : fields) {
            assertFalse(p.getDisplayName().equals(p.getName()), "no label for " + p.getName());
            assertNotNull(p.getShortDescription(), p.getName());
            assertFalse(p.getShortDescription().equals(p.getDisplayName()), "no tooltip for " + p.getName());
            assertNotNull(p.getValue("default"), "no default for " + p.getName());
        }
        if (element == TargetEnvironmentSampler.class) {
            assertEquals(16, fields.size());
        }
        if (element == CommandSampler.class) {
            assertEquals(
                    List.of("bareMemory", "client", "command", "environment", "expectedSeconds", "output"),
                    fields.stream().map(PropertyDescriptor::getName).sorted().toList());
        }
        if (element == ArrivalsTimer.class) {
            assertEquals(
                    List.of("arrivalsPerMinute", "seed"),
                    fields.stream().map(PropertyDescriptor::getName).sorted().toList());
        }
        if (element == EnvironmentTag.class) {
            assertEquals(
                    List.of("environment"),
                    fields.stream().map(PropertyDescriptor::getName).toList(),
                    "the Environment field is shown");
        }
    }
}
