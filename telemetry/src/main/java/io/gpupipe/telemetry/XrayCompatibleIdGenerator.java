package io.gpupipe.telemetry;

import io.gpupipe.model.observability.TraceContext;
import io.opentelemetry.api.trace.SpanId;
import io.opentelemetry.sdk.trace.IdGenerator;
import java.security.SecureRandom;
import java.time.Clock;

/**
 * Trace ids whose first 8 hex digits are the epoch second (shared-model {@link TraceContext#xrayCompatibleTraceId}),
 * so that the same id is a valid X-Ray trace id in the {@code AWSTraceHeader} the router puts on each message.
 * Random bits come from {@link SecureRandom}, not the SDK's default ThreadLocalRandom: SnapStart resumes many
 * execution environments from one snapshot, and a pseudo-random generator seeded before it would hand every one the
 * same "random" ids (Lambda developer guide, "Handling uniqueness with Lambda SnapStart": use a CSPRNG).
 */
public final class XrayCompatibleIdGenerator implements IdGenerator {
    private static final SecureRandom RANDOM = new SecureRandom();
    private final Clock clock;

    public XrayCompatibleIdGenerator(Clock clock) {
        this.clock = clock;
    }

    @Override
    public String generateSpanId() {
        long id;
        do {
            id = RANDOM.nextLong();
        } while (id == 0);
        return SpanId.fromLong(id);
    }

    @Override
    public String generateTraceId() {
        return TraceContext.xrayCompatibleTraceId(clock.instant().getEpochSecond(), RANDOM.nextInt(),
                RANDOM.nextLong() | 1L);
    }
}
