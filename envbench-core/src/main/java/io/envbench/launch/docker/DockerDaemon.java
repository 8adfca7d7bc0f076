package io.envbench.launch.docker;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import io.envbench.base.settings.InvalidSettingException;
import net.jcip.annotations.Immutable;

/**
 * Which Docker daemon EnvBench uses and how it reaches it: the address ({@code unix:///var/run/docker.sock} or
 * {@code tcp://HOST:PORT}) and, for {@code tcp://}, TLS with client certificates, read as the docker CLI reads
 * {@code DOCKER_HOST}, {@code DOCKER_TLS_VERIFY} and {@code DOCKER_CERT_PATH}. A value set by the user (a
 * JMeter property, a command-line option) wins over the environment variable. Immutable.
 *
 * <p>Rules (checked by {@link #check()}, before any connection):
 * <ul>
 *   <li>TLS is for {@code tcp://} only; a unix socket ignores it, as the docker CLI does.</li>
 *   <li>With TLS the certificate folder must hold {@code ca.pem} (the CA that signed the daemon's certificate),
 *       {@code cert.pem} and {@code key.pem} (this client's certificate and key). The daemon's certificate is
 *       always verified, host name included.</li>
 *   <li>{@code tcp://} without TLS is refused unless the address is a loopback one (an SSH tunnel, a daemon on
 *       this host): unencrypted, the Docker API gives anyone on the path root on the daemon's host.</li>
 * </ul>
 *
 * @param address       the daemon's address, e.g. {@code tcp://10.0.0.5:2376}
 * @param tlsCertFolder the folder with {@code ca.pem}, {@code cert.pem}, {@code key.pem} when TLS is on; empty: no TLS
 * @param settings      the names under which this caller's user sets the daemon (a fix in a message uses them)
 * @param sources       the names each value came from: the setting, or the docker CLI variable it fell back to (a
 *                      message names the one that is wrong)
 */
@Immutable
public record DockerDaemon(String address, Optional<Path> tlsCertFolder, Settings settings, Settings sources) {
    /** The docker CLI's default address on Linux. */
    public static final String LOCAL_SOCKET = "unix:///var/run/docker.sock";

    public static final String ENV_HOST = "DOCKER_HOST";
    public static final String ENV_TLS_VERIFY = "DOCKER_TLS_VERIFY";
    public static final String ENV_CERT_PATH = "DOCKER_CERT_PATH";
    /** The files of a TLS certificate folder, as the docker CLI names them. */
    public static final List<String> TLS_FILES = List.of("ca.pem", "cert.pem", "key.pem");

    /**
     * The names under which a user sets the daemon, as the messages spell them.
     *
     * @param host      e.g. {@code envbench.docker.host}
     * @param tlsVerify e.g. {@code envbench.docker.tls.verify}
     * @param certPath  e.g. {@code envbench.docker.cert.path}
     */
    public record Settings(String host, String tlsVerify, String certPath) {
        /** The JMeter properties ({@code -J...}); the plugin reads them. */
        public static final Settings JMETER_PROPERTIES =
                new Settings("envbench.docker.host", "envbench.docker.tls.verify", "envbench.docker.cert.path");
        /** The options of {@code envbench run}. */
        public static final Settings COMMAND_LINE =
                new Settings("--docker-host", "--docker-tls-verify", "--docker-cert-path");
        /** Only the environment variables (a caller with no settings of its own: the controller, tests). */
        public static final Settings ENVIRONMENT = new Settings(ENV_HOST, ENV_TLS_VERIFY, ENV_CERT_PATH);

        /** How to turn TLS on, in this caller's words and the docker CLI's. */
        String howToEnableTls() {
            String own = tlsVerify + "=true and " + certPath + "=FOLDER";
            String env = ENV_TLS_VERIFY + "=1 and " + ENV_CERT_PATH + "=FOLDER";
            return (this.equals(ENVIRONMENT) ? env : own + " (or " + env + ")")
                    + ", FOLDER holding ca.pem, cert.pem and key.pem";
        }
    }

    public DockerDaemon {
        tlsCertFolder = tlsCertFolder == null ? Optional.empty() : tlsCertFolder;
    }

    /** A daemon given as it was resolved before (its address and TLS folder), e.g. by another process; messages name the variables. */
    public static DockerDaemon of(String address, Optional<Path> tlsCertFolder) {
        return new DockerDaemon(address, tlsCertFolder, Settings.ENVIRONMENT, Settings.ENVIRONMENT);
    }

    /** The daemon the environment variables name ({@code DOCKER_HOST}, ...), else the local socket. */
    public static DockerDaemon fromEnvironment() {
        return configured(Settings.ENVIRONMENT, "", "", "");
    }

    /**
     * A daemon from what the user set under {@code names}, each blank value falling back to its docker CLI
     * variable ({@code DOCKER_HOST}, {@code DOCKER_TLS_VERIFY}, {@code DOCKER_CERT_PATH}, whose default is
     * {@code ~/.docker}).
     *
     * @param tlsVerify {@code true}/{@code false} ({@code 1}/{@code 0}), or blank for {@code DOCKER_TLS_VERIFY}
     *                  (any value there turns TLS on, as for the docker CLI)
     * @throws InvalidSettingException naming {@code names.tlsVerify()} when it is neither true nor false
     */
    public static DockerDaemon configured(Settings names, String host, String tlsVerify, String certPath) {
        return configured(names, host, tlsVerify, certPath, System.getenv(), Path.of(System.getProperty("user.home")));
    }

