package io.envbench.jmeter.samplers;

import java.util.List;
import javax.swing.JComponent;

import io.envbench.base.recipe.TargetRecipe;
import io.envbench.jmeter.BeanFieldsPanel;
import io.envbench.jmeter.EnvBenchHelp;
import io.envbench.jmeter.EnvBenchProperties;

/**
 * The Target Environment's fields: the targets found in {@code envbench.targets.dir} offered in Target (still
 * editable: a ${__P(...)} or a folder added later), and the container options greyed out for runtime {@code bare},
 * which ignores them. Their values are kept, so switching back to docker loses nothing.
 */
public class TargetEnvironmentFields extends BeanFieldsPanel {
    private static final long serialVersionUID = 1L;

    public TargetEnvironmentFields() {
        super(TargetEnvironmentSampler.class, EnvBenchHelp.Topic.TARGET_ENVIRONMENT);
    }

    @Override
    protected List<String> moreChoices(String property) {
        return "target".equals(property) ? TargetRecipe.available(EnvBenchProperties.targetsDir()) : List.of();
    }

    @Override
    protected void fieldsChanged() {
        // an expression (${__P(runtime,docker)}) may turn out docker: only a literal bare disables
        boolean container = !"bare".equals(text("runtime").trim());
        for (String name : TargetEnvironmentSamplerBeanInfo.CONTAINER_FIELDS) {
            JComponent e = editor(name);
            e.setEnabled(container);
            e.setToolTipText(
                    tooltip((container ? "" : "Not used with runtime bare (the target runs as a host process). ")
                            + descriptionOf(name)));
        }
    }
}
