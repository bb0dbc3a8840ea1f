package io.gpupipe.localaws.standin;

import java.net.URI;

/** A running AWS control-plane stand-in: a loopback HTTP server an SDK client points its endpoint override at. */
public interface StandIn extends AutoCloseable {
    URI endpoint();

    @Override
    void close();
}
