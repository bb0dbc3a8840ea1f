package io.gpupipe.localaws;

import java.time.Duration;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Latency added in front of each local AWS endpoint, so contention and retries behave locally as they would against a
 * region (where S3 answers in tens of milliseconds, not the emulators' one). Written as {@code s3=20ms,sqs=10ms};
 * a service not named gets none.
 */
public record AwsLatency(Duration s3, Duration sqs) {
    private static final Pattern ENTRY = Pattern.compile("^(s3|sqs)=(\\d{1,5})(ms|s)$");
    private static final Duration MAX = Duration.ofSeconds(10);

    /** No added latency: clients talk to the emulators directly. */
    public static final AwsLatency NONE = new AwsLatency(Duration.ZERO, Duration.ZERO);

    public AwsLatency {
        check("s3", s3);
        check("sqs", sqs);
    }

    private static void check(String service, Duration delay) {
        if (delay == null || delay.isNegative() || delay.compareTo(MAX) > 0) {
            throw new IllegalArgumentException(service + " latency must be 0 to " + MAX.toSeconds() + " s, got "
                    + delay);
        }
    }

    /** Reads {@code s3=20ms,sqs=10ms} (ms or s; each service at most once); an empty text is {@link #NONE}. */
    public static AwsLatency parse(String text) {
        Duration s3 = Duration.ZERO;
        Duration sqs = Duration.ZERO;
        if (text == null || text.isBlank()) {
            return NONE;
        }
        Set<String> seen = new HashSet<>();
        for (String entry : text.split(",")) {
            Matcher matcher = ENTRY.matcher(entry.trim().toLowerCase(Locale.ROOT));
            if (!matcher.matches()) {
                throw new IllegalArgumentException("AWS latency is SERVICE=DELAY[,...] with SERVICE s3 or sqs and "
                        + "DELAY like 20ms or 1s, got \"" + entry.trim() + "\"");
            }
            String service = matcher.group(1);
            if (!seen.add(service)) {
                throw new IllegalArgumentException("AWS latency names " + service + " twice in \"" + text + "\"");
            }
            long amount = Long.parseLong(matcher.group(2));
            Duration delay = "s".equals(matcher.group(3)) ? Duration.ofSeconds(amount) : Duration.ofMillis(amount);
            if ("s3".equals(service)) {
                s3 = delay;
            } else {
                sqs = delay;
            }
        }
        return new AwsLatency(s3, sqs);
    }

    public boolean isNone() {
        return s3.isZero() && sqs.isZero();
    }

    /** The form {@link #parse} reads. */
    @Override
    public String toString() {
        return "s3=" + s3.toMillis() + "ms,sqs=" + sqs.toMillis() + "ms";
    }
}
