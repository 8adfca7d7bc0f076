package io.envbench.measure.stats;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.envbench.measure.results.ResultFiles;

/**
 * The name of the run each result file holds. A file is named after itself ({@code static-web.jtl} is run
 * {@code static-web}); files whose names clash ({@code run1/static-web.jtl}, {@code run2/static-web.jtl}) are named by
 * their path from the folder they share ({@code run1/static-web}, {@code run2/static-web}), so two files never make one
 * run: pooled, their per-run figures and verdicts would describe a run that never happened.
 */
public final class RunNames {
    private RunNames() {}

    /** A file's name without {@code .jtl} or {@code .csv}, plain or compressed ({@link ResultFiles#stem}). */
    public static String stem(Path file) {
        return ResultFiles.stem(file);
    }

    /**
     * @param files distinct files (each one run), in order
     * @param taken run names already used by samples that came from no file (e.g. a live test), never given
     * @return file -> its run's name, in the order of {@code files}, each name distinct and none in {@code taken}
     */
    public static Map<Path, String> of(Collection<Path> files, Set<String> taken) {
        Map<String, List<Path>> byStem = new LinkedHashMap<>();
        for (Path f : files) {
            byStem.computeIfAbsent(stem(f), s -> new ArrayList<>()).add(f);
        }
        Map<Path, String> names = new LinkedHashMap<>();
        files.forEach(f -> names.put(f, null));
        Set<String> used = new HashSet<>(taken);
        byStem.forEach((stem, same) -> {
            if (same.size() == 1 && !taken.contains(stem)) {
                names.put(same.get(0), stem);
                used.add(stem);
                return;
            }
            List<Path> absolute =
                    same.stream().map(p -> p.toAbsolutePath().normalize()).toList();
            Path common = commonFolder(absolute);
            List<String> relative = new ArrayList<>();
            for (Path p : absolute) {
                String r = common.relativize(p).toString().replace('\\', '/');
                relative.add(r);
            }
            // without the extension where that keeps them apart (static-web.jtl beside static-web.csv does not)
            List<String> shorter = relative.stream().map(ResultFiles::stem).toList();
            List<String> chosen = new HashSet<>(shorter).size() == shorter.size() ? shorter : relative;
            for (int i = 0; i < same.size(); i++) {
                String name = chosen.get(i);
                if (used.contains(name)) {
                    name = absolute.get(i).toString();
                }
                names.put(same.get(i), name);
                used.add(name);
            }
        });
        return names;
    }

    /** The deepest folder holding every file (for one file, its folder's parent: the name then says the folder). */
    private static Path commonFolder(List<Path> absolute) {
        Path common = absolute.get(0).getParent();
        if (absolute.size() == 1 && common != null && common.getParent() != null) {
            return common.getParent();
        }
        for (Path p : absolute) {
            while (common != null && !p.startsWith(common)) {
                common = common.getParent();
            }
        }
        return common == null ? absolute.get(0).getRoot() : common;
    }
}
