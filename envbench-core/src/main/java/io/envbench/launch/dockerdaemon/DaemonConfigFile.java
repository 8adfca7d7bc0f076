package io.envbench.launch.dockerdaemon;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.envbench.host.hostsettings.HostSettingsJournal;

/**
 * The Docker daemon's configuration file ({@code /etc/docker/daemon.json}, or dockerd's {@code --config-file}), read
 * and changed with Jackson: a change sets only EnvBench's keys and keeps every other key, in its order. The file is
 * written through a {@link HostSettingsJournal} ({@link #write}), which writes its bytes before down first, writes the
 * new ones whole (beside, then moved over) with the file's mode, and puts the old bytes back byte for byte. Immutable.
 *
 * @param path the file; an absent file means Docker's defaults
 */
public record DaemonConfigFile(Path path) {
    /** Where dockerd reads its configuration on Linux unless told {@code --config-file}. */
    public static final Path DEFAULT = Path.of("/etc/docker/daemon.json");
    /** The key of {@link DaemonSettings#userlandProxy()}. */
    public static final String USERLAND_PROXY = "userland-proxy";
    /** The key of {@link DaemonSettings#storageDriver()}. */
    public static final String STORAGE_DRIVER = "storage-driver";

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** The file's bytes; empty when there is none. */
    public Optional<byte[]> bytes() throws IOException {
        try {
            return Optional.of(Files.readAllBytes(path));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
    }

    /**
     * The file's JSON object; an empty one when there is no file.
     *
     * @throws DaemonConfigException naming the file, where it is wrong and the fix, when it is not a JSON object
     */
    public ObjectNode json() throws IOException {
        Optional<byte[]> bytes = bytes();
        if (bytes.isEmpty() || new String(bytes.get(), StandardCharsets.UTF_8).isBlank()) {
            return JSON.createObjectNode();
        }
        JsonNode node;
        try {
            node = JSON.readTree(bytes.get());
        } catch (JsonProcessingException e) {
            String where = e.getLocation() == null
                    ? ""
                    : " at line " + e.getLocation().getLineNr() + ", column "
                            + e.getLocation().getColumnNr();
            throw new DaemonConfigException(
                    path + " is not valid JSON" + where + " (" + e.getOriginalMessage() + "); dockerd "
                            + "refuses it too: correct it (or remove it to use Docker's defaults); nothing was changed",
                    e);
        }
        if (!(node instanceof ObjectNode object)) {
            throw new DaemonConfigException(
                    path + " holds " + node.getNodeType().toString().toLowerCase(Locale.ROOT)
                            + ", not a JSON object ({\"key\": value, ...}); dockerd refuses it too: correct it (or remove it to use "
                            + "Docker's defaults); nothing was changed");
        }
        return object;
    }

    /** The value of {@code userland-proxy} in the file; empty when it does not set it. */
    public Optional<Boolean> userlandProxy() throws IOException {
        JsonNode v = json().get(USERLAND_PROXY);
        if (v == null || v.isNull()) {
            return Optional.empty();
        }
        if (!v.isBoolean()) {
            throw new DaemonConfigException(path + ": \"" + USERLAND_PROXY + "\" is " + v
                    + ", not true or false; dockerd refuses " + "it too: write true or false; nothing was changed");
        }
        return Optional.of(v.booleanValue());
    }

    /** The value of {@code storage-driver} in the file; empty when it does not set it. */
    public Optional<String> storageDriver() throws IOException {
        JsonNode v = json().get(STORAGE_DRIVER);
        if (v == null || v.isNull()) {
            return Optional.empty();
        }
        if (!v.isTextual() || v.textValue().isBlank()) {
            throw new DaemonConfigException(path + ": \"" + STORAGE_DRIVER + "\" is " + v
                    + ", not a driver's name; dockerd refuses it too: write e.g. \"overlay2\"; nothing was changed");
        }
        return Optional.of(v.textValue());
    }

    /**
     * The file's content with {@code settings} set and every other key kept (a new file when there is none); a storage
     * driver left to dockerd's choice is no key.
     */
    public byte[] contentWith(DaemonSettings settings) throws IOException {
        ObjectNode json = json();
        json.put(USERLAND_PROXY, settings.userlandProxy());
        if (settings.storageDriver().isEmpty()) {
            json.remove(STORAGE_DRIVER);
        } else {
            json.put(STORAGE_DRIVER, settings.storageDriver());
        }
        return (JSON.writeValueAsString(json) + "\n").getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Writes {@code settings} into the file through {@code journal} (its old bytes, or its absence, written down first)
     * and restarts the daemon at {@code daemonAddress} so that it reads them ({@link HostSettingsJournal#changeDaemonConfig}).
     */
    public void write(HostSettingsJournal journal, String daemonAddress, DaemonSettings settings) throws IOException {
        journal.changeDaemonConfig(daemonAddress, path, contentWith(settings));
    }
}
