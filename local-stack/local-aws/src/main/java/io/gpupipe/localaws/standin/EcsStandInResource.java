package io.gpupipe.localaws.standin;

import java.io.IOException;

/** Quarkus test resource: a scripted {@link EcsStandIn}; init arg {@value #ENDPOINT_PROPERTY} names the property. */
public class EcsStandInResource extends EndpointStandInResource<EcsStandIn> {
    public EcsStandInResource() {
        super(EcsStandIn.class);
    }

    @Override
    protected EcsStandIn create() throws IOException {
        return new EcsStandIn();
    }
}
