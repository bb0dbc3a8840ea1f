package io.gpupipe.localaws.standin;

import java.io.IOException;

/** Quarkus test resource: a {@link CloudWatchStandIn}; init arg {@value #ENDPOINT_PROPERTY} names the property. */
public class CloudWatchStandInResource extends EndpointStandInResource<CloudWatchStandIn> {
    public CloudWatchStandInResource() {
        super(CloudWatchStandIn.class);
    }

    @Override
    protected CloudWatchStandIn create() throws IOException {
        return new CloudWatchStandIn();
    }
}
