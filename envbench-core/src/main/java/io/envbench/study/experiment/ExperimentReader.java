package io.envbench.study.experiment;

import static io.envbench.study.experiment.YamlFields.*;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import io.envbench.base.units.CpuSet;
import io.envbench.base.units.LocalPorts;
import io.envbench.measure.results.ResultColumns;
import io.envbench.measure.stats.Correction;
import io.envbench.study.experiment.YamlTree.Mapping;
import io.envbench.study.experiment.YamlTree.Node;
import io.envbench.study.experiment.YamlTree.Scalar;
import io.envbench.study.experiment.YamlTree.Sequence;

/**
 * Turns the located YAML tree into an {@link Experiment}. Types are checked here; everything else is checked by
 * the records and the core's validators (the same messages as the JMeter GUI), whose field names this maps back
 * to the file's field paths and lines.
 */
final class ExperimentReader {
    private final YamlReading y;
    private final TenancySection tenancySection;
    private final EnvironmentsSection environmentsSection;
    private final LoadSection loadSection;
    private final Node root;

    ExperimentReader(Path file, Path targetsDir, Node root) {
        this.root = root;
        this.y = new YamlReading(file, targetsDir, root);
        this.tenancySection = new TenancySection(y);
        this.environmentsSection = new EnvironmentsSection(y);
        this.loadSection = new LoadSection(y);
    }

    Experiment experiment() throws ExperimentException {
        Mapping top = y.mapping(
                root,
                "the experiment's fields: name:, environments:, load: and the others in testplans/experiments/README.md");
        y.checkFields(top, TOP);
        String name = y.requiredText(top, NAME, "the experiment's name, e.g. static-web");
        String description =
                y.scalar(top, DESCRIPTION, "a line of text").map(Scalar::text).orElse("");
        Optional<Scalar> target = y.scalar(top, TARGET, "a target recipe under targets/, e.g. nginx-static");
        if (target.isPresent()) {
            y.checkTarget(target.get());
        }
        Optional<Scalar> portNode = y.scalar(top, PORT, "a TCP port on 127.0.0.1, e.g. 18080");
        int port = portNode.isEmpty()
                ? Experiment.DEFAULT_PORT
                : y.wholeInt(portNode.get(), "a TCP port on 127.0.0.1, e.g. 18080");
        if (portNode.isPresent()) {
            y.at(portNode.get(), () -> {
                LocalPorts.checkRange(PORT, port);
                return port;
            });
        }
        Duration readyTimeout = y.optionalSeconds(
                        top, READY_TIMEOUT_SECONDS, "how long a target may take to get ready, in seconds, e.g. 60")
                .orElse(Experiment.DEFAULT_READY_TIMEOUT);
        boolean multiTenant = top.fields().containsKey(TENANTS);
        if (!multiTenant && top.fields().containsKey(CONFIGURATIONS)) {
            throw y.fail(
                    top.fields().get(CONFIGURATIONS),
                    "only goes with tenants: (a multi-tenant experiment); remove it, or add tenants:");
        }
        if (multiTenant && top.fields().containsKey(ENVIRONMENTS)) {
            throw y.fail(
                    top.fields().get(ENVIRONMENTS),
                    "a multi-tenant experiment (tenants:) runs its tenants under each of its "
                            + "configurations:, not environments; remove environments:");
        }
        List<EnvironmentPlan> environments =
                multiTenant ? List.of() : environmentsSection.environments(top, target, port, readyTimeout);
        Optional<Tenancy> tenancy =
                multiTenant ? Optional.of(tenancySection.tenancy(top, target, port, readyTimeout)) : Optional.empty();
        LoadPlan load = loadSection.load(top);
        if (load.command().isEmpty()) {
            for (Node env : YamlReading.field(top, ENVIRONMENTS)
                    .filter(n -> n instanceof Sequence)
                    .map(n -> ((Sequence) n).items())
                    .orElse(List.of())) {
                if (env instanceof Mapping m && m.fields().containsKey(CLIENT)) {
                    throw y.fail(
                            m.fields().get(CLIENT),
                            "only applies to a command load (load: command:), which it places; remove it");
                }
            }
        }
        if (multiTenant && load.plan().isEmpty()) {
            throw y.fail(
                    top.fields().get(LOAD),
                    "a multi-tenant experiment loads every tenant with its own thread group of a JMeter plan; "
                            + "give plan: ../daytrader.jmx with warmupSeconds: and durationSeconds: (not http: or command:)");
        }
        if (multiTenant) {
            tenancySection.checkOneThreadGroup(
                    y.scalar(y.mapping(top.fields().get(LOAD), "the load"), PLAN, "a plan")
                            .orElseThrow(),
                    load.plan().get());
        }
        Repetitions repetitions = repetitions(top);
        Optional<Scalar> orderNode = y.scalar(top, ORDER, "interleaved or randomized");
        RunOrder order = orderNode.isEmpty()
                ? Experiment.DEFAULT_ORDER
                : y.at(
                        orderNode.get(),
                        () -> RunOrder.parse(ORDER, orderNode.get().text()));
        Optional<Scalar> seedNode = y.scalar(top, SEED, "a whole number that fixes the randomized order, e.g. 1");
        long seed = seedNode.isEmpty()
                ? Experiment.DEFAULT_SEED
                : y.wholeNumber(seedNode.get(), "a whole number that fixes the randomized order, e.g. 1");
        String baseline = y.scalar(top, BASELINE, "the environment the others are compared with, e.g. bare")
                .map(Scalar::text)
                .orElse(tenancy.map(t -> t.configurationNames().contains("none")
                                ? "none"
                                : t.configurationNames().get(0))
                        .orElseGet(() -> Experiment.defaultBaseline(environments)));
        CapacitySpec capacity = new CapacitySection(y).capacity(top);
        Optional<Scalar> isolationNode = y.scalar(top, ISOLATION, "auto, cpus or off");
        Isolation isolation = isolationNode.isEmpty()
                ? Experiment.DEFAULT_ISOLATION
                : y.at(
                        isolationNode.get(),
                        () -> Isolation.parse(ISOLATION, isolationNode.get().text()));
        boolean allowGeneratorBound =
                y.optionalBoolean(top, ALLOW_GENERATOR_BOUND).orElse(false);
        Optional<Scalar> calibrationNode = y.scalar(top, CALIBRATION, "aa or none");
        Calibration calibration = calibrationNode.isEmpty()
                ? Experiment.DEFAULT_CALIBRATION
                : y.at(
                        calibrationNode.get(),
                        () -> Calibration.parse(
                                CALIBRATION, calibrationNode.get().text()));
        List<EnvironmentPlan> planned = calibration == Calibration.NONE
                ? environments
                : y.at(calibrationNode.get(), () -> calibration.plan(environments, baseline));
        Optional<Scalar> correctionNode = y.scalar(top, CORRECTION, "bh or holm");
        Correction correction = correctionNode.isEmpty()
                ? Experiment.DEFAULT_CORRECTION
                : y.at(
                        correctionNode.get(),
                        () -> Correction.byWord(correctionNode.get().text()));
        Optional<Scalar> resultsNode = y.scalar(top, RESULTS, "full or compact");
        ResultColumns results = resultsNode.isEmpty()
                ? Experiment.DEFAULT_RESULTS
                : y.at(
                        resultsNode.get(),
                        () -> ResultColumns.parse(RESULTS, resultsNode.get().text()));
        // a multi-tenant experiment's criteria name a tenant under a configuration: p90(dynamic/tenant-1)
        List<Criterion> criteria = criteria(
                top,
                tenancy.map(Tenancy::criterionNames)
                        .orElseGet(() ->
                                environments.stream().map(EnvironmentPlan::name).toList()));
        if (load.command().isPresent() && !criteria.isEmpty()) {
            throw y.fail(
                    top.fields().get(CRITERIA),
                    "criteria compare JMeter's figures, and a command load has none; remove criteria: "
                            + "(the command's report compares its own figures)");
        }
        Experiment experiment = y.located(
                f -> f,
                () -> new Experiment(
                        name,
                        description,
                        planned,
                        load,
                        repetitions,
                        order,
                        seed,
                        baseline,
                        criteria,
                        capacity,
                        isolation,
                        allowGeneratorBound,
                        calibration,
                        correction,
                        results,
                        y.file,
                        tenancy));
        if (isolation == Isolation.CPUS) { // refused here, at its line, rather than when the runs start
            y.at(isolationNode.get(), () -> isolation.decide(experiment, CpuSet.online()));
        }
        return experiment;
    }

