package io.envbench.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/**
 * The JMeter Plugins Manager descriptor (jmeter-plugin/plugins-manager/envbench.json, the repository-file format of
 * jmeter-plugins.org) is valid JSON with the fields the Plugins Manager reads, its downloads are this version's jars on
 * Maven Central, and it names classes the built jars have: the release's (jmeter-plugin/target/release, whose local
 * repository file points at the files beside it, and whose zip is laid out as JMeter's lib/) and the one in the
 * assembled JMeter's lib/ext. No Docker needed.
 */
@BesideOthers("reads the plugin jar's descriptor only")
class PluginsManagerDescriptorTest {
    private static final Path DESCRIPTOR = Jmeter.ROOT.resolve("jmeter-plugin/plugins-manager/envbench.json");
    private static final Path RELEASE = Jmeter.ROOT.resolve("jmeter-plugin/target/release");
    private static final String CENTRAL = "https://repo1.maven.org/maven2/";

    @Test
    void theDescriptorNamesClassesOfTheBuiltJar() throws Exception {
        JsonNode repo = new ObjectMapper().readTree(DESCRIPTOR.toFile());
        assertTrue(repo.isArray() && repo.size() == 1, "a repository file is an array of plugin entries");
        JsonNode plugin = repo.get(0);
        for (String field : List.of("id", "name", "description", "screenshotUrl", "helpUrl", "vendor", "markerClass")) {
            assertTrue(
                    plugin.path(field).isTextual()
                            && !plugin.path(field).asText().isBlank(),
                    "missing " + field);
        }
        List<String> classes = new ArrayList<>();
        plugin.path("componentClasses").forEach(c -> classes.add(c.asText()));
        assertTrue(classes.size() >= 8, classes.toString());
        assertTrue(classes.contains(plugin.get("markerClass").asText()), "the marker is a component");

        String projectVersion = System.getProperty("envbench.version", "");
        assertFalse(projectVersion.isBlank(), "surefire passes envbench.version");
        JsonNode versions = plugin.path("versions");
        assertEquals(1, versions.size());
        String version = versions.fieldNames().next();
        assertEquals(projectVersion.replace("-SNAPSHOT", ""), version, "the descriptor's version is the build's");
        JsonNode v = versions.get(version);
        assertEquals(
                CENTRAL + "io/envbench/envbench-jmeter-plugin/" + version + "/envbench-jmeter-plugin-" + version
                        + ".jar",
                v.path("downloadUrl").asText(),
                "a release downloads the jar Maven Central has of this version");
        assertTrue(v.path("depends").isArray());
        // the libraries: the BouncyCastle jars the assembled JMeter puts in lib/ (not shaded: signed), as on Central
        List<String> libs = new ArrayList<>();
        v.path("libs").fields().forEachRemaining(e -> {
            String jar = e.getValue().asText().substring(e.getValue().asText().lastIndexOf('/') + 1);
            assertTrue(jar.startsWith(e.getKey() + "-"), e.getKey() + " names its jar: " + jar);
            assertTrue(
                    e.getValue().asText().startsWith(CENTRAL + "org/bouncycastle/" + e.getKey() + "/"),
                    e.getValue().asText());
            libs.add(jar);
        });
        try (Stream<Path> lib = Files.list(Jmeter.HOME.resolve("lib"))) {
            assertEquals(
                    lib.map(p -> p.getFileName().toString())
                            .filter(n -> n.startsWith("bc"))
                            .sorted()
                            .toList(),
                    libs.stream().sorted().toList());
        }

        // the release ./envbench package writes: the repository file's downloads are the files beside it
        JsonNode local = new ObjectMapper()
                .readTree(RELEASE.resolve("envbench-repo.json").toFile());
        JsonNode localVersion = local.get(0).path("versions").path(version);
        Path download = RELEASE.resolve(localVersion.path("downloadUrl").asText());
        assertEquals(
                "envbench-jmeter-plugin-" + version + ".jar",
                download.getFileName().toString());
        localVersion.path("libs").forEach(l -> assertTrue(Files.isRegularFile(RELEASE.resolve(l.asText())), l + ""));
        assertEquals(libs.size(), localVersion.path("libs").size());
        try (ZipFile zip = new ZipFile(
                RELEASE.resolve("envbench-jmeter-plugin-" + version + ".zip").toFile())) {
            List<String> expected = new ArrayList<>(List.of("lib/ext/" + download.getFileName()));
            libs.forEach(l -> expected.add("lib/" + l));
            assertEquals(
                    expected.stream().sorted().toList(),
                    zip.stream()
                            .filter(e -> !e.isDirectory())
                            .map(ZipEntry::getName)
                            .sorted()
                            .toList(),
                    "the zip is laid out as JMeter's lib/ and lib/ext");
        }
        for (String relative : List.of("screenshotUrl", "helpUrl")) {
            Path p = DESCRIPTOR
                    .getParent()
                    .resolve(plugin.get(relative).asText())
                    .normalize();
            assertTrue(Files.isRegularFile(p), relative + " points at nothing: " + p);
        }
        for (Path jar : List.of(download, Jmeter.HOME.resolve("lib/ext/envbench-jmeter-plugin.jar"))) {
            try (ZipFile z = new ZipFile(jar.toFile())) {
                for (String c : classes) {
                    assertNotNull(z.getEntry(c.replace('.', '/') + ".class"), c + " is not in " + jar);
                }
            }
        }
    }
}
