package io.envbench.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.ZipFile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/**
 * The JMeter Plugins Manager descriptor (jmeter-plugin/plugins-manager/envbench.json, the repository-file format of
 * jmeter-plugins.org) is valid JSON with the fields the Plugins Manager reads, and names classes the built jar has:
 * the jar its downloadUrl points at (relative to the file, as the Plugins Manager resolves a local repository) and
 * the one in the assembled JMeter's lib/ext. No Docker needed.
 */
class PluginsManagerDescriptorTest {
    private static final Path DESCRIPTOR = Jmeter.ROOT.resolve("jmeter-plugin/plugins-manager/envbench.json");

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
        assertTrue(v.path("libs").isObject() && v.path("libs").isEmpty(), "the jar is shaded: no libraries to fetch");
        assertTrue(v.path("depends").isArray());
        Path download =
                DESCRIPTOR.getParent().resolve(v.path("downloadUrl").asText()).normalize();
        assertTrue(Files.isRegularFile(download), "downloadUrl does not resolve to the built jar: " + download);
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
