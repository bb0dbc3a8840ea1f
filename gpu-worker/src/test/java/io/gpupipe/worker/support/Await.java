package io.gpupipe.worker.support;

import java.time.Duration;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Polling waits for asynchronous outcomes in tests. */
public final class Await {
    private Await() {
    }

    public static <T> T until(Supplier<Optional<T>> probe, Duration timeout, String what) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Optional<T> value = probe.get();
            if (value.isPresent()) {
                return value.get();
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout.toMillis() + " ms waiting for " + what);
            }
            sleep(50);
        }
    }

    public static void until(BooleanSupplier condition, Duration timeout, String what) {
        until(() -> condition.getAsBoolean() ? Optional.of(Boolean.TRUE) : Optional.empty(), timeout, what);
    }

    public static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
