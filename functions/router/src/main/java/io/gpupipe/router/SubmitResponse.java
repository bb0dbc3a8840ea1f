package io.gpupipe.router;

import io.gpupipe.model.JobStatus;
import io.gpupipe.model.Tier;

/** 202 answer of {@code POST /v1/jobs}. */
public record SubmitResponse(String requestId, Tier tier, JobStatus status, String statusUrl) {
}
