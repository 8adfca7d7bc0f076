package io.envbench.experiment;

import io.envbench.environment.EnvironmentDefinition;
import io.envbench.settings.InvalidSettingException;

import java.util.Objects;

/** One environment of an experiment, by the name its figures and criteria use. Immutable. */
public record EnvironmentPlan(String name, EnvironmentDefinition definition) {
    public EnvironmentPlan {
        Objects.requireNonNull(definition, "definition");
        if (!definition.name().equals(name)) {
            throw new InvalidSettingException("name", "'" + name + "' differs from its definition's name '" + definition.name()
                    + "'; give both the same name");
        }
    }
}
