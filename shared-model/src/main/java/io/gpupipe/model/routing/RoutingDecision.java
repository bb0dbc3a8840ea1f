package io.gpupipe.model.routing;

import io.gpupipe.model.Tier;

/** The tier a job goes to, and which row of the routing table decided it. */
public record RoutingDecision(Tier tier, Reason reason) {
    /** The rows of the routing table, in the order they are checked. */
    public enum Reason {
        EXPLICIT_ROUTE,
        /** A non-text task without a route: the catalogue's tier for that task. */
        TASK_DEFAULT,
        PROMPT_LENGTH,
        MAX_TOKENS,
        CLASSIFIER,
        DEFAULT
    }
}
