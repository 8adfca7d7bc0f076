package io.envbench.study.experiment;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

import io.envbench.base.definition.EnvironmentDefinition;
import io.envbench.base.settings.FileSafeName;
import io.envbench.base.settings.InvalidSettingException;
import io.envbench.measure.results.ResultColumns;
import io.envbench.measure.stats.Correction;
import net.jcip.annotations.Immutable;

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
 * @param repetitions  runs per environment: a fixed number, at least 1, or {@code auto} between a minimum and a
 *                     maximum ({@link Repetitions})
 * @param order        the order of the runs
 * @param seed         shuffles the order when {@code order} is {@link RunOrder#RANDOMIZED}
 * @param baseline     the environment others are compared with
 * @param criteria     pass/fail checks over the run medians; may be empty
 * @param file         the file it was read from: names it in messages; a relative plan is relative to its folder
 * @param capacity     how a capacity search of an environment steps ({@code ./envbench capacity})
 * @param isolation    whether the load generator and the target get CPUs of their own
 * @param allowGeneratorBound whether environments the load generator bounded still get verdicts
 * @param calibration  whether the baseline also runs against itself; with {@link Calibration#AA} its copy is among
 *                     {@code environments}, right after it
 * @param correction   how the report adjusts the p-values of all its verdicts together
 * @param results      which columns of each run's JTL are kept once the run has ended (compressed either way)
 * @param tenancy      a multi-tenant experiment's tenants and compared configurations (then {@code environments} is
 *                     empty, the configurations are what the runs interleave and compare, and {@code load} is the plan
 *                     every tenant's thread group runs); empty for a comparison of environments
 */
@Immutable
public record Experiment(
        String name,
        String description,
        List<EnvironmentPlan> environments,
        LoadPlan load,
        Repetitions repetitions,
        RunOrder order,
        long seed,
        String baseline,
        List<Criterion> criteria,
        CapacitySpec capacity,
        Isolation isolation,
        boolean allowGeneratorBound,
        Calibration calibration,
        Correction correction,
        ResultColumns results,
        Path file,
        Optional<Tenancy> tenancy) {
    public static final int DEFAULT_PORT = 18080;
    public static final Duration DEFAULT_READY_TIMEOUT = Duration.ofSeconds(60);
    /** Three runs give a median and a spread; one gives neither. */
    public static final int DEFAULT_REPETITIONS = 3;

    public static final RunOrder DEFAULT_ORDER = RunOrder.INTERLEAVED;
    public static final long DEFAULT_SEED = 1;
    /** The baseline when none is named: this environment if there is one, else the first. */
    public static final String CONVENTIONAL_BASELINE = "bare";
    /** Keeps the power of a handful of runs where most compared environments differ. */
    public static final Correction DEFAULT_CORRECTION = Correction.BH;

    public static final Calibration DEFAULT_CALIBRATION = Calibration.NONE;
    /** Isolate where the machine allows: the generator is then not what is measured. */
    public static final Isolation DEFAULT_ISOLATION = Isolation.AUTO;
    /** Every column, as JMeter users expect of a JTL; compressed all the same. */
    public static final ResultColumns DEFAULT_RESULTS = ResultColumns.FULL;

    /** A comparison of environments (no tenants). */
    public Experiment(
            String name,
            String description,
            List<EnvironmentPlan> environments,
            LoadPlan load,
            int repetitions,
            RunOrder order,
            long seed,
            String baseline,
            List<Criterion> criteria,
            Path file) {
        this(
                name,
                description,
                environments,
                load,
                Repetitions.fixed(repetitions),
                order,
                seed,
                baseline,
                criteria,
                CapacitySpec.DEFAULT,
                DEFAULT_ISOLATION,
                false,
                DEFAULT_CALIBRATION,
                DEFAULT_CORRECTION,
                DEFAULT_RESULTS,
                file,
                Optional.empty());
    }

    public Experiment {
        FileSafeName.check(YamlFields.NAME, name, "static-web"); // names the run's folder
        description = description == null ? "" : description;
        environments = List.copyOf(Objects.requireNonNull(environments, "environments"));
        Objects.requireNonNull(tenancy, "tenancy");
        if (tenancy.isPresent()) {
            checkMultiTenant(environments, load, tenancy.get(), criteria);
        } else if (environments.isEmpty()) {
            throw new InvalidSettingException(
                    YamlFields.ENVIRONMENTS,
                    "is empty; add at least one environment, e.g. " + "{ name: bare, placement: bare }");
        }
        Map<String, Integer> seen = new HashMap<>();
        Map<String, Integer> seenIgnoringCase = new HashMap<>();
        for (int i = 0; i < environments.size(); i++) {
            String envName = environments.get(i).name();
            Integer earlier = seen.putIfAbsent(envName, i);
            if (earlier != null) {
                throw new InvalidSettingException(
                        YamlFields.ENVIRONMENTS + "[" + i + "]." + YamlFields.NAME,
                        "'" + envName + "' is already the name of environments[" + earlier
                                + "]; give each environment its own name");
            }
            // each name names the run's files (jtl/NAME-r1.jtl): on a case-insensitive disk these two would share them
            Integer sameFiles = seenIgnoringCase.putIfAbsent(FileSafeName.collisionKey(envName), i);
            if (sameFiles != null) {
                throw new InvalidSettingException(
                        YamlFields.ENVIRONMENTS + "[" + i + "]." + YamlFields.NAME,
                        "'" + envName
                                + "' and '" + environments.get(sameFiles).name() + "' (environments[" + sameFiles
                                + "]) differ only in case, "
                                + "so their files (jtl/" + envName
                                + "-r1.jtl) share a name on a case-insensitive disk; rename one");
            }
        }
        // the file has one port and one ready timeout: load goes to one place, whichever environment runs
        for (int i = 1; i < environments.size(); i++) {
            EnvironmentDefinition first = environments.get(0).definition();
            EnvironmentDefinition d = environments.get(i).definition();
            if (d.port() != first.port() || !d.readyTimeout().equals(first.readyTimeout())) {
                throw new InvalidSettingException(
                        YamlFields.PORT,
                        "environments[" + i + "] has port " + d.port() + " and ready timeout "
                                + d.readyTimeout().toSeconds() + " s, environments[0] " + first.port() + " and "
                                + first.readyTimeout().toSeconds()
                                + " s; give every environment the same");
            }
        }
        Objects.requireNonNull(load, "load");
        Objects.requireNonNull(repetitions, "repetitions");
        if (repetitions.isAuto() && load.command().isPresent()) {
            throw new InvalidSettingException(
                    YamlFields.REPETITIONS,
                    "auto judges JMeter's figures, and a command load has none; give a number of repetitions, e.g. 4");
        }
        List<String> compared = tenancy.isPresent() ? tenancy.get().configurationNames() : names(environments);
        String what = tenancy.isPresent() ? "configurations" : "environments";
        if ((long) repetitions.planned() * compared.size() > MAX_RUNS) {
            throw new InvalidSettingException(
                    repetitions.isAuto() ? YamlFields.MAX_REPETITIONS : YamlFields.REPETITIONS,
                    repetitions.planned() + " repetitions of " + compared.size()
                            + " " + what + " make " + (long) repetitions.planned() * compared.size()
                            + " runs, above " + MAX_RUNS + "; give fewer repetitions or " + what);
        }
        Objects.requireNonNull(order, "order");
        if (baseline == null || !compared.contains(baseline)) {
            throw new InvalidSettingException(
                    YamlFields.BASELINE,
                    "'" + baseline + "' is not " + (tenancy.isPresent() ? "a configuration" : "an environment")
                            + " of this experiment; use one of " + String.join(", ", compared));
        }
        criteria = List.copyOf(Objects.requireNonNull(criteria, "criteria"));
        // a multi-tenant experiment's criteria name a tenant under a configuration (Tenancy#criterionNames)
        List<String> named = tenancy.isPresent() ? tenancy.get().criterionNames() : names(environments);
        for (int i = 0; i < criteria.size(); i++) {
            for (String env : criteria.get(i).environments()) {
                if (!named.contains(env)) {
                    throw new InvalidSettingException(
                            YamlFields.CRITERIA + "[" + i + "]",
                            "'" + criteria.get(i) + "': '" + env + "' is not an environment of this experiment; use "
                                    + String.join(", ", named));
                }
            }
        }
        Objects.requireNonNull(correction, "correction");
        Objects.requireNonNull(results, "results");
        Objects.requireNonNull(calibration, "calibration");
        Objects.requireNonNull(isolation, "isolation");
        Objects.requireNonNull(capacity, "capacity");
        Optional<HttpLoad.RateShare> share = load.http().flatMap(HttpLoad::share);
        if (share.isPresent() && !names(environments).contains(share.get().environment())) {
            throw new InvalidSettingException(
                    "load.http.requestsPerSecond",
                    "'" + share.get().text() + "' names no environment of this experiment; use one of "
                            + String.join(", ", names(environments)));
        }
        if (calibration != Calibration.NONE) {
            if (tenancy.isPresent()) {
                throw new InvalidSettingException(
                        YamlFields.CALIBRATION,
                        "compares the baseline environment with itself; a multi-tenant experiment compares "
                                + "configurations: remove calibration:");
            }
            String copy = calibration.copyOf(baseline).orElseThrow();
            int at = names(environments).indexOf(baseline);
            if (at + 1 >= environments.size()
                    || !environments.get(at + 1).name().equals(copy)) {
                throw new InvalidSettingException(
                        YamlFields.CALIBRATION,
                        "needs the baseline's copy '" + copy + "' right after it among the environments");
            }
        }
        Objects.requireNonNull(file, "file");
    }

    /** The same experiment with its HTTP load at this rate: what its share of a capacity came to. */
    public Experiment withRate(double perSecond) {
        HttpLoad h = load.http()
                .orElseThrow(() -> new IllegalStateException("only the built-in HTTP load has a rate to set"));
        return withLoad(LoadPlan.http(h.withRate(perSecond)).onEngines(load.engines()));
    }

    private Experiment withLoad(LoadPlan newLoad) {
        return changed(environments, newLoad, repetitions, baseline, calibration, tenancy);
    }

    /** This experiment with the parts the {@code with} methods change; every other part as it is. */
    private Experiment changed(
            List<EnvironmentPlan> newEnvironments,
            LoadPlan newLoad,
            Repetitions newRepetitions,
            String newBaseline,
            Calibration newCalibration,
            Optional<Tenancy> newTenancy) {
        return new Experiment(
                name,
                description,
                newEnvironments,
                newLoad,
                newRepetitions,
                order,
                seed,
                newBaseline,
                criteria,
                capacity,
                isolation,
                allowGeneratorBound,
                newCalibration,
                correction,
                results,
                file,
                newTenancy);
    }

    /** The same experiment run {@code n} times per environment (e.g. {@code --repetitions}); refuses n below 1 as the file does. */
    public Experiment withRepetitions(int n) {
        return changed(environments, load, Repetitions.fixed(n), baseline, calibration, tenancy);
    }

    /**
     * The same experiment with its baseline also run against itself (e.g. {@code --calibrate}): with {@link
     * Calibration#AA} its copy joins the environments right after it, as {@code calibration: aa} in the file does.
     *
     * @throws InvalidSettingException naming {@code calibration} as the file's field would be
     */
    public Experiment withCalibration(Calibration c) {
        if (c == calibration) {
            return this;
        }
        if (calibration != Calibration.NONE) {
            throw new InvalidSettingException(
                    YamlFields.CALIBRATION, "is " + calibration.yamlName() + " already; the file's stands");
        }
        return changed(c.plan(environments, baseline), load, repetitions, baseline, c, tenancy);
    }

    /**
     * A multi-tenant experiment with only the named configurations (e.g. {@code --configurations none}), in the file's
     * order; the baseline stays when kept, else the first kept one is.
     *
     * @throws InvalidSettingException naming {@code configurations} when a name is not a configuration, or none is left
     */
    public Experiment withConfigurations(List<String> names) {
        Tenancy t = tenancy.orElseThrow(() -> new InvalidSettingException(
                YamlFields.CONFIGURATIONS, "only a multi-tenant experiment " + "(tenants:) has configurations"));
        for (String n : names) {
            if (!t.configurationNames().contains(n)) {
                throw new InvalidSettingException(
                        YamlFields.CONFIGURATIONS,
                        "'" + n + "' is not a configuration of " + name + "; use "
                                + String.join(", ", t.configurationNames()));
            }
        }
        List<TenantConfiguration> kept = t.configurations().stream()
                .filter(c -> names.contains(c.name()))
                .toList();
        if (kept.isEmpty()) {
            throw new InvalidSettingException(
                    YamlFields.CONFIGURATIONS,
                    "names none; give at least one of " + String.join(", ", t.configurationNames()));
        }
        String keptBaseline = names.contains(baseline) ? baseline : kept.get(0).name();
        return changed(
                environments,
                load,
                repetitions,
                keptBaseline,
                calibration,
                Optional.of(new Tenancy(t.cpus(), t.users(), t.quotes(), t.tenants(), kept, t.low(), t.high())));
    }

    /**
     * The same experiment shortened for {@code --quick} (a smoke test in CI): the shortest load that still gives
     * figures, warm-up at most 1 s, each run at most 3 s (warm-up included) and ramp-up 0; a plan gets the same
     * through {@link LoadPlan#jmeterProperties()}. Environments, repetitions, order and criteria are unchanged,
     * so the figures are noisier but every part of the experiment runs.
     */
    public Experiment quick() {
        return withLoad(load.quick());
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
        return environments.stream()
                .filter(e -> e.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new InvalidSettingException(
                        "environment",
                        "'" + name + "' is not an environment of experiment " + this.name + "; use one of "
                                + String.join(", ", environmentNames())));
    }

    /** The loopback port where load goes, the same for every environment; a multi-tenant experiment's tenant-1's (tenant-N: port + N - 1). */
    public int port() {
        return tenancy.isPresent()
                ? tenancy.get().tenants().get(0).definition().port()
                : environments.get(0).definition().port();
    }

    /** How long each environment (each tenant) may take to get ready, the same for every one. */
    public Duration readyTimeout() {
        return tenancy.isPresent()
                ? tenancy.get().tenants().get(0).definition().readyTimeout()
                : environments.get(0).definition().readyTimeout();
    }

    /**
     * What the runs compare, in the file's order: the environments, or a multi-tenant experiment's configurations
     * (each run runs every tenant under one configuration).
     */
    public List<String> environmentNames() {
        return tenancy.isPresent() ? tenancy.get().configurationNames() : names(environments);
    }

    /** Every loopback port a run uses: the one port, or each tenant's. */
    public List<Integer> ports() {
        return tenancy.isPresent()
                ? tenancy.get().tenants().stream()
                        .map(t -> t.definition().port())
                        .toList()
                : List.of(port());
    }

    /** The targets its environments, or its tenants, run; in the order first named. */
    public List<String> targets() {
        Stream<EnvironmentDefinition> defs = tenancy.map(
                        t -> t.tenants().stream().map(TenantPlan::definition))
                .orElseGet(() -> environments.stream().map(EnvironmentPlan::definition));
        return defs.map(EnvironmentDefinition::target).distinct().toList();
    }

    public boolean usesDocker() {
        return tenancy.isPresent()
                || environments.stream().anyMatch(e -> e.definition().usesDocker());
    }

    private static void checkMultiTenant(
            List<EnvironmentPlan> environments, LoadPlan load, Tenancy tenancy, List<Criterion> criteria) {
        if (!environments.isEmpty()) {
            throw new InvalidSettingException(
                    YamlFields.ENVIRONMENTS,
                    "a multi-tenant experiment runs its tenants (tenants:) under each "
                            + "configuration (configurations:); remove environments:");
        }
        if (load == null || load.plan().isEmpty()) {
            throw new InvalidSettingException(
                    YamlFields.LOAD,
                    "a multi-tenant experiment loads every tenant with its own thread group of a "
                            + "JMeter plan; give load: { plan: ../daytrader.jmx, warmupSeconds: ..., durationSeconds: ... }");
        }
        if (!load.engines().none()) {
            throw new InvalidSettingException(
                    YamlFields.LOAD + "." + YamlFields.ENGINES,
                    "a multi-tenant experiment runs its load in the " + "runner's own JMeter; remove engines:");
        }
    }

    /** The runs planned, round by round, in this experiment's order (see {@link RunOrder#rounds}): with {@code auto}, as many rounds as it may run. */
    public List<List<String>> rounds() {
        return order.rounds(environmentNames(), repetitions.planned(), seed);
    }

    /** The one check of {@code repetitions}, shared by the file and {@code --repetitions}. */
    static void checkRepetitions(int n) {
        if (n < 1) {
            throw new InvalidSettingException(
                    YamlFields.REPETITIONS,
                    n + " is below 1; give how many times to run each environment, " + "e.g. 4");
        }
        if (n > MAX_REPETITIONS) {
            throw new InvalidSettingException(
                    YamlFields.REPETITIONS,
                    n + " is above " + MAX_REPETITIONS + "; give how many times to run " + "each environment, at most "
                            + MAX_REPETITIONS + " (a significance test needs a handful, e.g. 4)");
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
