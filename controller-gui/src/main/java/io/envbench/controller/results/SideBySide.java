package io.envbench.controller.results;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import io.envbench.measure.stats.Comparison;
import io.envbench.study.analysis.RunDirectory;
import io.envbench.study.analysis.RunResults;
import io.envbench.study.experiment.Experiment;
import io.envbench.study.experiment.ExperimentException;
import io.envbench.study.experiment.ExperimentFile;

/**
 * Two run directories as one comparison, as Phoronix merges result files: each environment named after its run
 * directory ({@code static-web-0930/bare}), the baseline the first directory's own. A change measured today is
 * then set against an earlier baseline with the same per-run statistics.
 *
 * @param comparison  every completed run of both, warm-up left out
 * @param baseline    the first directory's baseline, as named here
 * @param description which directory is which, for the notes
 */
record SideBySide(Comparison comparison, String baseline, String description) {

    static SideBySide of(RunDirectory first, RunDirectory second, Path targets)
            throws IOException, ExperimentException {
        if (first.root()
                .toAbsolutePath()
                .normalize()
                .equals(second.root().toAbsolutePath().normalize())) {
            throw new IOException("the same run directory twice (" + first.root() + "); choose two different ones");
        }
        Comparison c = new Comparison();
        Experiment a = add(c, first, targets);
        Experiment b = add(c, second, targets);
        String baseline = prefix(first) + a.baseline();
        if (!c.environments().contains(baseline)) {
            throw new IOException(first.root() + " has no completed run of its baseline " + a.baseline()
                    + "; choose another first run");
        }
        String description = "Side by side: " + first.root() + " (" + a.name() + ", baseline " + a.baseline() + ") and "
                + second.root() + " (" + b.name()
                + "); every environment is named after its run directory; changes are against " + baseline + ".";
        return new SideBySide(c, baseline, description);
    }

    private static Experiment add(Comparison c, RunDirectory dir, Path targets)
            throws IOException, ExperimentException {
        if (!Files.isRegularFile(dir.experiment())) {
            throw new IOException(dir.root() + " is not a run directory: it has no experiment.yaml");
        }
        Experiment e = ExperimentFile.read(dir.experiment(), targets);
        String prefix = prefix(dir);
        RunResults.readSamples(dir, e, dir.runs().read(), env -> prefix + env, c::add);
        return e;
    }

    private static String prefix(RunDirectory dir) {
        return dir.root().getFileName() + "/";
    }
}
