package io.gpupipe.router;

import io.gpupipe.model.Tier;

/** Seed 001's answer of {@code POST /infer}: {@code {requestId, tier}}. */
public record InferResponse(String requestId, Tier tier) {
}
