package io.gpupipe.localaws.standin;

import java.io.IOException;

/** Quarkus test resource: an {@link AutoScalingStandIn}; init arg {@value #ENDPOINT_PROPERTY} names the property. */
public class AutoScalingStandInResource extends EndpointStandInResource<AutoScalingStandIn> {
    public AutoScalingStandInResource() {
        super(AutoScalingStandIn.class);
    }

    @Override
    protected AutoScalingStandIn create() throws IOException {
        return new AutoScalingStandIn();
    }
}
