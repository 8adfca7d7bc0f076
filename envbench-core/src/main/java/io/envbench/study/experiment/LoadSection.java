package io.envbench.study.experiment;

import static io.envbench.study.experiment.YamlFields.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import io.envbench.base.settings.InvalidSettingException;
import io.envbench.base.units.MemorySize;
import io.envbench.measure.engines.RemoteEngine;
import io.envbench.measure.engines.RemoteEngines;
import io.envbench.measure.stats.Comparison;
import io.envbench.study.experiment.YamlTree.Mapping;
import io.envbench.study.experiment.YamlTree.Node;
import io.envbench.study.experiment.YamlTree.Scalar;
import io.envbench.study.experiment.YamlTree.Sequence;

/**
 * An experiment file's {@code load:}: the built-in HTTP load, a JMeter plan with its properties and engines, or a
 * command.
 */
final class LoadSection {
    private final YamlReading y;

    LoadSection(YamlReading y) {
        this.y = y;
    }

    LoadPlan load(Mapping top) throws ExperimentException {
        Node node = y.required(top, LOAD, "the load: http: (the built-in HTTP load) or plan: (a JMeter plan)");
        Mapping m = y.mapping(node, "the load: http: (the built-in HTTP load) or plan: (a JMeter plan)");
        y.checkFields(m, LOAD_FIELDS);
        Optional<Node> commandNode = YamlReading.field(m, COMMAND);
        if (commandNode.isPresent()) {
            return commandLoad(m, commandNode.get());
        }
        Optional<Node> httpNode = YamlReading.field(m, HTTP);
        Optional<Scalar> planNode = y.scalar(m, PLAN, "a JMeter plan (.jmx), relative to this file");
        Optional<HttpLoad> http = Optional.empty();
        Duration warmup = Duration.ZERO;
        Duration duration = Duration.ZERO;
        if (httpNode.isPresent()) {
            for (String planOnly : List.of(WARMUP_SECONDS, DURATION_SECONDS)) {
                if (m.fields().containsKey(planOnly) && planNode.isEmpty()) {
                    throw y.fail(
                            m.fields().get(planOnly),
                            "belongs inside http: with the built-in load; move it to load.http." + planOnly);
                }
            }
            http = Optional.of(httpLoad(httpNode.get()));
            warmup = http.get().warmup();
            duration = http.get().duration();
        } else if (planNode.isPresent()) {
            warmup = y.optionalSeconds(
                            m, WARMUP_SECONDS, "seconds at the start of each run left out of the figures, e.g. 5")
                    .orElse(Duration.ZERO);
            duration = y.requiredSeconds(
                    m, DURATION_SECONDS, "how long the plan runs, in seconds, warm-up included, e.g. 60");
        }
        Optional<Path> plan = planNode.isEmpty() ? Optional.empty() : Optional.of(y.resolve(planNode.get()));
        Map<String, String> properties = properties(m);
        Optional<HttpLoad> finalHttp = http;
        Duration finalWarmup = warmup;
        Duration finalDuration = duration;
        RemoteEngines engines = engines(m);
        LoadPlan load = y.located(
                f -> f.equals(LOAD) ? LOAD : YamlTree.child(LOAD, f),
                () -> new LoadPlan(plan, properties, finalHttp, finalWarmup, finalDuration, engines));
        // after the record's checks, so "has both http: and plan:" comes before "the plan does not exist"
        if (planNode.isPresent()) {
            checkPlanFile(planNode.get(), plan.get());
            if (!engines.none()) {
                checkPlanSendsEngineMetrics(planNode.get(), plan.get());
            }
        }
        return load;
    }

