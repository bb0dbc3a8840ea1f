package io.gpupipe.jobs;

import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.routing.RoutingDecision;

/** A valid job and the tier routing chose for it: what {@link JobSubmitter} submits. */
public record RoutedJob(InferenceJob job, RoutingDecision decision) {
}
