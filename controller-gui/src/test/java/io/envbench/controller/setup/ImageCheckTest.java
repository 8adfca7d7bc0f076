package io.envbench.controller.setup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code scripts/images.sh --check}'s decision, on a copy of the real script and recipes (the base and nginx-static)
 * with a stand-in for {@code docker image inspect} that answers from files (which images exist, their ids and recipe
 * labels): a missing image is built, what is built FROM a rebuilt image follows, an up-to-date image is not, and a
 * changed file, a rebuilt base or an added package is named as the reason.
 */
class ImageCheckTest {
    @TempDir
    Path dir;

    private Path root;
    private Path images;
    private ImageCheck check;

    private static final Path CHECKOUT = Path.of("..").toAbsolutePath().normalize();
    private static final String FAKE_DOCKER = """
            #!/bin/bash
            # docker, for images.sh --check: each image a file under $FAKE_IMAGES (TAG with / and : as _): .id, .label
            [ "$1" = version ] && exit "${FAKE_DOCKER_DOWN:-0}"
            [ "$1 $2" = "image inspect" ] || { echo "not for this test: docker $*" >&2; exit 2; }
            shift 2; fmt=""
            if [ "$1" = "-f" ]; then fmt=$2; shift 2; fi
            f="$FAKE_IMAGES/$(echo "$1" | tr '/:' '__')"
            [ -f "$f.id" ] || { echo "Error: No such image: $1" >&2; exit 1; }
            case "$fmt" in
              *Labels*) cat "$f.label" 2>/dev/null || echo "<no value>" ;;
              *Id*) cat "$f.id" ;;
              *) echo "[{}]" ;;
            esac
            """;

    @BeforeEach
    void fixture() throws Exception {
        root = dir.resolve("envbench");
        Files.createDirectories(root.resolve("scripts"));
        Files.copy(CHECKOUT.resolve("scripts/images.sh"), root.resolve("scripts/images.sh"));
        Files.createDirectories(root.resolve("targets/base"));
        Files.copy(CHECKOUT.resolve("targets/base/packages.txt"), root.resolve("targets/base/packages.txt"));
        Path nginx = CHECKOUT.resolve("targets/nginx-static");
        try (Stream<Path> files = Files.walk(nginx)) {
            for (Path f : files.toList()) {
                Path to = root.resolve("targets/nginx-static")
                        .resolve(nginx.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(f, to);
                }
            }
        }
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Files.writeString(bin.resolve("docker"), FAKE_DOCKER);
        Files.setPosixFilePermissions(bin.resolve("docker"), PosixFilePermissions.fromString("rwxr-xr-x"));
        images = Files.createDirectories(dir.resolve("images"));
        check = new ImageCheck(
                root,
                Map.of(
                        "PATH", bin + ":" + System.getenv("PATH"),
                        "FAKE_IMAGES", images.toString(),
                        "ENVBENCH_CACHE", dir.resolve("cache").toString()));
    }

    @Test
    void aRebuildIsNeededOnlyWhenItsRecipeChangedAndSaysWhat() throws Exception {
        List<ImageCheck.Rebuild> first = needed();
        assertEquals(List.of("envbench/base:latest", "envbench/nginx-static:latest"), images(first), first.toString());
        assertEquals("no image yet", first.get(0).why());
        assertEquals("envbench/base:latest is rebuilt first", first.get(1).why());
        assertTrue(first.get(0).estimate().startsWith("about "), first.get(0).estimate());

        image("envbench/base:latest", "sha256:base-1", first.get(0).recipeHash());
        List<ImageCheck.Rebuild> second = needed();
        assertEquals(List.of("envbench/nginx-static:latest"), images(second), second.toString());
        image("envbench/nginx-static:latest", "sha256:nginx-1", second.get(0).recipeHash());
        assertEquals(List.of(), needed(), "both built from their recipes as they are: nothing to rebuild");

        // a file of the target's recipe
        Path conf = root.resolve("targets/nginx-static/nginx.conf.template");
        String before = Files.readString(conf);
        Files.writeString(conf, before + "# changed\n");
        List<ImageCheck.Rebuild> edited = needed();
        assertEquals(List.of("envbench/nginx-static:latest"), images(edited));
        assertEquals(
                "its recipe changed: targets/nginx-static/nginx.conf.template changed",
                edited.get(0).why());
        Files.writeString(conf, before);
        assertEquals(List.of(), needed(), "the file as it was: up to date again");

        // the image it is built FROM, rebuilt
        image("envbench/base:latest", "sha256:base-2", first.get(0).recipeHash());
        assertEquals(
                "its recipe changed: envbench/base:latest rebuilt",
                needed().get(0).why());
        image("envbench/base:latest", "sha256:base-1", first.get(0).recipeHash());

        // a package added to the base's list: the base, and what is built FROM it
        Files.writeString(
                root.resolve("targets/base/packages.txt"),
                "envbench-test-package\n",
                java.nio.file.StandardOpenOption.APPEND);
        List<ImageCheck.Rebuild> added = needed();
        assertEquals(List.of("envbench/base:latest", "envbench/nginx-static:latest"), images(added));
        assertTrue(
                added.get(0).why().contains("package envbench-test-package added"),
                added.get(0).why());
    }

    @Test
    void dockerNotAnsweringTellsNothing() throws Exception {
        ImageCheck down = new ImageCheck(
                root,
                Map.of(
                        "PATH",
                        dir.resolve("bin") + ":" + System.getenv("PATH"),
                        "FAKE_IMAGES",
                        images.toString(),
                        "FAKE_DOCKER_DOWN",
                        "1",
                        "ENVBENCH_CACHE",
                        dir.resolve("cache").toString()));
        assertEquals(Optional.empty(), down.needed(Set.of("nginx-static")), "not every image reported missing");
    }

    private List<ImageCheck.Rebuild> needed() throws Exception {
        return check.needed(Set.of("nginx-static")).orElseThrow();
    }

    private static List<String> images(List<ImageCheck.Rebuild> r) {
        return r.stream().map(ImageCheck.Rebuild::image).toList();
    }

    private void image(String tag, String id, String label) throws Exception {
        String f = tag.replace('/', '_').replace(':', '_');
        Files.writeString(images.resolve(f + ".id"), id + "\n");
        Files.writeString(images.resolve(f + ".label"), label + "\n");
    }
}
