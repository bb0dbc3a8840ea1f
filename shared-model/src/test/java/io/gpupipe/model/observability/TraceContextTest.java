package io.gpupipe.model.observability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class TraceContextTest {
    // the W3C Trace Context spec's own example (section 3.2.2.1 / 3.2.2.2)
    private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String SPAN = "00f067aa0ba902b7";
    private static final String W3C = "00-" + TRACE + "-" + SPAN + "-01";

    @Test
    void fromTraceparent_shouldReadIdsAndSampledFlag_whenWellFormed() {
        assertThat(TraceContext.fromTraceparent(W3C)).contains(new TraceContext(TRACE, SPAN, true));
        assertThat(TraceContext.fromTraceparent("00-" + TRACE + "-" + SPAN + "-00").orElseThrow().sampled())
                .isFalse();
    }

    @Test
    void fromTraceparent_shouldBeEmpty_whenMalformed() {
        for (String bad : new String[] {null, "", "garbage", "00-" + TRACE + "-" + SPAN, // no flags
            "00-" + TRACE.toUpperCase() + "-" + SPAN + "-01", // upper case
            "00-" + "0".repeat(32) + "-" + SPAN + "-01", // all-zero trace id
            "00-" + TRACE + "-" + "0".repeat(16) + "-01", // all-zero span id
            "ff-" + TRACE + "-" + SPAN + "-01", // forbidden version
            W3C + "-extra", // version 00 has exactly four fields
            "00-" + TRACE + "x-" + SPAN + "-01"}) {
            assertThat(TraceContext.fromTraceparent(bad)).as(String.valueOf(bad)).isEmpty();
        }
    }

    @Test
    void fromTraceparent_shouldReadTheKnownFields_whenAFutureVersionAddsMore() {
        assertThat(TraceContext.fromTraceparent("01-" + TRACE + "-" + SPAN + "-01-more"))
                .contains(new TraceContext(TRACE, SPAN, true));
    }

    @Test
    void awsTraceHeader_shouldSplitTheTraceIdAfterItsEighthDigit() {
        // X-Ray's format: Root=1-<8 hex epoch>-<24 hex>;Parent=<16 hex>;Sampled=1
        assertThat(new TraceContext(TRACE, SPAN, true).awsTraceHeader())
                .isEqualTo("Root=1-4bf92f35-77b34da6a3ce929d0e0e4736;Parent=00f067aa0ba902b7;Sampled=1");
        assertThat(new TraceContext(TRACE, SPAN, false).awsTraceHeader()).endsWith(";Sampled=0");
    }

    @Test
    void fromAwsTraceHeader_shouldInvertAwsTraceHeader_forAnyContext() {
        for (boolean sampled : new boolean[] {true, false}) {
            TraceContext context = new TraceContext(TRACE, SPAN, sampled);
            assertThat(TraceContext.fromAwsTraceHeader(context.awsTraceHeader())).contains(context);
            assertThat(TraceContext.fromTraceparent(context.traceparent())).contains(context);
        }
    }

    @Test
    void fromAwsTraceHeader_shouldReadXRaysOwnExample_inAnyOrderWithExtraKeys() {
        // the X-Ray developer guide's tracing header example, reordered, with a Lineage key Lambda adds
        Optional<TraceContext> read = TraceContext.fromAwsTraceHeader(
                "Sampled=1;Lineage=a87bd80c:0;Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8");
        assertThat(read).contains(new TraceContext("5759e988bd862e3fe1be46a994272793", "53995c3f42cd8ad8", true));
    }

    @Test
    void fromAwsTraceHeader_shouldBeEmpty_whenRootOrParentIsMissingOrMalformed() {
        for (String bad : new String[] {null, "", "Root=1-5759e988-bd862e3fe1be46a994272793",
            "Parent=53995c3f42cd8ad8;Sampled=1", "Root=2-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8",
            "Root=1-5759e988-bd862e3f;Parent=53995c3f42cd8ad8", "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=x"}) {
            assertThat(TraceContext.fromAwsTraceHeader(bad)).as(String.valueOf(bad)).isEmpty();
        }
    }

    @Test
    void xrayCompatibleTraceId_shouldStartWithTheEpochSecondInHex() {
        String id = TraceContext.xrayCompatibleTraceId(0x5759e988L, -1, 1L);
        assertThat(id).isEqualTo("5759e988" + "ffffffff" + "0000000000000001");
        assertThat(TraceContext.isTraceId(id)).isTrue();
    }

    @Test
    void constructor_shouldRefuseInvalidIds() {
        assertThatThrownBy(() -> new TraceContext("abc", SPAN, true)).isInstanceOf(IllegalArgumentException.class);
    }
}