    /** {@code load: command:}: a program run in each environment; nothing else may stand beside it under load:. */
    private LoadPlan commandLoad(Mapping load, Node node) throws ExperimentException {
        for (String other : List.of(HTTP, PLAN, PROPERTIES, WARMUP_SECONDS, DURATION_SECONDS, ENGINES, RMI_KEYSTORE)) {
            if (load.fields().containsKey(other)) {
                throw y.fail(
                        load.fields().get(other),
                        other.equals(DURATION_SECONDS)
                                ? "belongs inside command: with a command load; move " + "it to load.command."
                                        + DURATION_SECONDS
                                : "cannot stand beside command:; keep one load (command: a program run "
                                        + "in each environment, http: the built-in HTTP load, plan: a JMeter plan)");
            }
        }
        Mapping m = y.mapping(
                node, "a command load: run:, output: (bonnie++), durationSeconds: and optionally bareMemory:");
        y.checkFields(m, COMMAND_FIELDS);
        Scalar run = y.scalar(m, RUN, "the program and its arguments")
                .orElseThrow(() -> y.fail(
                        m,
                        "has no run:; give the program and " + "its arguments, e.g. run: ./bonnie.sh -s 1024 -r 512"));
        List<String> command = CommandLoad.words(run.text());
        Scalar outputNode = y.scalar(m, OUTPUT, "how the output is read: bonnie++")
                .orElseThrow(() ->
                        y.fail(m, "has no output:; say how " + "the program's output is read, e.g. output: bonnie++"));
        CommandOutput output = y.at(outputNode, () -> CommandOutput.parse(OUTPUT, outputNode.text()));
        Optional<Scalar> memoryNode = y.scalar(m, BARE_MEMORY, "a size such as 512m or 1g");
        OptionalLong bareMemory = memoryNode.isEmpty()
                ? OptionalLong.empty()
                : OptionalLong.of(y.at(
                        memoryNode.get(),
                        () -> MemorySize.parseBytes(
                                BARE_MEMORY, memoryNode.get().text())));
        Duration duration =
                y.requiredSeconds(m, DURATION_SECONDS, "how long one run of the program takes, in seconds, e.g. 60");
        CommandLoad c = y.located(
                f -> YamlTree.child(m.path(), f), () -> new CommandLoad(command, output, bareMemory, duration));
        return LoadPlan.command(c);
    }

    /** {@code engines: [HOST:PORT, ...]} and {@code rmiKeystore: FILE}; neither: the runner's own JMeter. */
    private RemoteEngines engines(Mapping load) throws ExperimentException {
        String example = "a list of JMeter engines (jmeter-server) as HOST:PORT, e.g. [127.0.0.1:1099, 127.0.0.1:1100]";
        Optional<Node> node = YamlReading.field(load, ENGINES);
        Optional<Scalar> keystoreNode =
                y.scalar(load, RMI_KEYSTORE, "the RMI keystore the engines use, relative to this file");
        List<RemoteEngine> engines = new ArrayList<>();
        if (node.isPresent()) {
            if (!(node.get() instanceof Sequence list)) {
                throw y.fail(node.get(), "is " + YamlTree.kind(node.get()) + "; give " + example);
            }
            if (list.items().isEmpty()) {
                throw y.fail(
                        node.get(), "is empty; give " + example + ", or remove it to run the load in one local JMeter");
            }
            for (Node item : list.items()) {
                if (!(item instanceof Scalar s) || s.empty()) {
                    throw y.fail(
                            item, "is " + YamlTree.kind(item) + "; give an engine as HOST:PORT, e.g. 127.0.0.1:1099");
                }
                engines.add(y.at(item, () -> RemoteEngine.parse(s.text())));
            }
        }
        Optional<Path> keystore = Optional.empty();
        if (keystoreNode.isPresent()) {
            Path file = y.resolve(keystoreNode.get());
            if (!Files.isRegularFile(file)) {
                throw y.fail(
                        keystoreNode.get(),
                        "'" + keystoreNode.get().text() + "' does not exist (looked for " + file + "); give the "
                                + "keystore the engines were started with (server.rmi.ssl.keystore.file), relative to this file's folder or absolute");
            }
            keystore = Optional.of(file);
        }
        Optional<Path> finalKeystore = keystore;
        return y.located(f -> YamlTree.child(LOAD, f), () -> new RemoteEngines(engines, finalKeystore));
    }

    private void checkPlanSendsEngineMetrics(Scalar node, Path plan) throws ExperimentException {
        boolean sends;
        try {
            sends = LoadPlan.sendsEngineMetrics(plan);
        } catch (IOException e) {
            throw y.fail(node, "'" + node.text() + "' cannot be read (" + e.getMessage() + ")");
        }
        if (!sends) {
            throw y.fail(
                    node,
                    "'" + node.text()
                            + "' has no EnvBench Engine Metrics sampler; on engines each one sends its metrics back "
                            + "through it: add a thread group of ${__P(" + LoadPlan.ENGINE_METRICS_THREADS_PROPERTY
                            + ",0)} threads holding "
                            + "one (copy the one of testplans/http-load.jmx), or use the built-in load (http:)");
        }
    }

