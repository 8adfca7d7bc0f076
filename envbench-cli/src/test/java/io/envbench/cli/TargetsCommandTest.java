package io.envbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * What the launcher sets up before a run: the images (and so the host packages) of the experiment's own targets, read
 * from the project's real experiment files; the demo's needs nginx alone.
 */
class TargetsCommandTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @TempDir
    Path dir;

    private static String[] targets(String... files) {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(e, true, StandardCharsets.UTF_8);
        CommandLine cli = new CommandLine(new TargetsCommand(new PrintStream(o, true, StandardCharsets.UTF_8), err));
        cli.setErr(new PrintWriter(err, true)); // picocli's own word on bad arguments
        int code = cli.execute(concat(files));
        return new String[] {
            Integer.toString(code), o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8)
        };
    }

    private static String[] concat(String... files) {
        String[] args = new String[files.length + 2];
        args[0] = "--root";
        args[1] = ROOT.toString();
        System.arraycopy(files, 0, args, 2, files.length);
        return args;
    }

    private static String experiment(String name) {
        return ROOT.resolve("testplans/experiments").resolve(name).toString();
    }

    @Test
    void onlyTargetsPlacedOnPodmanAreCopiedIntoPodman() {
        assertEquals(
                List.of("0", "nginx-static"),
                lines(targets("--podman", experiment("static-web-podman.yaml"))),
                "the Podman demo's");
        assertEquals(
                List.of("0"), lines(targets("--podman", experiment("static-web.yaml"))), "the demo needs no Podman");
    }

    @Test
    void eachExperimentNeedsOnlyItsOwnTargetsImages() {
        String[] demo = targets(experiment("static-web.yaml"));
        assertEquals(List.of("0", "nginx-static"), lines(demo), "the demo's: " + demo[2]);
        assertEquals(
                List.of("0", "redmine"), lines(targets(experiment("seed-001-three-tier.yaml"))), "services' image");
        assertEquals(List.of("0", "daytrader"), lines(targets(experiment("daytrader-scenario-1.yaml"))), "tenants'");
        assertEquals(
                List.of("0", "bonnie", "nginx-static"),
                lines(targets(experiment("static-web.yaml"), experiment("seed-003-bonnie.yaml"))),
                "several files: each image once");
    }

    @Test
    void aFileThatDoesNotReadIsNamedWithExitTwo() throws Exception {
        Path bad = Files.writeString(dir.resolve("bad.yaml"), "name: x\ntarget: nosuch\nenvironments: []\n");
        String[] r = targets(bad.toString());
        assertEquals("2", r[0], r[2]);
        assertTrue(r[2].startsWith("envbench targets: "), r[2]);
        assertFalse(r[2].contains("\tat "), "no stack trace: " + r[2]);
        assertEquals("", r[1], "nothing to set up printed");
    }

    private static List<String> lines(String[] r) {
        List<String> out = new ArrayList<>(List.of(r[0]));
        r[1].lines().forEach(out::add);
        return out;
    }
}
