package io.gpupipe.telemetry;

import io.gpupipe.model.observability.TraceContext;
import io.opentelemetry.sdk.trace.IdGenerator;
import java.time.Clock;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Trace ids whose first 8 hex digits are the epoch second (shared-model {@link TraceContext#xrayCompatibleTraceId}),
 * so that the same id is a valid X-Ray trace id in the {@code AWSTraceHeader} the router puts on each message;
 * span ids are random as usual.
 */
public final class XrayCompatibleIdGenerator implements IdGenerator {
    private final Clock clock;

    public XrayCompatibleIdGenerator(Clock clock) {
        this.clock = clock;
    }

    @Override
    public String generateSpanId() {
        return IdGenerator.random().generateSpanId();
    }

    @Override
    public String generateTraceId() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        return TraceContext.xrayCompatibleTraceId(clock.instant().getEpochSecond(), random.nextInt(),
                random.nextLong() | 1L);
    }
}
