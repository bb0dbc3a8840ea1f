package io.gpupipe.worker;

/** What drain did: jobs that finished during the grace period, and messages given back to the queue unfinished. */
public record DrainReport(int finished, int released, long tookMs) {
}
