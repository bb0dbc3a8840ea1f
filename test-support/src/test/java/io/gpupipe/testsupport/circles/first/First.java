package io.gpupipe.testsupport.circles.first;

import io.gpupipe.testsupport.circles.second.Second;

/** Half of a deliberate import circle (with {@link Second}) that {@code ImportCirclesRuleTest} expects to be found. */
public final class First {
    private First() {
    }

    public static int depth(int n) {
        return n <= 0 ? 0 : 1 + Second.depth(n - 1);
    }
}
