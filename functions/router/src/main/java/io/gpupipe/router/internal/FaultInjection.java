package io.gpupipe.router.internal;

import io.gpupipe.router.exception.InjectedFaultException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;

/**
 * FAULT-INJECTION HOOK for the chaos soak, off unless configured ({@code gpupipe.router.fault.die-after-marker-ratio},
 * env {@code GPUPIPE_ROUTER_FAULT_DIE_AFTER_MARKER_RATIO}): after a marker write and before the SQS send, with that
 * probability the invocation fails as if the Lambda had died there (an unmapped exception: the client sees a 500
 * and retries the same requestId).
 */
public final class FaultInjection {
    private final double dieAfterMarkerRatio;
    private final DoubleSupplier random;

    public FaultInjection(double dieAfterMarkerRatio, DoubleSupplier random) {
        if (!(dieAfterMarkerRatio >= 0.0 && dieAfterMarkerRatio <= 1.0)) {
            throw new IllegalArgumentException("gpupipe.router.fault.die-after-marker-ratio must be within 0..1, got "
                    + dieAfterMarkerRatio);
        }
        this.dieAfterMarkerRatio = dieAfterMarkerRatio;
        this.random = random;
    }

    /** No faults: what production runs. */
    public static FaultInjection none() {
        return new FaultInjection(0.0, () -> 1.0);
    }

    /** Faults at {@code ratio}, drawn from a thread-local random source. */
    public static FaultInjection dieAfterMarker(double ratio) {
        return new FaultInjection(ratio, () -> ThreadLocalRandom.current().nextDouble());
    }

    /** Called once the marker is written, right before the send. */
    public void afterMarkerWritten(String requestId) {
        if (dieAfterMarkerRatio > 0.0 && random.getAsDouble() < dieAfterMarkerRatio) {
            throw new InjectedFaultException("injected fault: invocation dies after writing the marker of "
                    + requestId + " and before enqueueing it (gpupipe.router.fault.die-after-marker-ratio="
                    + dieAfterMarkerRatio + ")");
        }
    }
}
