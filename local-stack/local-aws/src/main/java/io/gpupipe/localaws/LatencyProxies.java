package io.gpupipe.localaws;

import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/** The {@link LatencyProxy} in front of each emulator whose service has added latency (none for the others). */
final class LatencyProxies implements AutoCloseable {
    private final List<LatencyProxy> proxies;

    private LatencyProxies(List<LatencyProxy> proxies) {
        this.proxies = List.copyOf(proxies);
    }

    /**
     * Starts a proxy on {@code host} at each proxied service's client port, forwarding to its emulator port; if one
     * cannot listen, those already started are closed.
     */
    static LatencyProxies start(String host, List<ServicePorts> services) {
        List<LatencyProxy> started = new ArrayList<>();
        try {
            for (ServicePorts ports : services) {
                if (ports.proxied()) {
                    started.add(LatencyProxy.start(ports.service(), host, ports.clientPort(),
                            new InetSocketAddress(host, ports.emulatorPort()), ports.latency()));
                }
            }
        } catch (UncheckedIOException e) {
            started.forEach(LatencyProxy::close);
            throw e;
        }
        return new LatencyProxies(started);
    }

    @Override
    public void close() {
        proxies.forEach(LatencyProxy::close);
    }
}
