package io.envbench.study.command;

import io.envbench.study.bonnie.BonnieCsv;
import io.envbench.study.experiment.CommandOutput;
import io.envbench.study.psql.PsqlTimes;

/** Whether a command load's output holds a result its format reads: the one check the runner and the sampler make. */
public final class CommandOutputCheck {
    private CommandOutputCheck() {}

    /**
     * Checks that a run's output holds a result {@code format} reads.
     *
     * @throws IllegalArgumentException saying what is missing
     */
    public static void check(CommandOutput format, String output) {
        switch (format) {
            case BONNIE_CSV -> BonnieCsv.find(output);
            case PSQL_TIME -> PsqlTimes.find(output);
        }
    }
}
