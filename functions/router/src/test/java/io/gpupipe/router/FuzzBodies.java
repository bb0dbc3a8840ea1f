package io.gpupipe.router;

import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * Request bodies for fuzzing the submit path: random JSON of every type, valid jobs mutated field by field (wrong
 * types, huge and odd numbers, unknown and duplicate keys, 1 MB strings, every Unicode plane and lone surrogates),
 * deep nesting and broken JSON text. JSON text is written here, not by a library, so that duplicate keys, raw lone
 * surrogates and malformed documents can be produced.
 *
 * <p>A seeded generator, not a property-testing library: no library generator writes such text, and shrinking a
 * body through real S3 and SQS round trips would cost minutes per failure (the fuzz tests never shrank). One seed
 * decides every body of a run, in order ({@link FuzzRun}), so a failure re-runs exactly.
 */
final class FuzzBodies {
    /** The kinds of body and how often each is drawn (weights out of 96). */
    enum Kind {
        MUTATED_JOB(40), CHAT_JOB(15), RANDOM_JSON(20), BROKEN_TEXT(10), DEEP_NESTING(10), HUGE(1);

        private final int weight;

        Kind(int weight) {
            this.weight = weight;
        }
    }

    /** One generated body: its place in the run, its kind and its text. */
    record Body(int index, Kind kind, String text) {
    }

    /** Every field a job request may carry (JobRequestParser). */
    static final List<String> FIELDS = List.of("requestId", "task", "prompt", "maxTokens", "temperature", "topP",
            "route", "voice", "priority", "callbackUrl", "ttlSeconds", "messages", "seed", "cache", "language", "speed",
            "instructions", "submittedAt", "batch", "responseFormat", "input", "dimensions", "encodingFormat");
    private static final List<String> HUGE_STRINGS = List.of("m".repeat(1 << 20), "\uD83D\uDE00".repeat(50_000),
            "\u6F22".repeat(100_000), "\uFFFF".repeat(60_000));
    private static final List<String> ODD_NUMBERS = List.of("1e999999", "-1e-999999",
            "123456789012345678901234567890", "1.5", "-0", "0.0", "2048", "2049", "256.0", "1E2",
            "9223372036854775808", "-2147483649");
    private static final String ALPHANUMERIC = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ";

    private final SplittableRandom random;
    /** Two requestIds the run keeps drawing, so that ids are resubmitted (with other bodies, too). */
    private final List<String> repeatedIds;
    /** Odd strings, the tiers' names and the repeated requestIds. */
    private final List<String> specials;

    FuzzBodies(long seed) {
        random = new SplittableRandom(seed);
        repeatedIds = List.of(uuid(), uuid());
        specials = Stream.of(Stream.of("\uFFFF", "\uFFFE", "\uD800", "\uDC00", "\uDBFF\uDFFF", "\u0000", "\u2028",
                "https://[::ffff:a9fe:a9fe]/", "https://0xa9fea9fe/", "alloy"), repeatedIds.stream(),
                TierCatalogue.bundled().names().stream().map(Tier::wireName)).flatMap(s -> s).toList();
    }

    /** The run's bodies in order: body {@code i} is the same for the same seed. */
    Stream<Body> bodies(int count) {
        return IntStream.range(0, count).mapToObj(this::body);
    }

    /** Every kind of body, weighted towards ones that get past the parser. */
    Body body(int index) {
        Kind kind = weighted(List.of(Kind.values()), k -> k.weight);
        String text = switch (kind) {
            case MUTATED_JOB -> mutatedJob();
            case CHAT_JOB -> chatJob();
            case RANDOM_JSON -> json(3);
            case BROKEN_TEXT -> brokenText();
            case DEEP_NESTING -> deepNesting();
            case HUGE -> hugeBody();
        };
        return new Body(index, kind, text);
    }

    /** 1 MB and 100,000-character strings, as the prompt or as an ignored field of an otherwise valid job. */
    private String hugeBody() {
        return "{\"prompt\":\"p\"," + member(pick(List.of("prompt", "x-unknown")), quote(pick(HUGE_STRINGS))) + "}";
    }

    /**
     * A valid job (1 in 20 under a repeated requestId), then 0 to 3 fields (fewer more often, so that 1 in 3 bodies
     * of the run passes the parser) replaced, removed, duplicated or added (a field drawn twice now and then).
     */
    private String mutatedJob() {
        String prompt = strings();
        String task = pick(List.of("generate", "speech"));
        String id = chance(5) ? pick(repeatedIds) : uuid();
        List<String> members = new ArrayList<>(List.of(member("requestId", quote(id)), member("task", quote(task)),
                member("prompt", quote(prompt.isBlank() ? "p" + prompt : prompt)),
                member("maxTokens", String.valueOf(between(1, 2048)))));
        List<String> mutated = new ArrayList<>();
        for (int n = weighted(4, 3, 2, 1); n > 0; n--) {
            String field = !mutated.isEmpty() && chance(10) ? pick(mutated) : pick(FIELDS);
            mutated.add(field);
            String value = json(2);
            switch (between(0, 3)) {
                case 0 -> members.removeIf(m -> m.startsWith(quote(field) + ":"));
                case 1 -> members.add(member(field, value));
                case 2 -> members.add(member("x-" + field, value));
                default -> {
                    members.removeIf(m -> m.startsWith(quote(field) + ":"));
                    members.add(member(field, value));
                }
            }
        }
        return "{" + String.join(",", members) + "}";
    }

