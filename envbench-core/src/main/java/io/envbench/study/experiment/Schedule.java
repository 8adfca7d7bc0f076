package io.envbench.study.experiment;

import java.util.ArrayList;
import java.util.List;

/** The runs of an experiment in the order they run: rounds of every environment once (see {@link Experiment#rounds}). */
public final class Schedule {
    private Schedule() {}

    public static List<PlannedRun> of(Experiment e) {
        return upTo(e, e.repetitions().planned());
    }

    /** The runs of the first {@code rounds} rounds: where {@code repetitions: auto} stopped. */
    public static List<PlannedRun> upTo(Experiment e, int rounds) {
        List<PlannedRun> runs = new ArrayList<>();
        List<List<String>> planned = e.rounds();
        for (int i = 0; i < Math.min(rounds, planned.size()); i++) {
            for (String env : planned.get(i)) {
                runs.add(new PlannedRun(i + 1, env, i + 1));
            }
        }
        return runs;
    }
}
