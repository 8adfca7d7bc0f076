package io.envbench.launch.dockerdaemon;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.NotFoundException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries an experiment's images into the other storage drivers its environments ask for. Each driver keeps its own
 * image store, so after dockerd restarts with another driver the images built here are not there, and none is ever
 * pulled. Each image is saved once from the daemon's own driver ({@link #save}, before the first restart), loaded into
 * a driver when it lacks it ({@link #ensure}), and removed again from every driver it was loaded into before the
 * daemon's settings are put back ({@link #removeLoaded}): another driver's store is left as it was found. Not
 * thread-safe: one runner uses it.
 */
public final class StorageDriverImages implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(StorageDriverImages.class);

    private final List<String> images;
    private final Path folder;
    private final Map<String, Set<String>> loaded = new LinkedHashMap<>();
    private boolean saved;

    /**
     * @param images the images the environments on another driver start, e.g. {@code envbench/bonnie:latest}
     * @param folder where the saved images wait (made on {@link #save}, removed on {@link #close})
     */
    public StorageDriverImages(List<String> images, Path folder) {
        this.images = List.copyOf(new LinkedHashSet<>(images));
        this.folder = folder;
    }

    public List<String> images() {
        return images;
    }

    /** Whether {@link #save} ran. */
    public boolean saved() {
        return saved;
    }

    /**
     * Saves every image from the daemon as it runs now (its own driver); once.
     *
     * @throws IOException naming the image and the fix, when the daemon lacks one or the save fails
     */
    public void save(DockerClient docker) throws IOException {
        if (saved) {
            return;
        }
        Files.createDirectories(folder);
        for (String image : images) {
            try {
                docker.inspectImageCmd(image).exec();
            } catch (NotFoundException e) {
                throw new IOException("'" + image + "' is not an image of this daemon, so it cannot be carried into"
                        + " another storage driver: run ./envbench setup first; nothing was changed");
            }
            long t0 = System.nanoTime();
            try (InputStream in = docker.saveImageCmd(image).exec()) {
                Files.copy(in, tar(image), StandardCopyOption.REPLACE_EXISTING);
            }
            log.info(
                    "saved {} for another storage driver ({} MB, {} ms)",
                    image,
                    Files.size(tar(image)) >> 20,
                    (System.nanoTime() - t0) / 1_000_000);
        }
        saved = true;
    }

    /**
     * Loads into the daemon (now running {@code driver}) every image it lacks; returns those loaded.
     *
     * @throws IOException when {@link #save} did not run, or a load fails
     */
    public List<String> ensure(DockerClient docker, String driver) throws IOException {
        if (!saved) {
            throw new IllegalStateException("images are saved before the daemon leaves its own storage driver");
        }
        List<String> now = new ArrayList<>();
        for (String image : images) {
            try {
                docker.inspectImageCmd(image).exec();
                continue;
            } catch (NotFoundException e) {
                // not in this driver's store yet: loaded below
            }
            try (InputStream in = Files.newInputStream(tar(image))) {
                docker.loadImageCmd(in).exec();
            }
            loaded.computeIfAbsent(driver, d -> new LinkedHashSet<>()).add(image);
            now.add(image);
        }
        return now;
    }

    /** The drivers images were loaded into, in order. */
    public List<String> driversLoaded() {
        return loaded.entrySet().stream()
                .filter(e -> !e.getValue().isEmpty())
                .map(Map.Entry::getKey)
                .toList();
    }

    /**
     * Removes from the daemon (now running {@code driver}) the images loaded into that driver; returns what happened to
     * each ("removed IMAGE", or why it stays), for the run's log.
     */
    public List<String> removeLoaded(DockerClient docker, String driver) {
        List<String> said = new ArrayList<>();
        for (String image : loaded.getOrDefault(driver, Set.of())) {
            try {
                docker.removeImageCmd(image).withForce(false).exec();
                said.add("removed " + image);
            } catch (NotFoundException e) {
                said.add("removed " + image + " (gone already)");
            } catch (RuntimeException e) {
                said.add(image + " stays in storage driver " + driver + ": " + e.getMessage()
                        + " (run the daemon with that driver and remove it, or ./envbench clean --images there)");
                log.warn("could not remove {} from storage driver {}: {}", image, driver, e.getMessage());
            }
        }
        loaded.remove(driver);
        return said;
    }

    /** Deletes the saved images. */
    @Override
    public void close() {
        if (!Files.isDirectory(folder)) {
            return;
        }
        try (Stream<Path> files = Files.walk(folder)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            log.warn("could not delete the saved images in {}: {}", folder, e.getMessage());
        }
    }

    private Path tar(String image) {
        return folder.resolve(image.replaceAll("[^A-Za-z0-9._-]", "_") + ".tar");
    }
}