    private HttpLoad httpLoad(Node node) throws ExperimentException {
        Mapping m = y.mapping(
                node,
                "the built-in HTTP load: path:, threads:, durationSeconds: and optionally requestsPerSecond:, "
                        + "rampUpSeconds:, warmupSeconds:");
        y.checkFields(m, HTTP_FIELDS);
        String path = y.requiredText(m, PATH, "the path to GET on the target, e.g. /page-4k.html");
        String threadsHelp = "the number of concurrent users, e.g. 8";
        Optional<Scalar> threadsNode = y.scalar(m, THREADS, threadsHelp);
        int threads = threadsNode.isEmpty() ? 1 : y.wholeInt(threadsNode.get(), threadsHelp);
        String rateHelp = "requests per second for all threads together, a share of a capacity such as 80% of"
                + " capacity(bare), or 0 for as fast as possible";
        Optional<Scalar> rateNode = y.scalar(m, REQUESTS_PER_SECOND, rateHelp);
        Optional<HttpLoad.RateShare> share = rateNode.isEmpty()
                        || !rateNode.get().text().contains("capacity")
                ? Optional.empty()
                : Optional.of(y.at(
                        rateNode.get(),
                        () -> HttpLoad.RateShare.parse(rateNode.get().text())
                                .orElseThrow(() -> new InvalidSettingException(
                                        REQUESTS_PER_SECOND,
                                        "'" + rateNode.get().text() + "' is not a share of a capacity; write it as"
                                                + " 80% of capacity(bare)"))));
        double rate = share.isPresent() ? Double.NaN : rateNode.isEmpty() ? 0 : y.decimal(rateNode.get(), rateHelp);
        Duration rampUp = y.optionalSeconds(m, RAMP_UP_SECONDS, "seconds to start all threads, e.g. 0")
                .orElse(Duration.ZERO);
        Duration warmup = y.optionalSeconds(
                        m, WARMUP_SECONDS, "seconds at the start of each run left out of the figures, e.g. 5")
                .orElse(Duration.ZERO);
        Duration duration =
                y.requiredSeconds(m, DURATION_SECONDS, "the run's length in seconds, warm-up included, e.g. 20");
        return y.located(
                f -> YamlTree.child(m.path(), f),
                () -> new HttpLoad(path, threads, rate, rampUp, warmup, duration, share));
    }

    private void checkPlanFile(Scalar node, Path plan) throws ExperimentException {
        if (node.text().isBlank()) {
            throw y.fail(
                    node,
                    "is empty; give a JMeter plan (.jmx), relative to this file's folder or absolute, e.g. ../http-load.jmx");
        }
        if (Files.isDirectory(plan)) {
            throw y.fail(node, "'" + node.text() + "' is a folder (" + plan + "); give a JMeter plan (.jmx) file");
        }
        if (!Files.isRegularFile(plan)) {
            throw y.fail(
                    node,
                    "'" + node.text() + "' does not exist (looked for " + plan
                            + "); give a JMeter plan (.jmx), relative to " + "this file's folder or absolute");
        }
        Optional<String> notAPlan;
        try {
            notAPlan = LoadPlan.notAPlan(plan);
        } catch (IOException e) {
            throw y.fail(node, "'" + node.text() + "' cannot be read (" + e.getMessage() + "); check its permissions");
        }
        if (notAPlan.isPresent()) {
            throw y.fail(
                    node,
                    "'" + node.text() + "' is not a JMeter plan: " + notAPlan.get()
                            + "; give a .jmx that JMeter saved (File > Save Test Plan as)");
        }
        // the runner owns the environments: a plan that starts its own would start them twice, on one port
        boolean startsEnvironments;
        try {
            startsEnvironments = LoadPlan.startsEnvironments(plan);
        } catch (IOException e) {
            throw y.fail(node, "'" + node.text() + "' cannot be read (" + e.getMessage() + ")");
        }
        boolean labelsTotal;
        try {
            labelsTotal = LoadPlan.labelsTotal(plan);
        } catch (IOException e) {
            throw y.fail(node, "'" + node.text() + "' cannot be read (" + e.getMessage() + ")");
        }
        if (labelsTotal) {
            throw y.fail(
                    node, "'" + node.text() + "': " + Comparison.labelledTotal().getMessage());
        }
        if (startsEnvironments) {
            throw y.fail(
                    node,
                    "'" + node.text()
                            + "' starts environments itself (EnvBench Target Environment samplers); the runner "
                            + "starts each environment of the experiment, so give a plan that only sends load to "
                            + "${__P(envbench.host,127.0.0.1)}:${__P(envbench.port,18080)}, e.g. ../http-load.jmx");
        }
    }

    private Map<String, String> properties(Mapping load) throws ExperimentException {
        Optional<Node> node = YamlReading.field(load, PROPERTIES);
        if (node.isEmpty()) {
            return Map.of();
        }
        Mapping m = y.mapping(node.get(), "-J properties for the plan, e.g. { envbench.threads: 8 }");
        Map<String, String> properties = new LinkedHashMap<>();
        for (Map.Entry<String, Node> e : m.fields().entrySet()) {
            if (!(e.getValue() instanceof Scalar s)) {
                throw y.fail(e.getValue(), "is " + YamlTree.kind(e.getValue()) + "; give a single value, e.g. 8");
            }
            properties.put(e.getKey(), s.text());
        }
        return properties;
    }
}
