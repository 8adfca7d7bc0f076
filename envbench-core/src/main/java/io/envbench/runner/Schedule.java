package io.envbench.runner;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import io.envbench.experiment.Experiment;
import io.envbench.experiment.EnvironmentPlan;
import io.envbench.experiment.RunOrder;

/** The order of an experiment's runs: rounds of every environment once, interleaved or in shuffled blocks. */
public final class Schedule {
    private Schedule() {
    }

    /**
     * Interleaved: A B C, A B C, ... Randomized blocks: each round a new order of A B C, drawn from the
     * experiment's seed, so a rerun of the same file has the same order.
     */
    public static List<PlannedRun> of(Experiment e) {
        List<String> names = e.environments().stream().map(EnvironmentPlan::name).toList();
        Random random = new Random(e.seed());
        List<PlannedRun> runs = new ArrayList<>();
        for (int round = 1; round <= e.repetitions(); round++) {
            List<String> order = new ArrayList<>(names);
            if (e.order() == RunOrder.RANDOMIZED) {
                Collections.shuffle(order, random);
            }
            for (String env : order) {
                runs.add(new PlannedRun(round, env, round));
            }
        }
        return runs;
    }
}
