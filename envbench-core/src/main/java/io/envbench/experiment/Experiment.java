package io.envbench.experiment;

import io.envbench.environment.EnvironmentDefinition;
import io.envbench.settings.FileSafeName;
import io.envbench.settings.InvalidSettingException;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A comparison of environments under one load, as an experiment file describes it (read one with
 * {@link ExperimentFile}): every environment runs {@code repetitions} times in the given {@code order}, and the
 * {@code criteria} decide whether the experiment passed. Immutable. Validation errors name the field as written in
 * the file ({@code repetitions}, {@code environments[1].name}, ...), so the file reader can point at its line.
 *
 * @param name         letters, digits, '.', '_' or '-'
 * @param description  free text, may be empty
 * @param environments at least one, names unique
 * @param load         the load of every run
 * @param repetitions  runs per environment, at least 1
 * @param order        the order of the runs
 * @param seed         shuffles the order when {@code order} is {@link RunOrder#RANDOMIZED}
 * @param baseline     the environment others are compared with
 * @param criteria     pass/fail checks over the run medians; may be empty
 * @param file         the file it was read from: names it in messages; a relative plan is relative to its folder
 */
public record Experiment(String name, String description, List<EnvironmentPlan> environments, LoadPlan load,
                         int repetitions, RunOrder order, long seed, String baseline, List<Criterion> criteria, Path file) {
    public static final int DEFAULT_PORT = 18080;
    public static final Duration DEFAULT_READY_TIMEOUT = Duration.ofSeconds(60);
    /** Three runs give a median and a spread; one gives neither. */
    public static final int DEFAULT_REPETITIONS = 3;
    public static final RunOrder DEFAULT_ORDER = RunOrder.INTERLEAVED;
    public static final long DEFAULT_SEED = 1;
    /** The baseline when none is named: this environment if there is one, else the first. */
    public static final String CONVENTIONAL_BASELINE = "bare";

    public Experiment {
        FileSafeName.check(YamlFields.NAME, name, "static-web"); // names the run's folder
        description = description == null ? "" : description;
        environments = List.copyOf(Objects.requireNonNull(environments, "environments"));
        if (environments.isEmpty()) {
            throw new InvalidSettingException(YamlFields.ENVIRONMENTS, "is empty; add at least one environment, e.g. "
                    + "{ name: bare, placement: bare }");
        }
        Map<String, Integer> seen = new HashMap<>();
        Map<String, Integer> seenIgnoringCase = new HashMap<>();
        for (int i = 0; i < environments.size(); i++) {
            String envName = environments.get(i).name();
            Integer earlier = seen.putIfAbsent(envName, i);
            if (earlier != null) {
                throw new InvalidSettingException(YamlFields.ENVIRONMENTS + "[" + i + "]." + YamlFields.NAME, "'" + envName
                        + "' is already the name of environments[" + earlier + "]; give each environment its own name");
            }
            // each name names the run's files (jtl/NAME-r1.jtl): on a case-insensitive disk these two would share them
            Integer sameFiles = seenIgnoringCase.putIfAbsent(FileSafeName.collisionKey(envName), i);
            if (sameFiles != null) {
                throw new InvalidSettingException(YamlFields.ENVIRONMENTS + "[" + i + "]." + YamlFields.NAME, "'" + envName
                        + "' and '" + environments.get(sameFiles).name() + "' (environments[" + sameFiles + "]) differ only in case, "
                        + "so their files (jtl/" + envName + "-r1.jtl) share a name on a case-insensitive disk; rename one");
            }
        }
        // the file has one port and one ready timeout: load goes to one place, whichever environment runs
        EnvironmentDefinition first = environments.get(0).definition();
        for (int i = 1; i < environments.size(); i++) {
            EnvironmentDefinition d = environments.get(i).definition();
            if (d.port() != first.port() || !d.readyTimeout().equals(first.readyTimeout())) {
                throw new InvalidSettingException(YamlFields.PORT, "environments[" + i + "] has port " + d.port() + " and ready timeout "
                        + d.readyTimeout().toSeconds() + " s, environments[0] " + first.port() + " and " + first.readyTimeout().toSeconds()
                        + " s; give every environment the same");
            }
        }
        Objects.requireNonNull(load, "load");
        checkRepetitions(repetitions);
        if ((long) repetitions * environments.size() > MAX_RUNS) {
            throw new InvalidSettingException(YamlFields.REPETITIONS, repetitions + " repetitions of " + environments.size()
                    + " environments make " + (long) repetitions * environments.size() + " runs, above " + MAX_RUNS
                    + "; give fewer repetitions or environments");
        }
        Objects.requireNonNull(order, "order");
        if (baseline == null || !seen.containsKey(baseline)) {
            throw new InvalidSettingException(YamlFields.BASELINE, "'" + baseline + "' is not an environment of this experiment; use one of "
                    + String.join(", ", names(environments)));
        }
        criteria = List.copyOf(Objects.requireNonNull(criteria, "criteria"));
        for (int i = 0; i < criteria.size(); i++) {
            for (String env : criteria.get(i).environments()) {
                if (!seen.containsKey(env)) {
                    throw new InvalidSettingException(YamlFields.CRITERIA + "[" + i + "]", "'" + criteria.get(i) + "': '" + env
                            + "' is not an environment of this experiment; use " + String.join(", ", names(environments)));
                }
            }
        }
        Objects.requireNonNull(file, "file");
    }

    /** The same experiment run {@code n} times per environment (e.g. {@code --repetitions}); refuses n below 1 as the file does. */
    public Experiment withRepetitions(int n) {
        return new Experiment(name, description, environments, load, n, order, seed, baseline, criteria, file);
    }

    /**
     * The same experiment shortened for {@code --quick} (a smoke test in CI): the shortest load that still gives
     * figures, warm-up at most 1 s, each run at most 3 s (warm-up included) and ramp-up 0; a plan gets the same
     * through {@link LoadPlan#jmeterProperties()}. Environments, repetitions, order and criteria are unchanged,
     * so the figures are noisier but every part of the experiment runs.
     */
    public Experiment quick() {
        return new Experiment(name, description, environments, load.quick(), repetitions, order, seed, baseline, criteria, file);
    }

    /**
     * The experiment as run, every default filled in (each environment's target, the absolute plan, durations after
     * {@link #quick()}); {@link ExperimentFile#parse} reads it back to the same experiment, whose toYaml is this text.
     */
    public String toYaml() {
        return ExperimentWriter.toYaml(this);
    }

    /** @throws InvalidSettingException when there is no such environment, listing the ones there are */
    public EnvironmentPlan environment(String name) {
        return environments.stream().filter(e -> e.name().equals(name)).findFirst()
                .orElseThrow(() -> new InvalidSettingException("environment", "'" + name + "' is not an environment of experiment "
                        + this.name + "; use one of " + String.join(", ", environmentNames())));
    }

    /** The loopback port where load goes, the same for every environment. */
    public int port() {
        return environments.get(0).definition().port();
    }

    /** How long each environment may take to get ready, the same for every environment. */
    public Duration readyTimeout() {
        return environments.get(0).definition().readyTimeout();
    }

    /** In the file's order. */
    public List<String> environmentNames() {
        return names(environments);
    }

    /** The runs, round by round, in this experiment's order (see {@link RunOrder#rounds}). */
    public List<List<String>> rounds() {
        return order.rounds(environmentNames(), repetitions, seed);
    }

    /** The one check of {@code repetitions}, shared by the file and {@code --repetitions}. */
    static void checkRepetitions(int n) {
        if (n < 1) {
            throw new InvalidSettingException(YamlFields.REPETITIONS, n + " is below 1; give how many times to run each environment, "
                    + "e.g. 4");
        }
        if (n > MAX_REPETITIONS) {
            throw new InvalidSettingException(YamlFields.REPETITIONS, n + " is above " + MAX_REPETITIONS + "; give how many times to run "
                    + "each environment, at most " + MAX_REPETITIONS + " (a significance test needs a handful, e.g. 4)");
        }
    }

    /** More runs than anyone waits for: a typo (an extra digit or two), refused before anything starts. */
    public static final int MAX_REPETITIONS = 1000;
    /** Every environment times every repetition: each run starts and stops its environment and writes four files. */
    public static final int MAX_RUNS = 10_000;

    static String defaultBaseline(List<EnvironmentPlan> environments) {
        List<String> names = names(environments);
        return names.contains(CONVENTIONAL_BASELINE) || names.isEmpty() ? CONVENTIONAL_BASELINE : names.get(0);
    }

    private static List<String> names(List<EnvironmentPlan> environments) {
        return environments.stream().map(EnvironmentPlan::name).toList();
    }
}
