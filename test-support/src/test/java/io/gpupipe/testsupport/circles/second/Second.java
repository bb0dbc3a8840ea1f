package io.gpupipe.testsupport.circles.second;

import io.gpupipe.testsupport.circles.first.First;

/** The other half of the deliberate import circle with {@link First}. */
public final class Second {
    private Second() {
    }

    public static int depth(int n) {
        return n <= 0 ? 0 : 1 + First.depth(n - 1);
    }
}