    /**
     * A chat job: prompt replaced by {@code messages} of valid and broken entries (unknown roles, blank, non-string
     * or missing content, non-object entries; each entry broken 1 time in 4, so that whole lists pass too), with the
     * odd prompt kept alongside.
     */
    private String chatJob() {
        String job = mutatedJob();
        String messages = list(6, () -> chance(75) ? validMessage() : brokenMessage(), "[", "]");
        String withMessages = "{" + member("messages", messages) + "," + job.substring(1);
        return between(0, 9) == 0 ? withMessages : withMessages.replaceFirst("\"prompt\":", "\"x-prompt\":");
    }

    private String validMessage() {
        String content = strings();
        return "{" + member("role", quote(pick(List.of("system", "user", "assistant")))) + ","
                + member("content", quote(content.isBlank() ? "c" + content : content)) + "}";
    }

    private String brokenMessage() {
        return weighted(6, 1) == 0
                ? "{" + member("role", chance(50) ? quote(pick(List.of("system", "user", "assistant"))) : json(0))
                        + "," + member("content", chance(50) ? quote(strings()) : json(1)) + "}"
                : json(1);
    }

    /** Any JSON value, nested up to {@code depth}. */
    private String json(int depth) {
        int shape = depth == 0 ? 0 : weighted(3, 1, 2);
        return switch (shape) {
            case 0 -> switch (between(0, 2)) {
                case 0 -> quote(strings());
                case 1 -> number();
                default -> pick(List.of("true", "false", "null"));
            };
            case 1 -> list(4, () -> json(depth - 1), "[", "]");
            default -> list(4, () -> member(chance(50) ? pick(FIELDS) : strings(), json(depth - 1)), "{", "}");
        };
    }

    /** Strings from every plane, lone surrogates, U+FFFE/U+FFFF, controls, and odd values. */
    private String strings() {
        return switch (weighted(4, 3, 3, 1)) {
            case 0 -> text(40, () -> ALPHANUMERIC.charAt(random.nextInt(ALPHANUMERIC.length())));
            case 1 -> text(20, () -> (char) random.nextInt(Character.MAX_VALUE + 1));
            case 2 -> IntStream.range(0, between(0, 20)).map(i -> random.nextInt(Character.MAX_CODE_POINT + 1))
                    .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
            default -> pick(specials);
        };
    }

    /** Integers and doubles of every size (edge values, small ones, any bit pattern) and odd number literals. */
    private String number() {
        return switch (between(0, 2)) {
            case 0 -> String.valueOf(anyInt());
            case 1 -> String.valueOf(anyDouble());
            default -> pick(ODD_NUMBERS);
        };
    }

    private int anyInt() {
        return switch (between(0, 2)) {
            case 0 -> pick(List.of(0, 1, -1, Integer.MIN_VALUE, Integer.MAX_VALUE));
            case 1 -> between(-1000, 1000);
            default -> random.nextInt();
        };
    }

    private double anyDouble() {
        return switch (between(0, 2)) {
            case 0 -> pick(List.of(0.0, -0.0, 0.01, -1.0, Double.MIN_VALUE, Double.MAX_VALUE, -Double.MAX_VALUE));
            case 1 -> between(-100_000, 100_000) / 100.0;
            default -> finiteDouble();
        };
    }

    private double finiteDouble() {
        double value = Double.longBitsToDouble(random.nextLong());
        return Double.isFinite(value) ? value : finiteDouble();
    }

    /** A mutated job with one character replaced by a string (or the string inserted at its end). */
    private String brokenText() {
        String text = mutatedJob();
        int cut = Math.min(between(0, 200), text.length());
        return text.substring(0, cut) + strings() + text.substring(Math.min(text.length(), cut + 1));
    }

    private String deepNesting() {
        int depth = between(100, 5000);
        return "{\"prompt\":\"x\",\"deep\":" + "[".repeat(depth) + "]".repeat(depth) + "}";
    }

    private String uuid() {
        return new UUID(random.nextLong() & ~0xF000L | 0x4000L, random.nextLong() >>> 2 | Long.MIN_VALUE).toString();
    }

    private String list(int maxSize, Supplier<String> element, String open, String close) {
        return Stream.generate(element).limit(between(0, maxSize)).collect(Collectors.joining(",", open, close));
    }

    private String text(int maxLength, Supplier<Character> character) {
        StringBuilder text = new StringBuilder();
        for (int n = between(0, maxLength); n > 0; n--) {
            text.append(character.get().charValue());
        }
        return text.toString();
    }

    private int between(int min, int max) {
        return random.nextInt(min, max + 1);
    }

    private boolean chance(int percent) {
        return random.nextInt(100) < percent;
    }

    private <T> T pick(List<T> values) {
        return values.get(random.nextInt(values.size()));
    }

    /** The index drawn with the given weights. */
    private int weighted(int... weights) {
        return weighted(IntStream.range(0, weights.length).boxed().toList(), i -> weights[i]);
    }

    private <T> T weighted(List<T> values, ToIntFunction<T> weight) {
        int draw = random.nextInt(values.stream().mapToInt(weight).sum());
        for (T value : values) {
            draw -= weight.applyAsInt(value);
            if (draw < 0) {
                return value;
            }
        }
        throw new IllegalStateException("weights are positive");
    }

    private static String member(String name, String value) {
        return quote(name) + ":" + value;
    }

    /** A JSON string literal; controls escaped as JSON demands, lone surrogates sometimes raw, sometimes escaped. */
    static String quote(String text) {
        StringBuilder out = new StringBuilder(text.length() + 2).append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20 || (Character.isSurrogate(c) && i % 2 == 0)) {
                out.append("\\u").append(HexFormat.of().toHexDigits(c));
            } else {
                out.append(c);
            }
        }
        return out.append('"').toString();
    }
}
