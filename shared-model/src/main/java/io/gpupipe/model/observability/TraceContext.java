package io.gpupipe.model.observability;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One span's place in a trace, and its two wire forms: the W3C {@code traceparent} header (the message attribute
 * and the result carry it) and the X-Ray trace header (SQS's {@code AWSTraceHeader} system attribute, which X-Ray
 * reads to link the queue hop). Both carry the same ids, so converting is lossless.
 *
 * <p>W3C Trace Context: {@code version "-" trace-id "-" parent-id "-" trace-flags}, lower-case hex, version
 * {@code 00}, trace-id 32 and parent-id 16 digits, neither all zeros; flag bit 0 is "sampled". X-Ray (developer
 * guide, "Tracing header"): {@code Root=1-<8 hex epoch seconds>-<24 hex>;Parent=<16 hex>;Sampled=1}: the X-Ray
 * trace id is the W3C one split after its 8th digit (OpenTelemetry's AwsXrayPropagator does the same).
 */
public record TraceContext(String traceId, String spanId, boolean sampled) {
    /** The W3C header and message attribute name. */
    public static final String TRACEPARENT = "traceparent";
    private static final Pattern W3C = Pattern.compile("([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})");
    private static final Pattern XRAY_ROOT = Pattern.compile("1-([0-9a-f]{8})-([0-9a-f]{24})");
    private static final Pattern HEX16 = Pattern.compile("[0-9a-f]{16}");
    private static final String ZERO_TRACE = "0".repeat(32);
    private static final String ZERO_SPAN = "0".repeat(16);

    public TraceContext {
        if (!isTraceId(traceId) || !isSpanId(spanId)) {
            throw new IllegalArgumentException("not a valid trace/span id pair: " + traceId + "/" + spanId);
        }
    }

    /** A 32-digit lower-case hex trace id that is not all zeros. */
    public static boolean isTraceId(String id) {
        return id != null && id.length() == 32 && id.chars().allMatch(TraceContext::isHex) && !ZERO_TRACE.equals(id);
    }

    /** A 16-digit lower-case hex span id that is not all zeros. */
    public static boolean isSpanId(String id) {
        return id != null && HEX16.matcher(id).matches() && !ZERO_SPAN.equals(id);
    }

    /**
     * The context a {@code traceparent} value names, or empty when it is absent or malformed (a receiver then
     * starts a new trace, as W3C says). Version {@code ff} is invalid; a later version is read by its first four
     * fields, and version 00 must be exactly those four.
     */
    public static Optional<TraceContext> fromTraceparent(String header) {
        if (header == null) {
            return Optional.empty();
        }
        String value = header.strip();
        if (value.length() < 55) {
            return Optional.empty();
        }
        Matcher m = W3C.matcher(value.substring(0, 55));
        if (!m.matches() || "ff".equals(m.group(1)) || ("00".equals(m.group(1)) && value.length() != 55)
                || (value.length() > 55 && value.charAt(55) != '-')) {
            return Optional.empty();
        }
        if (!isTraceId(m.group(2)) || !isSpanId(m.group(3))) {
            return Optional.empty();
        }
        return Optional.of(new TraceContext(m.group(2), m.group(3), (Integer.parseInt(m.group(4), 16) & 1) == 1));
    }

    /**
     * The context an X-Ray trace header names ({@code Root}, {@code Parent}, {@code Sampled} in any order, other
     * keys ignored), or empty when it has no valid Root and Parent.
     */
    public static Optional<TraceContext> fromAwsTraceHeader(String header) {
        if (header == null) {
            return Optional.empty();
        }
        String root = null;
        String parent = null;
        boolean sampled = false;
        for (String part : header.split(";")) {
            int eq = part.indexOf('=');
            if (eq < 0) {
                continue;
            }
            String key = part.substring(0, eq).strip();
            String value = part.substring(eq + 1).strip().toLowerCase(Locale.ROOT);
            switch (key) {
                case "Root" -> root = value;
                case "Parent" -> parent = value;
                case "Sampled" -> sampled = "1".equals(value);
                default -> {
                    // Lineage and other keys X-Ray adds are not part of the span's identity
                }
            }
        }
        if (root == null || parent == null) {
            return Optional.empty();
        }
        Matcher m = XRAY_ROOT.matcher(root);
        if (!m.matches() || !isTraceId(m.group(1) + m.group(2)) || !isSpanId(parent)) {
            return Optional.empty();
        }
        return Optional.of(new TraceContext(m.group(1) + m.group(2), parent, sampled));
    }

    /** The W3C header value, version 00. */
    public String traceparent() {
        return "00-" + traceId + "-" + spanId + (sampled ? "-01" : "-00");
    }

    /** The X-Ray trace header value for SQS's AWSTraceHeader system attribute. */
    public String awsTraceHeader() {
        return "Root=1-" + traceId.substring(0, 8) + "-" + traceId.substring(8) + ";Parent=" + spanId + ";Sampled="
                + (sampled ? "1" : "0");
    }

    /**
     * A trace id X-Ray accepts: its first 8 digits are the epoch second the trace started (X-Ray drops traces whose
     * id names a time long past), the other 24 come from {@code high32} and {@code low64} (random bits).
     */
    public static String xrayCompatibleTraceId(long epochSecond, int high32, long low64) {
        return String.format(Locale.ROOT, "%08x%08x%016x", epochSecond & 0xffffffffL, high32, low64);
    }

    private static boolean isHex(int c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
    }
}
