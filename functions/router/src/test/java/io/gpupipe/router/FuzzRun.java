package io.gpupipe.router;

import io.gpupipe.router.FuzzBodies.Body;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.function.Executable;

/**
 * One fuzz run of {@link FuzzBodies}: its seed ({@code -Dfuzz.seed=N}, else a random one, printed when the run
 * starts) and its number of bodies (a count knob such as {@code -Dfuzz.bodies=N}). The same seed gives the same
 * bodies in the same order, so a failure, which names its seed, re-runs exactly.
 */
record FuzzRun(String test, long seed, int count) {
    private static final int SHOWN_CHARS = 300;

    /** The run {@code test} makes: the seed from {@code fuzz.seed}, the count from {@code countProperty}. */
    static FuzzRun fromSystemProperties(String test, String countProperty, int defaultCount) {
        long seed = Long.getLong("fuzz.seed", ThreadLocalRandom.current().nextLong());
        FuzzRun run = new FuzzRun(test, seed, Integer.getInteger(countProperty, defaultCount));
        System.out.printf("%s: seed %d, %d bodies (-Dfuzz.seed=%d -D%s=%d re-runs them)%n", test, seed, run.count,
                seed, countProperty, run.count);
        return run;
    }

    Stream<Body> bodies() {
        return new FuzzBodies(seed).bodies(count);
    }

    String name(Body body) {
        return "body " + (body.index() + 1) + " of " + count + " (" + body.kind() + ", seed " + seed + ")";
    }

    /**
     * Runs the checks of one body. A failure (an assertion, or an exception the router let out: a 5xx) names the
     * body's place, kind and seed and shows its start in printable ASCII, so that a raw lone surrogate cannot cut
     * Surefire's report short.
     */
    void check(Body body, Executable checks) {
        try {
            checks.execute();
        } catch (Throwable e) {
            StringBuilder message = new StringBuilder(test).append(": ").append(name(body))
                    .append(" failed; re-run with -Dfuzz.seed=").append(seed).append('\n').append(e);
            for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
                message.append("\ncaused by: ").append(cause);
            }
            message.append("\nbody: ").append(shown(body.text()));
            AssertionError failure = new AssertionError(printable(message.toString()));
            failure.setStackTrace(e.getStackTrace());
            throw failure;
        }
    }

    /** The first characters of {@code body}, and its length when longer. */
    static String shown(String body) {
        return body.length() <= SHOWN_CHARS ? body : body.substring(0, SHOWN_CHARS) + "... (" + body.length()
                + " chars)";
    }

    /**
     * {@code text} as in a Java string literal: every character but printable ASCII and line feeds as a {@code \\u}
     * escape, backslashes doubled (so a raw lone surrogate and a JSON escape of one stay apart).
     */
    static String printable(String text) {
        StringBuilder out = new StringBuilder(text.length());
        text.chars().forEach(c -> out.append(c == '\\' ? "\\\\" : c == '\n' || (c >= 0x20 && c < 0x7f)
                ? String.valueOf((char) c) : String.format("\\u%04x", c)));
        return out.toString();
    }
}
