package io.envbench.report.header;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.envbench.study.analysis.HostDescription;
import net.jcip.annotations.Immutable;

/**
 * What a report says about its run before any figure, so that a report read on its own says what was compared, where
 * and when, and whether it passed: the experiment's name as the title, the run's outcome and time, the host, each
 * environment with its options, and the criteria with their verdicts. Immutable.
 *
 * @param title        the experiment's name (the report's title)
 * @param facts        name and value of each fact, in order: outcome, when, host, run directory
 * @param environments per environment: name, where it ran, its options (see {@link #ENVIRONMENTS_HEAD})
 * @param criteria     per criterion: its text, PASS or FAIL, why (see {@link #CRITERIA_HEAD})
 */
@Immutable
public record RunHeader(String title, List<String[]> facts, List<String[]> environments, List<String[]> criteria) {
    /** The title of a report of result files alone, without their experiment. */
    public static final String UNNAMED_TITLE = "EnvBench comparison";

    public static final String[] ENVIRONMENTS_HEAD = {"environment", "runs on", "options"};
    public static final String[] CRITERIA_HEAD = {"criterion", "verdict", "why (medians of runs)"};

    public static final String PASS = "PASS";
    public static final String FAIL = "FAIL";

    /** Said where a run directory has no {@code host.json}: runners before it recorded none. */
    public static final String HOST_UNKNOWN = "unknown (this run directory has no " + HostDescription.FILE
            + ": it was written before runs recorded their" + " host)";

    public RunHeader {
        facts = List.copyOf(facts);
        environments = List.copyOf(environments);
        criteria = List.copyOf(criteria);
    }

    /** A report of result files alone: a plain title, nothing known of the run. */
    public static RunHeader unnamed() {
        return new RunHeader(UNNAMED_TITLE, List.of(), List.of(), List.of());
    }

    /** The host's line: its description, or {@link #HOST_UNKNOWN}. */
    public static String host(Optional<HostDescription> host) {
        return host.map(HostDescription::describe).orElse(HOST_UNKNOWN);
    }

    /** A builder's worth of facts in order, each a name and a value. */
    public static final class Facts {
        private final List<String[]> facts = new ArrayList<>();

        public Facts add(String name, String value) {
            facts.add(new String[] {name, value});
            return this;
        }

        public List<String[]> list() {
            return List.copyOf(facts);
        }
    }
}
