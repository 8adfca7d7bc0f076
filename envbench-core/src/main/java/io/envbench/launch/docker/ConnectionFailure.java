package io.envbench.launch.docker;

import java.net.ConnectException;
import java.net.SocketException;
import java.security.cert.CertPathBuilderException;
import java.security.cert.CertPathValidatorException;
import java.util.Locale;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLPeerUnverifiedException;

/**
 * Why a connection to a Docker daemon failed, in the user's words: which side lacks TLS, whose certificate is not
 * trusted, which setting to change. Pure logic over the exception chain.
 */
final class ConnectionFailure {
    private ConnectionFailure() {}

    static String explain(DockerDaemon daemon, Throwable failure) {
        DockerDaemon.Settings s = daemon.sources();
        String at = "Docker daemon at " + daemon.address();
        String folder = daemon.tlsCertFolder().map(Object::toString).orElse("");
        String all = chainText(failure).toLowerCase(Locale.ROOT);
        if (all.contains("client sent an http request to an https server")) {
            return at + " speaks TLS and EnvBench connected without it; turn TLS on: "
                    + daemon.settings().howToEnableTls();
        }
        if (daemon.usesTls()) {
            if (has(failure, SSLPeerUnverifiedException.class)
                    || all.contains("doesn't match any of the subject alternative names")) {
                return at + ": its certificate is not issued for "
                        + daemon.tcpUri().getHost() + " (" + DockerConnection.rootCause(failure)
                        + "); connect with a name or address in the certificate's subject alternative names, or give the daemon "
                        + "a certificate that has this one (" + s.host() + ")";
            }
            if (has(failure, CertPathBuilderException.class)
                    || has(failure, CertPathValidatorException.class)
                    || all.contains("pkix path")
                    || all.contains("unable to find valid certification path")) {
                return at + ": its certificate is not signed by the CA in " + folder
                        + "/ca.pem; put the CA that signed the "
                        + "daemon's certificate (dockerd --tlscacert) there as ca.pem (" + s.certPath() + ")";
            }
            if (all.contains("bad_certificate")
                    || all.contains("unknown_ca")
                    || all.contains("certificate_required")
                    || all.contains("certificate_unknown")
                    || all.contains("access_denied")) {
                return at + " refused this client's certificate " + folder + "/cert.pem ("
                        + DockerConnection.rootCause(failure)
                        + "); give a cert.pem and key.pem signed by the CA the daemon trusts (dockerd --tlscacert) in "
                        + s.certPath();
            }
            if (has(failure, SocketException.class)
                    && !has(failure, ConnectException.class)
                    && (all.contains("broken pipe") || all.contains("connection reset"))) {
                // the daemon checks the client's certificate while the client still writes its part of the handshake:
                // its bad_certificate alert is then lost, and the client sees the connection closed
                return at + " closed the TLS connection (" + DockerConnection.rootCause(failure)
                        + "), as it does when it "
                        + "refused this client's certificate " + folder
                        + "/cert.pem; give a cert.pem and key.pem signed by the "
                        + "CA the daemon trusts (dockerd --tlscacert) in " + s.certPath();
            }
            if (all.contains("unsupported or unrecognized ssl message") || all.contains("plaintext connection")) {
                return at + " does not speak TLS on that port (" + DockerConnection.rootCause(failure)
                        + "); give the daemon's TLS " + "port (2376, dockerd --tlsverify) in " + s.host();
            }
            if (has(failure, SSLException.class)) {
                return at + ": TLS failed (" + DockerConnection.rootCause(failure) + "); check " + s.certPath() + " ("
                        + folder + ": ca.pem, cert.pem, key.pem) and that the daemon runs with --tlsverify";
            }
        }
        return "Docker daemon not reachable at " + daemon.address() + " (" + DockerConnection.rootCause(failure)
                + "); start it with './envbench setup' (or dockerd), " + "or set " + s.host()
                + (daemon.isLocalSocket() ? "" : " to a daemon that runs");
    }

    /** The TLS files are there but docker-java cannot make a TLS context of them (not PEM, a key that does not fit). */
    static String unreadableCertificates(DockerDaemon daemon, Throwable failure) {
        return "Docker daemon at " + daemon.address() + ": the certificates in "
                + daemon.tlsCertFolder().map(Object::toString).orElse("")
                + " cannot be used (" + DockerConnection.rootCause(failure)
                + "); give PEM files ca.pem, cert.pem and key.pem, "
                + "as 'docker --tlsverify' reads them, in " + daemon.sources().certPath();
    }

    private static boolean has(Throwable t, Class<? extends Throwable> type) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (type.isInstance(c)) {
                return true;
            }
        }
        return false;
    }

    private static String chainText(Throwable t) {
        StringBuilder b = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            b.append(c.getClass().getName()).append(": ").append(c.getMessage()).append('\n');
        }
        return b.toString();
    }
}