    static DockerDaemon configured(
            Settings names, String host, String tlsVerify, String certPath, Map<String, String> env, Path home) {
        String hostName = names.host();
        String address = trimmed(host);
        if (address.isEmpty()) {
            address = trimmed(env.get(ENV_HOST));
            hostName = ENV_HOST;
        }
        if (address.isEmpty()) {
            address = LOCAL_SOCKET;
        }
        String tlsName = names.tlsVerify();
        boolean tls;
        String verify = trimmed(tlsVerify).toLowerCase(Locale.ROOT);
        switch (verify) {
            case "true", "1" -> tls = true;
            case "false", "0" -> tls = false;
            case "" -> {
                tls = !trimmed(env.get(ENV_TLS_VERIFY)).isEmpty();
                tlsName = ENV_TLS_VERIFY;
            }
            default ->
                throw new InvalidSettingException(
                        names.tlsVerify(),
                        "'" + tlsVerify + "' is neither true nor false; "
                                + "use true for a tcp:// daemon with TLS (client certificates), false for none");
        }
        String certName = names.certPath();
        String folder = trimmed(certPath);
        if (folder.isEmpty()) {
            folder = trimmed(env.get(ENV_CERT_PATH));
            certName = ENV_CERT_PATH;
        }
        Path certs = folder.isEmpty() ? home.resolve(".docker") : Path.of(folder);
        boolean tcp = address.startsWith("tcp://");
        return new DockerDaemon(
                address,
                tls && tcp ? Optional.of(certs.toAbsolutePath()) : Optional.empty(),
                names,
                new Settings(hostName, tlsName, certName));
    }

    /** Whether the daemon is reached through a unix socket (so it runs on this host, and its cgroups are readable here). */
    public boolean isLocalSocket() {
        return address.startsWith("unix://");
    }

    public boolean usesTls() {
        return tlsCertFolder.isPresent();
    }

    /**
     * Whether the daemon runs on this host: a unix socket, or {@code tcp://} to a loopback address. Then a port it
     * publishes is one of this host's, and can be checked free here before a start.
     */
    public boolean onThisHost() {
        return isLocalSocket() || tcpAddress().isLoopbackAddress();
    }

    /**
     * The address a container's port is published on, and where load for it goes: {@code 127.0.0.1} for the local
     * socket; for {@code tcp://HOST}, HOST's IP address as this machine resolves it (the address it reaches the
     * daemon's host at), so the port is open on that interface only, never on every interface of the daemon's host.
     */
    public String publishAddress() {
        return isLocalSocket() ? "127.0.0.1" : tcpAddress().getHostAddress();
    }

    /**
     * Checks the settings without connecting: a known scheme, a host and port for {@code tcp://}, the three TLS files,
     * and TLS (or a loopback address) for {@code tcp://}.
     *
     * @throws InvalidSettingException naming the setting and the fix
     */
    public void check() {
        if (isLocalSocket()) {
            return;
        }
        if (!address.startsWith("tcp://")) {
            throw new InvalidSettingException(
                    sources.host(),
                    "'" + address + "' is not a Docker daemon address EnvBench can use; give " + LOCAL_SOCKET
                            + " or tcp://HOST:2376 (with TLS)");
        }
        URI uri = tcpUri();
        InetAddress ip = tcpAddress();
        Optional<Path> folder = tlsCertFolder;
        if (folder.isEmpty()) {
            if (!ip.isLoopbackAddress()) {
                throw new InvalidSettingException(
                        sources.host(),
                        address + " without TLS would send the Docker API (root on "
                                + uri.getHost()
                                + ") unencrypted and unauthenticated, and EnvBench refuses that; turn TLS on: "
                                + settings.howToEnableTls());
            }
            return;
        }
        Path dir = folder.get();
        if (!Files.isDirectory(dir)) {
            throw new InvalidSettingException(
                    sources.certPath(),
                    "'" + dir + "' is not a folder; give the folder holding " + "ca.pem, cert.pem and key.pem for "
                            + address + " (the files DOCKER_CERT_PATH names for the docker CLI)");
        }
        for (String file : TLS_FILES) {
            Path f = dir.resolve(file);
            if (!Files.isRegularFile(f) || !Files.isReadable(f)) {
                throw new InvalidSettingException(
                        sources.certPath(),
                        "'" + dir + "' has no readable " + file + "; TLS to " + address
                                + " needs ca.pem (the CA that signed the daemon's certificate), cert.pem and key.pem (this client's "
                                + "certificate, signed by a CA the daemon trusts, and its key)");
            }
        }
    }

    /** What this is, for logs and messages: the address, and TLS with its folder. */
    public String describe() {
        return address
                + tlsCertFolder
                        .map(f -> " (TLS, certificates in " + f + ")")
                        .orElse(isLocalSocket() ? "" : " (no TLS)");
    }

    URI tcpUri() {
        URI uri;
        try {
            uri = URI.create(address);
        } catch (IllegalArgumentException e) {
            throw new InvalidSettingException(
                    sources.host(), "'" + address + "' is not an address; use tcp://HOST:2376");
        }
        if (uri.getHost() == null || uri.getPort() < 1) {
            throw new InvalidSettingException(
                    sources.host(), "'" + address + "' needs a host and a port; use tcp://HOST:2376");
        }
        return uri;
    }

    private InetAddress tcpAddress() {
        String host = tcpUri().getHost();
        try {
            return InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw new InvalidSettingException(
                    sources.host(),
                    "the host '" + host + "' of " + address + " is not known here; "
                            + "give its IP address or a name this machine resolves");
        }
    }

    private static String trimmed(String s) {
        return s == null ? "" : s.trim();
    }
}
