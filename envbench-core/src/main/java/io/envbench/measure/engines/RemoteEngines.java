package io.envbench.measure.engines;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import io.envbench.base.settings.InvalidSettingException;
import net.jcip.annotations.Immutable;

/**
 * The JMeter engines an experiment's load runs on, and the RMI keystore they share with the controlling JMeter.
 * Empty: the load runs in one local JMeter, as without engines. JMeter's RMI runs over SSL (as JMeter recommends and
 * does by default), so engines need a keystore: the one every engine was started with ({@code keytool -genkeypair
 * -alias rmi ...}, as JMeter's {@code create-rmi-keystore.sh}). Immutable.
 *
 * @param engines     in the order given; each at most once
 * @param rmiKeystore absolute; present exactly when there are engines
 */
@Immutable
public record RemoteEngines(List<RemoteEngine> engines, Optional<Path> rmiKeystore) {
    /** No engines: the load runs in the runner's own JMeter child process. */
    public static final RemoteEngines NONE = new RemoteEngines(List.of(), Optional.empty());
    /** Where the keystore's password comes from: never a file, so it stays out of {@code experiment.yaml}. */
    public static final String PASSWORD_VARIABLE = "ENVBENCH_RMI_KEYSTORE_PASSWORD";
    /** JMeter's default keystore password ({@code server.rmi.ssl.keystore.password}). */
    public static final String DEFAULT_PASSWORD = "changeit";
    /** JMeter's default key alias ({@code server.rmi.ssl.keystore.alias}). */
    public static final String KEY_ALIAS = "rmi";

    public RemoteEngines {
        engines = List.copyOf(Objects.requireNonNull(engines, "engines"));
        Objects.requireNonNull(rmiKeystore, "rmiKeystore");
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < engines.size(); i++) {
            if (!seen.add(engines.get(i).toString())) {
                throw new InvalidSettingException(
                        "engines[" + i + "]", "'" + engines.get(i) + "' is listed twice; name each engine once");
            }
        }
        if (!engines.isEmpty() && rmiKeystore.isEmpty()) {
            throw new InvalidSettingException(
                    "rmiKeystore",
                    "is missing; JMeter's engines talk RMI over SSL: give the keystore the "
                            + "engines were started with (server.rmi.ssl.keystore.file), e.g. rmi_keystore.jks made with 'keytool -genkeypair "
                            + "-alias rmi -keyalg RSA -keysize 2048 -validity 7 -keystore rmi_keystore.jks -storepass changeit'");
        }
        if (engines.isEmpty() && rmiKeystore.isPresent()) {
            throw new InvalidSettingException(
                    "rmiKeystore", "only applies with engines:; remove it, or list the engines");
        }
        if (rmiKeystore.isPresent() && !rmiKeystore.get().isAbsolute()) {
            throw new InvalidSettingException(
                    "rmiKeystore", "'" + rmiKeystore.get() + "' must be resolved to an absolute path");
        }
    }

    public static RemoteEngines of(List<RemoteEngine> engines, Path rmiKeystore) {
        return new RemoteEngines(engines, Optional.of(rmiKeystore));
    }

    public boolean none() {
        return engines.isEmpty();
    }

    /** {@code -R}'s value: {@code 127.0.0.1:1099,127.0.0.1:1100}. */
    public String remoteHosts() {
        return engines.stream().map(RemoteEngine::toString).collect(Collectors.joining(","));
    }

    /** Whether every engine is on this machine's loopback: then the controlling JMeter's RMI callbacks stay there too. */
    public boolean allLoopback() {
        return engines.stream().allMatch(RemoteEngine::loopback);
    }

    /**
     * The controlling JMeter's RMI-over-SSL properties ({@code -J}): the keystore as key store and trust store (the
     * engines and the controller trust each other through the one key), JMeter's alias {@code rmi}.
     *
     * @param password the keystore's password ({@link #password(Map)})
     */
    public Map<String, String> rmiProperties(String password) {
        Map<String, String> p = new LinkedHashMap<>();
        String file = rmiKeystore.orElseThrow().toString();
        p.put("server.rmi.ssl.disable", "false");
        p.put("server.rmi.ssl.keystore.file", file);
        p.put("server.rmi.ssl.keystore.password", password);
        p.put("server.rmi.ssl.keystore.alias", KEY_ALIAS);
        p.put("server.rmi.ssl.truststore.file", file);
        p.put("server.rmi.ssl.truststore.password", password);
        return p;
    }

    /** The keystore's password: {@value #PASSWORD_VARIABLE} from the environment, else JMeter's default {@value #DEFAULT_PASSWORD}. */
    public static String password(Map<String, String> environment) {
        String p = environment.get(PASSWORD_VARIABLE);
        return p == null || p.isEmpty() ? DEFAULT_PASSWORD : p;
    }
}
