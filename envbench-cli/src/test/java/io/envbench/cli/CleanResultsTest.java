package io.envbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code envbench clean --results-older-than DAYS}: lists, asks, removes old run directories; never the daemon. */
class CleanResultsTest {
    @TempDir
    Path root;

    private String[] clean(String input, String... args) {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        String[] all = new String[args.length + 2];
        all[0] = "--root";
        all[1] = root.toString();
        System.arraycopy(args, 0, all, 2, args.length);
        int code = new CommandLine(new CleanCommand(
                        new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)),
                        new PrintStream(o, true, StandardCharsets.UTF_8),
                        new PrintStream(e, true, StandardCharsets.UTF_8)))
                .execute(all);
        return new String[] {
            Integer.toString(code), o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8)
        };
    }

    @Test
    void oldRunDirectoriesGoOnlyWhenTheUserSaysSo() throws Exception {
        Path old = Files.createDirectories(root.resolve("results/static-web-20261001-100000"));
        Files.writeString(old.resolve("experiment.yaml"), "name: x\n");
        Files.writeString(old.resolve("runs.csv"), "run\n");
        FileTime then = FileTime.from(Instant.now().minus(Duration.ofDays(40)));
        for (Path p : new Path[] {old.resolve("experiment.yaml"), old.resolve("runs.csv"), old}) {
            Files.setLastModifiedTime(p, then);
        }
        String[] kept = clean("n\n", "--results-older-than", "30");
        assertEquals("0", kept[0], kept[2]);
        assertTrue(kept[1].contains("static-web-20261001-100000") && kept[1].contains("nothing removed"), kept[1]);
        assertTrue(Files.exists(old));
        String[] removed = clean("", "--results-older-than", "30", "--yes");
        assertEquals("0", removed[0], removed[2]);
        assertFalse(Files.exists(old), removed[1]);
        String[] bad = clean("", "--results-older-than", "0");
        assertEquals("2", bad[0]);
        assertTrue(bad[2].contains("--results-older-than: 0 is below 1; give an age in days, e.g. 30"), bad[2]);
    }
}
