package io.envbench.measure.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Two result files are two runs, whatever their names: never pooled into a run that never happened. */
class RunNamesTest {
    @TempDir
    Path dir;

    private Path jtl(String path, long start, long... elapsed) throws IOException {
        StringBuilder b = new StringBuilder("timeStamp,elapsed,label,success,bytes,sentBytes,envbench.env\n");
        for (int i = 0; i < elapsed.length; i++) {
            b.append(start + 100L * i).append(',').append(elapsed[i]).append(",GET,true,100,10,bare\n");
        }
        Path f = dir.resolve(path);
        Files.createDirectories(f.getParent());
        return Files.writeString(f, b);
    }

    @Test
    void filesOfTheSameNameInTwoFoldersAreTwoRunsNamedByTheirFolders() throws IOException {
        Path one = jtl("run1/static-web.jtl", 1000, 10, 10, 10);
        Path two = jtl("run2/static-web.jtl", 9000, 30, 30);
        Comparison c = Comparison.of(List.of(one, two));
        assertEquals(List.of("run1/static-web", "run2/static-web"), c.runs("bare"));
        assertEquals(3, c.get("bare", "run1/static-web", "GET").count());
        assertEquals(2, c.get("bare", "run2/static-web", "GET").count());
        assertEquals(2, c.acrossRuns("bare", "GET", Figure.THROUGHPUT).runs(), "two runs, not one pooled");
        assertEquals(5, c.get("bare", "GET").count(), "pooled figures still count every sample");
        Map<String, Path> expected = new LinkedHashMap<>();
        expected.put("run1/static-web", one);
        expected.put("run2/static-web", two);
        assertEquals(expected, c.runFiles());
    }

    @Test
    void theNamesDoNotDependOnTheOrderFilesWereAddedIn() throws IOException {
        // the Comparison listener adds files one choice at a time: the first run is renamed when a namesake comes
        Path one = jtl("a/x/r.jtl", 1000, 5);
        Path other = jtl("a/other.jtl", 1000, 6);
        Path two = jtl("b/x/r.jtl", 2000, 7);
        Comparison c = new Comparison();
        assertEquals("r", c.addFile(one, l -> true));
        c.addFile(other, l -> true);
        assertEquals("b/x/r", c.addFile(two, l -> true));
        assertEquals(List.of("a/x/r", "other", "b/x/r"), c.runs("bare"));
        assertEquals(Set.of("a/x/r", "other", "b/x/r"), c.runFiles().keySet());
        assertEquals(5, c.get("bare", "a/x/r", "GET").maxMs(), "the renamed run keeps its samples");
        c.add(new io.envbench.measure.results.Sample("bare", "GET", 1500, 9, true, 1, 1), "a/x/r");
        assertEquals(2, c.get("bare", "a/x/r", "GET").count(), "and takes more under its new name");
    }

    @Test
    void oneFileGivenTwiceIsRefusedNamingIt() throws IOException {
        Path one = jtl("run1/static-web.jtl", 1000, 10);
        IOException e = assertThrows(
                IOException.class, () -> Comparison.of(List.of(one, dir.resolve("run1/../run1/static-web.jtl"))));
        assertTrue(e.getMessage().contains("given twice (also as " + one + ")"), e.getMessage());
        assertTrue(e.getMessage().contains("Give each run's file once"), e.getMessage());
    }

    @Test
    void namesClashingOnlyWithoutTheExtensionKeepIt() {
        Map<Path, String> n = RunNames.of(List.of(dir.resolve("r/s.jtl"), dir.resolve("r/s.csv")), Set.of());
        assertEquals(List.of("s.jtl", "s.csv"), List.copyOf(n.values()));
    }

    @Test
    void aNameTakenByALiveTestIsNotGivenToAFile() {
        Map<Path, String> n = RunNames.of(List.of(dir.resolve("results/live.jtl")), Set.of("live"));
        assertEquals("results/live", n.get(dir.resolve("results/live.jtl")));
    }
}
