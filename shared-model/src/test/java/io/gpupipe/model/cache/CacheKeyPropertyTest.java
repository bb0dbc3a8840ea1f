package io.gpupipe.model.cache;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpupipe.model.InferenceJob;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.JobMessage;
import io.gpupipe.model.JobRequestParser;
import java.util.UUID;
import java.util.function.Consumer;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The cache key covers exactly the output-affecting fields: changing any of them changes the key, changing anything
 * else (identity, delivery, scheduling, and the other task's parameters) never does, and a job keeps its key through
 * the queue message the router sends and the worker parses.
 */
class CacheKeyPropertyTest {
    private static final String VERSION = "TheBloke/Mistral-7B-Instruct-v0.2-AWQ@" + "a".repeat(40) + "+small-1";
    private static final JobRequestParser PARSER = new JobRequestParser();

    /** One change to a job's JSON, named for the failure message. */
    record Change(String name, Consumer<ObjectNode> apply) {
        @Override
        public String toString() {
            return name;
        }
    }

    @Property(tries = 200)
    void key_shouldChange_whenAnOutputAffectingFieldOfATextJobChanges(@ForAll("textJobs") ObjectNode job,
                                                                       @ForAll("textChanges") Change change) {
        assertThat(keyAfter(job, change)).as(change.name()).isNotEqualTo(key(job));
    }

    @Property(tries = 200)
    void key_shouldChange_whenAnOutputAffectingFieldOfASpeechJobChanges(@ForAll("speechJobs") ObjectNode job,
                                                                         @ForAll("speechChanges") Change change) {
        assertThat(keyAfter(job, change)).as(change.name()).isNotEqualTo(key(job));
    }

    @Property(tries = 200)
    void key_shouldStayTheSame_whenOnlyOtherFieldsOfATextJobChange(@ForAll("textJobs") ObjectNode job,
                                                                   @ForAll("neutralForText") Change change) {
        assertThat(keyAfter(job, change)).as(change.name()).isEqualTo(key(job));
    }

    @Property(tries = 200)
    void key_shouldStayTheSame_whenOnlyOtherFieldsOfASpeechJobChange(@ForAll("speechJobs") ObjectNode job,
                                                                     @ForAll("neutralForSpeech") Change change) {
        assertThat(keyAfter(job, change)).as(change.name()).isEqualTo(key(job));
    }

    @Property(tries = 200)
    void key_shouldChange_whenTheModelVersionChanges(@ForAll("textJobs") ObjectNode job) {
        InferenceJob parsed = read(job);
        assertThat(CacheKey.of(VERSION + "2", parsed)).isNotEqualTo(CacheKey.of(VERSION, parsed));
    }

    @Property(tries = 200)
    void key_shouldBeTheSameOnTheWorker_whenTheJobTravelsAsTheRoutersQueueMessage(
            @ForAll("anyJobs") ObjectNode job) {
        // given: what the router accepted, as the worker reads it from the queue
        InferenceJob accepted = parse(job, JobRequestParser.Source.API);
        InferenceJob received = parse((ObjectNode) readTree(JobMessage.inline(accepted)),
                JobRequestParser.Source.QUEUE);
        // then
        assertThat(CacheKey.of(VERSION, received)).isEqualTo(CacheKey.of(VERSION, accepted));
    }

    @Provide
    Arbitrary<ObjectNode> textJobs() {
        Arbitrary<String> prompts = Arbitraries.strings().ofMinLength(1).ofMaxLength(40).filter(p -> !p.isBlank());
        return Combinators.combine(prompts, Arbitraries.integers().between(1, 2047),
                Arbitraries.doubles().between(0, 1.9).ofScale(2), Arbitraries.doubles().between(0, 0.9).ofScale(2),
                Arbitraries.integers().between(0, Integer.MAX_VALUE - 1).injectNull(0.3),
                Arbitraries.of(true, false)).as((prompt, maxTokens, temperature, topP, seed, chat) -> {
                    ObjectNode job = base("generate");
                    if (chat) {
                        ArrayNode messages = job.putArray("messages");
                        messages.addObject().put("role", "system").put("content", "You are brief.");
                        messages.addObject().put("role", "user").put("content", prompt);
                    } else {
                        job.put("prompt", prompt);
                    }
                    job.put("maxTokens", maxTokens).put("temperature", temperature).put("topP", topP);
                    if (seed != null) {
                        job.put("seed", seed);
                    }
                    return job;
                });
    }

    @Provide
    Arbitrary<ObjectNode> speechJobs() {
        Arbitrary<String> texts = Arbitraries.strings().ofMinLength(1).ofMaxLength(40).filter(p -> !p.isBlank());
        return Combinators.combine(texts, Arbitraries.of("vivian", "ryan", "aiden").injectNull(0.3),
                Arbitraries.of("English", "German", "Auto").injectNull(0.3),
                Arbitraries.doubles().between(0.25, 3.9).ofScale(2).injectNull(0.3),
                Arbitraries.of("calm", "cheerful").injectNull(0.3)).as((text, voice, language, speed, style) -> {
                    ObjectNode job = base("speech").put("prompt", text);
                    putIfPresent(job, "voice", voice);
                    putIfPresent(job, "language", language);
                    if (speed != null) {
                        job.put("speed", speed);
                    }
                    putIfPresent(job, "instructions", style);
                    return job;
                });
    }

    @Provide
    Arbitrary<ObjectNode> anyJobs() {
        return Arbitraries.oneOf(textJobs(), speechJobs());
    }

    @Provide
    Arbitrary<Change> textChanges() {
        return Arbitraries.of(
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
                new Change("seed", j -> {
                    if (j.has("seed")) {
                        j.put("seed", j.get("seed").asInt() + 1);
                    } else {
                        j.put("seed", 7);
                    }
                }));
    }

    @Provide
    Arbitrary<Change> speechChanges() {
        return Arbitraries.of(
                new Change("prompt", j -> j.put("prompt", j.get("prompt").asText() + ".")),
                new Change("voice", j -> j.put("voice", j.path("voice").asText("vivian") + "x")),
                new Change("language", j -> j.put("language", "Japanese")),
                new Change("speed", j -> j.put("speed", j.path("speed").asDouble(1.0) + 0.05)),
                new Change("instructions", j -> j.put("instructions", j.path("instructions").asText("") + "slow")));
    }

    @Provide
    Arbitrary<Change> neutralForText() {
        return Arbitraries.oneOf(neutral(), Arbitraries.of(
                new Change("priority", j -> j.put("priority", 9))));
    }

    @Provide
    Arbitrary<Change> neutralForSpeech() {
        return Arbitraries.oneOf(neutral(), Arbitraries.of(
                new Change("temperature", j -> j.put("temperature", 1.3)),
                new Change("topP", j -> j.put("topP", 0.5)),
                new Change("maxTokens", j -> j.put("maxTokens", 99))));
    }

    private Arbitrary<Change> neutral() {
        return Arbitraries.of(
                new Change("requestId", j -> j.put("requestId", UUID.randomUUID().toString())),
                new Change("submittedAt", j -> j.put("submittedAt", "2026-12-01T10:00:00Z")),
                new Change("callbackUrl", j -> j.put("callbackUrl", "https://hooks.example.com/done")),
                new Change("ttlSeconds", j -> j.put("ttlSeconds", 600)),
                new Change("route", j -> j.put("route", j.get("task").asText().equals("speech") ? "speech"
                        : "large")),
                new Change("cache flag", j -> j.put("cache", !j.path("cache").asBoolean(false))),
                new Change("priority", j -> j.put("priority", -3)));
    }

    private static ObjectNode base(String task) {
        return JobJson.mapper().createObjectNode().put("requestId", UUID.randomUUID().toString()).put("task", task);
    }

    private static void putIfPresent(ObjectNode job, String field, String value) {
        if (value != null) {
            job.put(field, value);
        }
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

    private static com.fasterxml.jackson.databind.JsonNode readTree(String json) {
        try {
            return JobJson.mapper().readTree(json);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
