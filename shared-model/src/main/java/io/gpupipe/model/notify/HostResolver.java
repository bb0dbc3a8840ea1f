package io.gpupipe.model.notify;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** Resolves a host name to every address it has ({@code InetAddress::getAllByName} in production). */
@FunctionalInterface
public interface HostResolver {
    InetAddress[] resolve(String host) throws UnknownHostException;

    /** The JVM's resolver. */
    static HostResolver system() {
        return InetAddress::getAllByName;
    }
}
