package io.envbench.study.experiment;

import static io.envbench.study.experiment.YamlFields.*;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.envbench.study.experiment.YamlTree.Mapping;
import io.envbench.study.experiment.YamlTree.Node;
import io.envbench.study.experiment.YamlTree.Scalar;
import io.envbench.study.experiment.YamlTree.Sequence;

/** An experiment file's {@code capacity:}: how a capacity search steps, and the objectives each step must keep. */
final class CapacitySection {
    private final YamlReading y;

    CapacitySection(YamlReading y) {
        this.y = y;
    }

    CapacitySpec capacity(Mapping top) throws ExperimentException {
        Optional<Node> node = YamlReading.field(top, CAPACITY);
        if (node.isEmpty()) {
            return CapacitySpec.DEFAULT;
        }
        Mapping m =
                y.mapping(node.get(), "how a capacity search steps, e.g. { slo: [\"p90 <= 200\"], startRate: 100 }");
        y.checkFields(m, ExperimentFields.names(ExperimentFields.Section.CAPACITY));
        CapacitySpec d = CapacitySpec.DEFAULT;
        List<Objective> slo = d.slo();
        Optional<Node> sloNode = YamlReading.field(m, SLO);
        if (sloNode.isPresent()) {
            if (!(sloNode.get() instanceof Sequence list)) {
                throw y.fail(sloNode.get(), "is not a list; give one objective per line, e.g. - p90 <= 200");
            }
            slo = new ArrayList<>();
            for (Node item : list.items()) {
                if (!(item instanceof Scalar s) || s.empty()) {
                    throw y.fail(item, "is not an objective; write FIGURE OP NUMBER, e.g. p90 <= 200");
                }
                slo.add(y.at(s, () -> Objective.parse(SLO, s.text())));
            }
        }
        String rateHelp = "requests per second, e.g. 100";
        Optional<Scalar> start = y.scalar(m, START_RATE, rateHelp);
        Optional<Scalar> max = y.scalar(m, MAX_RATE, rateHelp);
        double startRate = start.isEmpty() ? d.startRate() : y.decimal(start.get(), rateHelp);
        double maxRate = max.isEmpty() ? d.maxRate() : y.decimal(max.get(), rateHelp);
        Duration step = y.optionalSeconds(m, STEP_SECONDS, "each step's length in seconds, e.g. 10")
                .orElse(d.step());
        Duration warmup = y.optionalSeconds(m, WARMUP_SECONDS, "seconds left out at each step's start, e.g. 2")
                .orElse(d.warmup());
        String triesHelp = "how often each end of the knee's interval is tried, e.g. 3";
        Optional<Scalar> triesNode = y.scalar(m, TRIES, triesHelp);
        int tries = triesNode.isEmpty() ? d.tries() : y.wholeInt(triesNode.get(), triesHelp);
        String searchesHelp = "how often the whole search is made, e.g. 3";
        Optional<Scalar> searchesNode = y.scalar(m, SEARCHES, searchesHelp);
        int searches = searchesNode.isEmpty() ? d.searches() : y.wholeInt(searchesNode.get(), searchesHelp);
        String rateLabel = y.scalar(m, RATE_LABEL, "a sample label of the plan, e.g. 1 GET /login")
                .map(s -> s.text().strip())
                .orElse(d.rateLabel());
        List<Objective> objectives = slo;
        return y.located(
                f -> CAPACITY + "." + f,
                () -> new CapacitySpec(objectives, startRate, maxRate, step, warmup, tries, searches, rateLabel));
    }
}
