package io.gpupipe.model.batch;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.model.BatchIds;
import io.gpupipe.model.BatchLimits;
import io.gpupipe.model.ChatRole;
import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.FieldError;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.job.BatchMember;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobRequestParser;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The OpenAI example file (src/test/resources/batches/openai-example.jsonl, see its README) line by line. */
class BatchLineParserTest {
    private static final String BATCH = BatchIds.newBatchId(UUID.fromString("1b7e2c4d-9a3f-4e8b-8c6d-2f5a1e9b3c7d"));
    private static final int TTL = 86_400;

    @Test
    void parse_shouldMakeJobsOfTheOpenAiExamples_andErrorLinesOfTheRest() throws IOException {
        // when
        Map<Integer, ParsedLine> lines = parseExampleFile();

        // then: OpenAI's three example requests are chat jobs with the OpenAI fields mapped onto ours
        assertThat(lines.keySet()).containsExactly(1, 2, 3, 4, 5, 6, 7, 9, 10);
        InferenceJob first = ((ParsedLine.Job) lines.get(1)).job();
        assertThat(first.requestId()).isEqualTo(BatchIds.jobId(BATCH, 1));
        assertThat(first.task()).isEqualTo(Task.GENERATE);
        assertThat(first.messages()).extracting(m -> m.role()).containsExactly(ChatRole.SYSTEM, ChatRole.USER);
        assertThat(first.messages().get(1).content()).isEqualTo("Hello world!");
        assertThat(first.maxTokens()).isEqualTo(1000);
        assertThat(first.route()).as("an OpenAI model name is no tier: routing decides").isNull();
        assertThat(first.ttlSeconds()).isEqualTo(TTL);
        assertThat(first.batch()).isEqualTo(new BatchMember(BATCH, 0, 1, 10));
        assertThat(((ParsedLine.Job) lines.get(3)).job().maxTokens()).isEqualTo(InferenceJob.DEFAULT_MAX_TOKENS);
        assertThat(lines.get(2)).isInstanceOf(ParsedLine.Job.class);
        // and every other line is an error line naming the OpenAI parameter or the line's fault
        assertThat(error(lines, 4).fieldErrors()).extracting(FieldError::field, FieldError::code)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("max_tokens", ErrorCodes.OUT_OF_RANGE));
        assertThat(error(lines, 4).fieldErrors().get(0).message()).startsWith("max_tokens must be between 1 and");
        assertThat(error(lines, 5).fieldErrors()).extracting(FieldError::field).containsExactly("messages[0].role");
        assertThat(error(lines, 6).code()).isEqualTo(LineError.DUPLICATE_CUSTOM_ID);
        assertThat(error(lines, 6).message()).contains("line 1");
        assertThat(error(lines, 7).code()).isEqualTo(LineError.INVALID_URL);
        assertThat(error(lines, 9).code()).isEqualTo(LineError.INVALID_JSON);
        assertThat(lines.get(9).customId()).isNull();
        assertThat(error(lines, 10).code()).isEqualTo(LineError.INVALID_CUSTOM_ID);
    }

    @Test
    void parse_shouldMapCompletionAndSpeechBodies_andTakeATierNamedAsModel() {
        // given
        BatchLineParser completions = parser(BatchEndpoint.COMPLETIONS);
        BatchLineParser speech = parser(BatchEndpoint.SPEECH);

        // when
        InferenceJob text = job(completions.parse(text(1, "{\"custom_id\":\"c\",\"method\":\"POST\",\"url\":"
                + "\"/v1/completions\",\"body\":{\"model\":\"large\",\"prompt\":\"Once upon a time\",\"max_tokens\":"
                + "32,\"temperature\":0,\"top_p\":0.5}}"), Optional.empty()));
        InferenceJob voice = job(speech.parse(text(2, "{\"custom_id\":\"s\",\"method\":\"POST\",\"url\":"
                + "\"/v1/audio/speech\",\"body\":{\"model\":\"tts-1\",\"input\":\"Hello there.\",\"voice\":\"vivian\","
                + "\"speed\":1.5,\"language\":\"english\",\"instructions\":\"calm\",\"response_format\":\"wav\"}}"),
                Optional.empty()));

        // then
        assertThat(text.prompt()).isEqualTo("Once upon a time");
        assertThat(text.maxTokens()).isEqualTo(32);
        assertThat(text.temperature()).isZero();
        assertThat(text.topP()).isEqualTo(0.5);
        assertThat(text.route()).isEqualTo(Tier.of("large"));
        assertThat(voice.task()).isEqualTo(Task.SPEECH);
        assertThat(voice.prompt()).isEqualTo("Hello there.");
        assertThat(voice.voice()).isEqualTo("vivian");
        assertThat(voice.speed()).isEqualTo(1.5);
        assertThat(voice.language()).isEqualTo("English");
        assertThat(voice.instructions()).isEqualTo("calm");
        assertThat(voice.route()).isNull();
    }

    @Test
    void parse_shouldNameTheBodysParameters_whenTheValidatorRefusesIt() {
        // when
        LineError speech = ((ParsedLine.Invalid) parser(BatchEndpoint.SPEECH).parse(text(1, "{\"custom_id\":\"s\","
                + "\"method\":\"POST\",\"url\":\"/v1/audio/speech\",\"body\":{\"input\":\" \",\"speed\":9,"
                + "\"response_format\":\"mp3\"}}"), Optional.empty())).error();
        LineError chat = ((ParsedLine.Invalid) parser(BatchEndpoint.CHAT_COMPLETIONS).parse(text(2, "{\"custom_id\":"
                + "\"c\",\"method\":\"POST\",\"url\":\"/v1/chat/completions\",\"body\":{\"max_completion_tokens\":"
                + "\"9\",\"top_p\":3}}"), Optional.empty())).error();
        LineError method = ((ParsedLine.Invalid) parser(BatchEndpoint.CHAT_COMPLETIONS).parse(text(3, "{\"custom_id\":"
                + "\"c\",\"method\":\"GET\",\"url\":\"/v1/chat/completions\",\"body\":{}}"), Optional.empty())).error();

        // then
        assertThat(speech.fieldErrors()).extracting(FieldError::field)
                .containsExactlyInAnyOrder("response_format", "input", "speed");
        assertThat(speech.fieldErrors()).filteredOn(e -> e.field().equals("input")).extracting(FieldError::message)
                .containsExactly("input is required and must not be empty");
        assertThat(chat.fieldErrors()).extracting(FieldError::field)
                .containsExactlyInAnyOrder("messages", "max_completion_tokens", "top_p");
        assertThat(chat.isRejectedRequest()).isTrue();
        assertThat(method.code()).isEqualTo(LineError.INVALID_METHOD);
        assertThat(method.isRejectedRequest()).isFalse();
    }

    @Test
    void parse_shouldReportALongLine_withoutReadingIt() {
        // when
        ParsedLine parsed = parser(BatchEndpoint.COMPLETIONS).parse(new JsonlReader.Line.TooLong(4, 0, 10),
                Optional.empty());

        // then
        assertThat(((ParsedLine.Invalid) parsed).error().code()).isEqualTo(LineError.LINE_TOO_LONG);
    }

    private static Map<Integer, ParsedLine> parseExampleFile() throws IOException {
        BatchLineParser parser = parser(BatchEndpoint.CHAT_COMPLETIONS);
        List<JsonlReader.Line> lines = new ArrayList<>();
        try (InputStream in = BatchLineParserTest.class.getResourceAsStream("/batches/openai-example.jsonl")) {
            JsonlReader reader = new JsonlReader(in, 1, 0, BatchLimits.MAX_LINE_BYTES);
            for (var next = reader.next(); next.isPresent(); next = reader.next()) {
                lines.add(next.get());
            }
        }
        Map<Integer, Integer> duplicates = Map.of(6, 1);
        return lines.stream().map(l -> parser.parse(l, Optional.ofNullable(duplicates.get(l.number()))))
                .collect(Collectors.toMap(ParsedLine::line, Function.identity(), (a, b) -> a,
                        java.util.TreeMap::new));
    }

    private static BatchLineParser parser(BatchEndpoint endpoint) {
        return new BatchLineParser(new JobRequestParser(), endpoint, BATCH, TTL,
                line -> new BatchMember(BATCH, 0, line, 10));
    }

    private static LineError error(Map<Integer, ParsedLine> lines, int line) {
        return ((ParsedLine.Invalid) lines.get(line)).error();
    }

    private static InferenceJob job(ParsedLine parsed) {
        assertThat(parsed).as(parsed.toString()).isInstanceOf(ParsedLine.Job.class);
        return ((ParsedLine.Job) parsed).job();
    }

    private static JsonlReader.Line text(int number, String text) {
        return new JsonlReader.Line.Text(number, 0, text.length(), text);
    }
}
