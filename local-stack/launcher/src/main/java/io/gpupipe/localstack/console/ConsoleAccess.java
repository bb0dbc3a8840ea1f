package io.gpupipe.localstack.console;

import io.gpupipe.localstack.apigateway.LocalCallers;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.owner.OwnerIds;
import java.net.InetAddress;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Who may use the console, checked before anything is served:
 * <ul>
 * <li>a connection from this machine only (the API listens on loopback; this holds even if it listened wider);</li>
 * <li>a {@code Host} header naming this machine and the API's port ({@code localhost}, {@code 127.0.0.1},
 * {@code [::1]}): a page of another site that rebinds its own name to 127.0.0.1 sends its own name, so it is
 * refused, although its requests come from this machine and pass an {@code Origin == Host} check;</li>
 * <li>with {@code --require-token}, a valid bearer token of the local identity provider on every console call,
 * and the console shows that caller's jobs, dead letters and usage only, as the API does. Without the flag the
 * console is the operator's view of every caller, as before.</li>
 * </ul>
 */
final class ConsoleAccess {
    private static final Set<String> LOCAL_HOSTS = Set.of("localhost", "127.0.0.1", "[::1]");
    private static final int DEFAULT_HTTP_PORT = 80;

    private final int port;
    private final LocalCallers callers;
    private final OwnerIds ownerIds;

    /** {@code port}: the API's, which the console shares. */
    ConsoleAccess(int port, LocalCallers callers, OwnerIds ownerIds) {
        this.port = port;
        this.callers = callers;
        this.ownerIds = ownerIds;
    }

    /** What may be seen through one request. */
    sealed interface Verdict {
        /** Every caller's jobs: no token is required. */
        record Everyone() implements Verdict {
        }

        /** One caller's jobs only. */
        record Caller(Owner owner) implements Verdict {
        }

        /** Nothing: answered {@code status} with an error naming {@code field}. */
        record Refused(int status, String field, String message) implements Verdict {
        }
    }

    /**
     * The verdict for a request from {@code remote} with these headers (null: absent); {@code apiCall}: a JSON call
     * under {@code /console/api/} (the page's own files hold no caller's data and need no token).
     */
    Verdict check(InetAddress remote, String host, String authorization, boolean apiCall) {
        if (remote == null || !remote.isLoopbackAddress()) {
            return new Verdict.Refused(403, "remoteAddress", "the console answers this machine only");
        }
        if (!isLocal(host)) {
            return new Verdict.Refused(421, "Host", "the console answers only as localhost:" + port + ", 127.0.0.1:"
                    + port + " or [::1]:" + port + ", not as " + (host == null ? "no Host" : "'" + host + "'"));
        }
        if (!apiCall || !callers.required()) {
            return new Verdict.Everyone();
        }
        if (callers.decide(authorization) instanceof LocalCallers.Decision.Caller caller) {
            CallerIdentity identity = LocalCallers.identity(caller.claims());
            if (identity != null) {
                return new Verdict.Caller(ownerIds.of(identity));
            }
        }
        return new Verdict.Refused(401, "Authorization", authorization == null || authorization.isBlank()
                ? "the stack runs with --require-token: send Authorization: Bearer $TOKEN_A (or $TOKEN_B)"
                : "the token is not valid here: send one the launcher printed at this start");
    }

    /** The caller a verdict limits the view to; empty: everyone. */
    static Optional<Owner> scope(Verdict verdict) {
        return verdict instanceof Verdict.Caller caller ? Optional.of(caller.owner()) : Optional.empty();
    }

    private boolean isLocal(String host) {
        if (host == null) {
            return false;
        }
        String name = host.toLowerCase(Locale.ROOT);
        int colon = name.lastIndexOf(':');
        if (colon > name.lastIndexOf(']')) {
            return LOCAL_HOSTS.contains(name.substring(0, colon)) && name.substring(colon + 1).equals(
                    Integer.toString(port));
        }
        // a browser leaves out the scheme's default port
        return port == DEFAULT_HTTP_PORT && LOCAL_HOSTS.contains(name);
    }
}
