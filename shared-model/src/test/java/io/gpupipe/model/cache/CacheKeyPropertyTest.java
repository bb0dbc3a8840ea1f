package io.gpupipe.model.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.strings;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobMessage;
import io.gpupipe.model.job.JobRequestParser;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.owner.OwnerIds;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.quicktheories.QuickTheory;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * The cache key covers exactly the output-affecting fields: changing any of them changes the key, changing anything
 * else (identity, delivery, scheduling, and the other task's parameters) never does, and a job keeps its key through
 * the queue message the router sends (as UTF-8, as SQS carries it) and the worker parses, the job itself intact.
 *
 * <p>QuickTheories: it shrinks a failure to a minimal job and change and reports them with the seed ("Seed was N");
 * {@code -Dfuzz.seed=N} re-runs exactly that, {@code -Dfuzz.examples=N} tries more jobs per property (default 200).
 */
class CacheKeyPropertyTest {
    private static final Owner ALICE = OwnerIds.UNKEYED.of(new CallerIdentity.Jwt("https://idp.example.com", "alice"));
    private static final String VERSION = "TheBloke/Mistral-7B-Instruct-v0.2-AWQ@" + "a".repeat(40) + "+small-1";
    private static final JobRequestParser PARSER = new JobRequestParser();
    private static final long SEED = Long.getLong("fuzz.seed", ThreadLocalRandom.current().nextLong());
    private static final int EXAMPLES = Integer.getInteger("fuzz.examples", 200);
    /** Fixed, so that a seed re-runs a failure to the byte; the requestId never reaches the key anyway. */
    private static final String REQUEST_ID = "5f0e2c8a-3b1d-4e6f-9a7c-2d4b6e8f0a1c";

    /** One change to a job's JSON, named for the failure message. */
    record Change(String name, Consumer<ObjectNode> apply) {
        @Override
        public String toString() {
            return name;
        }
    }

    @BeforeAll
    static void printSeed() {
        System.out.printf("CacheKeyPropertyTest: seed %d, %d examples per property (-Dfuzz.seed=%d re-runs them)%n",
                SEED, EXAMPLES, SEED);
    }

    @Test
    void key_shouldChange_whenAnOutputAffectingFieldOfATextJobChanges() {
        checkKeyAfterChanges(textJobs(), TEXT_CHANGES, true);
    }

    @Test
    void key_shouldChange_whenAnOutputAffectingFieldOfASpeechJobChanges() {
        checkKeyAfterChanges(speechJobs(), SPEECH_CHANGES, true);
    }

    @Test
    void key_shouldStayTheSame_whenOnlyOtherFieldsOfATextJobChange() {
        checkKeyAfterChanges(textJobs(), NEUTRAL_FOR_TEXT, false);
    }

    @Test
    void key_shouldStayTheSame_whenOnlyOtherFieldsOfASpeechJobChange() {
        checkKeyAfterChanges(speechJobs(), NEUTRAL_FOR_SPEECH, false);
    }

    @Test
    void key_shouldChange_whenTheModelVersionChanges() {
        qt().forAll(textJobs()).checkAssert(job -> printably(() -> {
            InferenceJob parsed = read(job);
            assertThat(CacheKey.of(VERSION + "2", parsed)).isNotEqualTo(CacheKey.of(VERSION, parsed));
        }));
    }

    @Test
    void key_shouldBeTheSameOnTheWorker_whenTheJobTravelsAsTheRoutersQueueMessage() {
        qt().forAll(anyJobs()).checkAssert(job -> printably(() -> {
            // given: what the router accepted, as the worker reads it from the queue (SQS carries UTF-8)
            InferenceJob accepted = parse(job, JobRequestParser.Source.API).submittedBy(ALICE);
            byte[] message = JobMessage.inline(accepted).getBytes(StandardCharsets.UTF_8);
            InferenceJob received = parse((ObjectNode) readTree(message), JobRequestParser.Source.QUEUE);
            // then: the job arrives intact (the key alone would not show it: it hashes UTF-8, which turns a lone
            // surrogate into '?' just as an unescaped message would) and keeps its key
            assertThat(received).isEqualTo(accepted);
            assertThat(CacheKey.of(VERSION, received)).isEqualTo(CacheKey.of(VERSION, accepted));
        }));
    }

    /** For any job and any of {@code changes}: the key after the change differs (or not) from the key before. */
    private static void checkKeyAfterChanges(Gen<ObjectNode> jobs, List<Change> changes, boolean differs) {
        qt().forAll(jobs, Generate.pick(changes)).checkAssert((job, change) -> printably(() -> {
            if (differs) {
                assertThat(keyAfter(job, change)).as(change.name()).isNotEqualTo(key(job));
            } else {
                assertThat(keyAfter(job, change)).as(change.name()).isEqualTo(key(job));
            }
        }));
    }

    private static QuickTheory qt() {
        return QuickTheory.qt().withFixedSeed(SEED).withExamples(EXAMPLES);
    }

    /**
     * Runs {@code check} with its failure message in printable ASCII: a raw lone surrogate in a reported job cuts
     * Surefire's console and report short, QuickTheories' seed line with it.
     */
    private static void printably(Runnable check) {
        try {
            check.run();
        } catch (AssertionError e) {
            AssertionError printable = new AssertionError(printable(e.getMessage()));
            printable.setStackTrace(e.getStackTrace());
            throw printable;
        }
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

    /** 1 to 40 code points: every BMP code unit (lone surrogates, U+FFFF, controls) or any plane; never blank. */
    private static Gen<String> texts() {
        return strings().betweenCodePoints(0, Character.MAX_VALUE).ofLengthBetween(1, 40)
                .mix(strings().allPossible().ofLengthBetween(1, 40))
                .assuming(text -> !text.isBlank());
    }

    /** A value with two decimals in [0, max / 100]. */
    private static Gen<Double> hundredths(int max) {
        return integers().between(0, max).map(value -> value / 100.0);
    }

    private static Gen<ObjectNode> textJobs() {
        Gen<String> prompts = texts();
        Gen<Integer> maxTokens = integers().between(1, 2047);
        Gen<Double> temperatures = hundredths(190);
        Gen<Double> topPs = hundredths(90);
        Gen<Optional<Integer>> seeds = integers().between(0, Integer.MAX_VALUE - 1).toOptionals(30);
        Gen<Boolean> chats = booleans().all();
        Gen<Optional<String>> formats = Generate.pick(FORMATS).toOptionals(50);
        Gen<ObjectNode> jobs = in -> {
            ObjectNode job = textJob(prompts.generate(in), maxTokens.generate(in), temperatures.generate(in),
                    topPs.generate(in), seeds.generate(in), chats.generate(in));
            formats.generate(in).ifPresent(format -> job.set("responseFormat", tree(format)));
            return job;
        };
        return jobs.describedAs(job -> printable(job.toString()));
    }

    /** Response formats a text job may carry: JSON, and two schemas that differ in one keyword. */
    private static final List<String> FORMATS = List.of("{\"type\":\"json_object\"}",
            "{\"type\":\"json_schema\",\"json_schema\":{\"name\":\"p\",\"schema\":{\"type\":\"object\","
                    + "\"required\":[\"a\"]}}}",
            "{\"type\":\"json_schema\",\"json_schema\":{\"name\":\"p\",\"schema\":{\"type\":\"object\","
                    + "\"required\":[\"b\"]}}}");

    private static JsonNode tree(String json) {
        return readTree(json.getBytes(StandardCharsets.UTF_8));
    }

    private static ObjectNode textJob(String prompt, int maxTokens, double temperature, double topP,
                                      Optional<Integer> seed, boolean chat) {
        ObjectNode job = base("generate");
        if (chat) {
            ArrayNode messages = job.putArray("messages");
            messages.addObject().put("role", "system").put("content", "You are brief.");
            messages.addObject().put("role", "user").put("content", prompt);
        } else {
            job.put("prompt", prompt);
        }
        job.put("maxTokens", maxTokens).put("temperature", temperature).put("topP", topP);
        seed.ifPresent(value -> job.put("seed", value));
        return job;
    }

    private static Gen<ObjectNode> anyJobs() {
        return textJobs().mix(speechJobs()).describedAs(job -> printable(job.toString()));
    }

    private static Gen<ObjectNode> speechJobs() {
        Gen<String> texts = texts();
        Gen<Optional<String>> voices = Generate.pick(List.of("vivian", "ryan", "aiden")).toOptionals(30);
        Gen<Optional<String>> languages = Generate.pick(List.of("English", "German", "Auto")).toOptionals(30);
        Gen<Optional<Double>> speeds = integers().between(25, 390).map(value -> value / 100.0).toOptionals(30);
        Gen<Optional<String>> styles = Generate.pick(List.of("calm", "cheerful")).toOptionals(30);
        Gen<ObjectNode> jobs = in -> {
            ObjectNode job = base("speech").put("prompt", texts.generate(in));
            voices.generate(in).ifPresent(voice -> job.put("voice", voice));
            languages.generate(in).ifPresent(language -> job.put("language", language));
            speeds.generate(in).ifPresent(speed -> job.put("speed", speed));
            styles.generate(in).ifPresent(style -> job.put("instructions", style));
            return job;
        };
        return jobs.describedAs(job -> printable(job.toString()));
    }

    private static final List<Change> TEXT_CHANGES = List.of(
            new Change("prompt or last message", j -> {
                if (j.has("prompt")) {
                    j.put("prompt", j.get("prompt").asText() + ".");
                } else {
                    ObjectNode last = (ObjectNode) j.withArray("messages").get(1);
                    last.put("content", last.get("content").asText() + ".");
                }
            }),
            new Change("a message's role", j -> {
                if (j.has("messages")) {
                    ((ObjectNode) j.withArray("messages").get(0)).put("role", "user");
                } else {
                    j.put("prompt", j.get("prompt").asText() + " ");
                }
            }),
            new Change("prompt turned chat", j -> {
                String text = j.has("prompt") ? j.remove("prompt").asText() : null;
                if (text != null) {
                    j.putArray("messages").addObject().put("role", "user").put("content", text);
                } else {
                    ArrayNode messages = (ArrayNode) j.remove("messages");
                    j.put("prompt", messages.get(1).get("content").asText());
                }
            }),
            new Change("maxTokens", j -> j.put("maxTokens", j.get("maxTokens").asInt() + 1)),
            new Change("temperature", j -> j.put("temperature", j.get("temperature").asDouble() + 0.05)),
            new Change("topP", j -> j.put("topP", j.get("topP").asDouble() + 0.05)),
            new Change("responseFormat", j -> {
                String now = j.path("responseFormat").toString();
                j.set("responseFormat", tree(FORMATS.stream().filter(f -> !tree(f).toString().equals(now))
                        .findFirst().orElseThrow()));
            }),
            new Change("seed", j -> {
                if (j.has("seed")) {
                    j.put("seed", j.get("seed").asInt() + 1);
                } else {
                    j.put("seed", 7);
                }
            }));

    private static final List<Change> SPEECH_CHANGES = List.of(
            new Change("prompt", j -> j.put("prompt", j.get("prompt").asText() + ".")),
            new Change("voice", j -> j.put("voice", j.path("voice").asText("vivian") + "x")),
            new Change("language", j -> j.put("language", "Japanese")),
            new Change("speed", j -> j.put("speed", j.path("speed").asDouble(1.0) + 0.05)),
            new Change("instructions", j -> j.put("instructions", j.path("instructions").asText("") + "slow")));

    /** Changes that must not touch any job's key. */
    private static final List<Change> NEUTRAL = List.of(
            new Change("requestId", j -> j.put("requestId", "0b9d7f5e-3c1a-4e8b-8f6d-4a2c0e8b6d4f")),
            new Change("submittedAt", j -> j.put("submittedAt", "2026-12-01T10:00:00Z")),
            new Change("callbackUrl", j -> j.put("callbackUrl", "https://hooks.example.com/done")),
            new Change("ttlSeconds", j -> j.put("ttlSeconds", 600)),
            new Change("route", j -> j.put("route", j.get("task").asText().equals("speech") ? "speech" : "large")),
            new Change("cache flag", j -> j.put("cache", !j.path("cache").asBoolean(false))),
            new Change("priority", j -> j.put("priority", -3)));

    private static final List<Change> NEUTRAL_FOR_TEXT = Stream.concat(NEUTRAL.stream(), Stream.of(
            new Change("priority", j -> j.put("priority", 9)),
            // "text" asks for what no format asks for; a constrained job has none to drop
            new Change("responseFormat text instead of none", j -> {
                if (!j.has("responseFormat")) {
                    j.set("responseFormat", tree("{\"type\":\"text\"}"));
                }
            }))).toList();

    private static final List<Change> NEUTRAL_FOR_SPEECH = Stream.concat(NEUTRAL.stream(), Stream.of(
            new Change("temperature", j -> j.put("temperature", 1.3)),
            new Change("topP", j -> j.put("topP", 0.5)),
            new Change("maxTokens", j -> j.put("maxTokens", 99)))).toList();

    private static ObjectNode base(String task) {
        return JobJson.mapper().createObjectNode().put("requestId", REQUEST_ID).put("task", task);
    }

    private static CacheKey key(ObjectNode job) {
        return CacheKey.of(VERSION, read(job));
    }

    private static CacheKey keyAfter(ObjectNode job, Change change) {
        ObjectNode changed = job.deepCopy();
        change.apply().accept(changed);
        return CacheKey.of(VERSION, read(changed));
    }

    /** The job as a model object, straight from its JSON (also fields its task does not take). */
    private static InferenceJob read(ObjectNode job) {
        return JobJson.read(job.toString(), InferenceJob.class);
    }

    private static InferenceJob parse(ObjectNode job, JobRequestParser.Source source) {
        JobRequestParser.Outcome outcome = PARSER.parse(job, source);
        assertThat(outcome).as(job.toString()).isInstanceOf(JobRequestParser.Outcome.Valid.class);
        return ((JobRequestParser.Outcome.Valid) outcome).job();
    }

    private static JsonNode readTree(byte[] json) {
        try {
            return JobJson.mapper().readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