    /** {@code repetitions:} a number, or {@code auto} with {@code minRepetitions}, {@code maxRepetitions} and {@code intervalWidth}. */
    private Repetitions repetitions(Mapping top) throws ExperimentException {
        String help = "how many times to run each environment, e.g. 4, or auto";
        Optional<Scalar> node = y.scalar(top, REPETITIONS, help);
        String countHelp = "a whole number of rounds, e.g. " + Repetitions.AUTO_MAX;
        Optional<Scalar> min = y.scalar(top, MIN_REPETITIONS, countHelp);
        Optional<Scalar> max = y.scalar(top, MAX_REPETITIONS, countHelp);
        Optional<Scalar> width = y.scalar(top, INTERVAL_WIDTH, "a percentage, e.g. 10%");
        boolean auto = node.isPresent() && node.get().text().strip().equalsIgnoreCase("auto");
        if (!auto) {
            for (Optional<Scalar> only : List.of(min, max, width)) {
                if (only.isPresent()) {
                    throw y.fail(
                            only.get(),
                            "applies to repetitions: auto only; write repetitions: auto, or remove this field");
                }
            }
            int n = node.isEmpty() ? Experiment.DEFAULT_REPETITIONS : y.wholeInt(node.get(), help);
            return y.located(f -> f, () -> Repetitions.fixed(n));
        }
        int least = min.isEmpty() ? Repetitions.AUTO_MIN : y.wholeInt(min.get(), countHelp);
        int most = max.isEmpty() ? Repetitions.AUTO_MAX : y.wholeInt(max.get(), countHelp);
        double widthPct = width.isEmpty()
                ? Repetitions.AUTO_WIDTH_PCT
                : y.at(
                        width.get(),
                        () -> Repetitions.parseWidthPct(
                                INTERVAL_WIDTH, width.get().text()));
        return y.located(f -> f, () -> new Repetitions(least, most, widthPct));
    }

    private List<Criterion> criteria(Mapping top, List<String> environments) throws ExperimentException {
        Optional<Node> node = YamlReading.field(top, CRITERIA);
        if (node.isEmpty()) {
            return List.of();
        }
        if (!(node.get() instanceof Sequence list)) {
            throw y.fail(
                    node.get(),
                    "is " + YamlTree.kind(node.get())
                            + "; give a list, one '- p90(docker) <= 1.2 * p90(bare)' per line");
        }
        Set<String> names = new LinkedHashSet<>(environments);
        List<Criterion> criteria = new ArrayList<>();
        for (Node item : list.items()) {
            if (!(item instanceof Scalar s) || s.empty()) {
                throw y.fail(
                        item,
                        "is " + YamlTree.kind(item) + "; write the criterion as text, in quotes when it holds ': ', "
                                + "e.g. - \"p90(bare, 'GET: page') < 5\"");
            }
            criteria.add(y.at(item, () -> Criterion.parse(s.text(), names)));
        }
        return criteria;
    }
}
