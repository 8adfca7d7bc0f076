package io.envbench.study.experiment;

import java.util.ArrayList;
import java.util.List;

/** The runs of an experiment in the order they run: rounds of every environment once (see {@link Experiment#rounds}). */
public final class Schedule {
    private Schedule() {}

    public static List<PlannedRun> of(Experiment e) {
        List<PlannedRun> runs = new ArrayList<>();
        List<List<String>> rounds = e.rounds();
        for (int i = 0; i < rounds.size(); i++) {
            for (String env : rounds.get(i)) {
                runs.add(new PlannedRun(i + 1, env, i + 1));
            }
        }
        return runs;
    }
}
