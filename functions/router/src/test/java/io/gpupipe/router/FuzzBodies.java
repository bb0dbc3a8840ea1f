package io.gpupipe.router;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * Request bodies for fuzzing the submit path: random JSON of every type, valid jobs mutated field by field (wrong
 * types, huge and odd numbers, unknown and duplicate keys, 1 MB strings, every Unicode plane and lone surrogates),
 * deep nesting and broken JSON text. JSON text is written here, not by a library, so that duplicate keys, raw lone
 * surrogates and malformed documents can be produced.
 */
final class FuzzBodies {
    private static final List<String> FIELDS = List.of("requestId", "task", "prompt", "maxTokens", "temperature",
            "topP", "route", "voice", "priority", "callbackUrl", "ttlSeconds", "messages");
    private static final String MEGABYTE = "m".repeat(1 << 20);

    private FuzzBodies() {
    }

    /** Every kind of body, weighted towards ones that get past the parser. */
    static Arbitrary<String> bodies() {
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(40, mutatedJobs()),
                net.jqwik.api.Tuple.of(15, chatJobs()),
                net.jqwik.api.Tuple.of(20, json(3)),
                net.jqwik.api.Tuple.of(10, brokenText()),
                net.jqwik.api.Tuple.of(10, deepNesting()),
                net.jqwik.api.Tuple.of(1, hugeBodies()));
    }

    /** 1 MB and 100,000-character strings, as the prompt or as an ignored field of an otherwise valid job. */
    static Arbitrary<String> hugeBodies() {
        return Combinators.combine(Arbitraries.of(MEGABYTE, "\uD83D\uDE00".repeat(50_000), "\u6F22".repeat(100_000),
                "\uFFFF".repeat(60_000)), Arbitraries.of("prompt", "x-unknown"))
                .as((huge, field) -> "{\"prompt\":\"p\"," + member(field, quote(huge)) + "}");
    }

    /** A valid job, then 0 to 3 fields replaced, removed, duplicated or added. */
    static Arbitrary<String> mutatedJobs() {
        Arbitrary<List<String[]>> mutations = Combinators.combine(Arbitraries.of(FIELDS).injectDuplicates(0.1),
                Arbitraries.integers().between(0, 3), json(2))
                .as((field, how, value) -> new String[] {field, String.valueOf(how), value})
                .list().ofMaxSize(3);
        return Combinators.combine(strings(), Arbitraries.of("generate", "speech"), mutations,
                Arbitraries.integers().between(1, 2048)).as(FuzzBodies::job);
    }

    private static String job(String prompt, String task, List<String[]> mutations, int maxTokens) {
        List<String> members = new ArrayList<>();
        members.add(member("requestId", quote(UUID.randomUUID().toString())));
        members.add(member("task", quote(task)));
        members.add(member("prompt", quote(prompt.isBlank() ? "p" + prompt : prompt)));
        members.add(member("maxTokens", String.valueOf(maxTokens)));
        for (String[] mutation : mutations) {
            String field = mutation[0];
            switch (Integer.parseInt(mutation[1])) {
                case 0 -> members.removeIf(m -> m.startsWith(quote(field) + ":"));
                case 1 -> members.add(member(field, mutation[2]));
                case 2 -> members.add(member("x-" + field, mutation[2]));
                default -> {
                    members.removeIf(m -> m.startsWith(quote(field) + ":"));
                    members.add(member(field, mutation[2]));
                }
            }
        }
        return "{" + String.join(",", members) + "}";
    }

    /**
     * A chat job: prompt replaced by {@code messages} of valid and broken entries (unknown roles, blank, non-string
     * or missing content, non-object entries), with the odd prompt kept alongside.
     */
    static Arbitrary<String> chatJobs() {
        Arbitrary<String> role = Arbitraries.oneOf(Arbitraries.of("system", "user", "assistant").map(FuzzBodies::quote),
                json(0));
        Arbitrary<String> content = Arbitraries.oneOf(strings().map(FuzzBodies::quote), json(1));
        Arbitrary<String> entry = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(6, Combinators.combine(role, content)
                        .as((r, c) -> "{" + member("role", r) + "," + member("content", c) + "}")),
                net.jqwik.api.Tuple.of(1, json(1)));
        Arbitrary<String> messages = entry.list().ofMaxSize(6).map(l -> "[" + String.join(",", l) + "]");
        return Combinators.combine(mutatedJobs(), messages, Arbitraries.integers().between(0, 9))
                .as((job, list, how) -> {
                    String withMessages = "{" + member("messages", list) + "," + job.substring(1);
                    return how == 0 ? withMessages : withMessages.replaceFirst("\"prompt\":", "\"x-prompt\":");
                }).withoutEdgeCases(); // the edge cases of three combined generators multiply past memory
    }

    /** Any JSON value, nested up to {@code depth}. */
    static Arbitrary<String> json(int depth) {
        Arbitrary<String> scalar = Arbitraries.oneOf(strings().map(FuzzBodies::quote), numbers(),
                Arbitraries.of("true", "false", "null"));
        if (depth == 0) {
            return scalar;
        }
        Arbitrary<String> array = json(depth - 1).list().ofMaxSize(4).map(l -> "[" + String.join(",", l) + "]");
        Arbitrary<String> object = Combinators.combine(Arbitraries.oneOf(Arbitraries.of(FIELDS), strings()),
                json(depth - 1)).as(FuzzBodies::member).list().ofMaxSize(4)
                .map(l -> "{" + String.join(",", l) + "}");
        return Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(3, scalar), net.jqwik.api.Tuple.of(1, array),
                net.jqwik.api.Tuple.of(2, object));
    }

    /** Strings from every plane, lone surrogates, U+FFFE/U+FFFF, controls, and the odd 1 MB one. */
    static Arbitrary<String> strings() {
        Arbitrary<Character> anyChar = Arbitraries.chars().all();
        Arbitrary<String> planes = Arbitraries.integers().between(0, Character.MAX_CODE_POINT)
                .map(Character::toString).list().ofMaxSize(20).map(l -> String.join("", l));
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(4, Arbitraries.strings().alpha().numeric().withChars(' ').ofMaxLength(40)),
                net.jqwik.api.Tuple.of(3, anyChar.list().ofMaxSize(20).map(FuzzBodies::join)),
                net.jqwik.api.Tuple.of(3, planes),
                net.jqwik.api.Tuple.of(1, Arbitraries.of("\uFFFF", "\uFFFE", "\uD800", "\uDC00", "\uDBFF\uDFFF",
                        "\u0000", "\u2028", "https://[::ffff:a9fe:a9fe]/", "https://0xa9fea9fe/", "small",
                        "large", "speech", "alloy", UUID.randomUUID().toString())));
    }

    private static Arbitrary<String> numbers() {
        return Arbitraries.oneOf(Arbitraries.integers().map(String::valueOf),
                Arbitraries.doubles().map(String::valueOf).filter(d -> !d.contains("N") && !d.contains("I")),
                Arbitraries.of("1e999999", "-1e-999999", "123456789012345678901234567890", "1.5", "-0", "0.0",
                        "2048", "2049", "256.0", "1E2", "9223372036854775808", "-2147483649"));
    }

    private static Arbitrary<String> brokenText() {
        return Combinators.combine(mutatedJobs(), Arbitraries.integers().between(0, 200), strings())
                .as((text, at, insert) -> {
                    int cut = Math.min(at, text.length());
                    return text.substring(0, cut) + insert + text.substring(Math.min(text.length(), cut + 1));
                });
    }

    private static Arbitrary<String> deepNesting() {
        return Arbitraries.integers().between(100, 5000).map(depth -> "{\"prompt\":\"x\",\"deep\":"
                + "[".repeat(depth) + "]".repeat(depth) + "}");
    }

    private static String member(String name, String value) {
        return quote(name) + ":" + value;
    }

    private static String join(List<Character> chars) {
        StringBuilder text = new StringBuilder(chars.size());
        chars.forEach(text::append);
        return text.toString();
    }

    /** A JSON string literal; controls escaped as JSON demands, lone surrogates sometimes raw, sometimes escaped. */
    static String quote(String text) {
        StringBuilder out = new StringBuilder(text.length() + 2).append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20 || (Character.isSurrogate(c) && i % 2 == 0)) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.append('"').toString();
    }
}
