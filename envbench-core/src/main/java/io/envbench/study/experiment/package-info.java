/**
 * Experiments: a comparison of environments written down in a YAML file ({@link io.envbench.study.experiment.ExperimentFile}),
 * which environments, which load, how many runs in which order, and the criteria that decide whether it passed
 * ({@link io.envbench.study.experiment.Criterion}). Everything here is an immutable value but
 * {@link io.envbench.study.experiment.ExperimentText}, the file as text fields a form edits; running it is the runner's
 * business.
 */
package io.envbench.study.experiment;
