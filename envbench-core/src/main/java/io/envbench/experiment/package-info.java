/**
 * Experiments: a comparison of environments written down in a YAML file ({@link io.envbench.experiment.ExperimentFile}),
 * which environments, which load, how many runs in which order, and the criteria that decide whether it passed
 * ({@link io.envbench.experiment.Criterion}). Everything here is an immutable value; running it is the runner's business.
 */
package io.envbench.experiment;
