package io.gpupipe.router.aws;

import java.net.URI;
import java.time.Duration;
import java.util.Optional;

/**
 * What an AWS client of the router is built from ({@link BedrockClients}, {@link LambdaTierWaker}): the router's
 * configuration groups for those clients extend it, so the clients depend on these three settings, not on the whole
 * configuration.
 */
public interface ClientSettings {
    /** Whole-call limit, also the connect and socket timeouts (one attempt: no retries). */
    Duration timeout();

    /** Endpoint override (a VPC endpoint, or a local stand-in); the service's public endpoint when absent. */
    Optional<URI> endpointOverride();

    /** Region of the client; the SDK's default region chain (AWS_REGION) when absent. */
    Optional<String> region();
}
