package io.gpupipe.model.routing;

/**
 * The numbers of seed 001's routing table. A prompt longer than {@code largePromptChars} or a maxTokens above
 * {@code largeMaxTokens} goes large; a prompt longer than {@code ambiguousPromptChars} (and not large) is ambiguous.
 */
public record RoutingThresholds(int largePromptChars, int largeMaxTokens, int ambiguousPromptChars) {
    public static final RoutingThresholds DEFAULTS = new RoutingThresholds(2000, 1024, 500);

    public RoutingThresholds {
        if (ambiguousPromptChars < 0 || largePromptChars < ambiguousPromptChars || largeMaxTokens < 1) {
            throw new IllegalArgumentException("need 0 <= ambiguousPromptChars <= largePromptChars and "
                    + "largeMaxTokens >= 1, got " + ambiguousPromptChars + "/" + largePromptChars + "/"
                    + largeMaxTokens);
        }
    }
}
