package io.gpupipe.worker.standin;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeSet;

/**
 * vLLM-Omni's {@code POST /v1/audio/speech} request checks for a Qwen3-TTS CustomVoice checkpoint, with its messages
 * (each an HTTP 400 BadRequestError). Sources: vllm_omni/entrypoints/openai/protocol/audio.py
 * ({@code OpenAICreateSpeechRequest}: {@code response_format: Literal["wav","pcm","flac","mp3","aac","opus"]},
 * {@code speed: Field(ge=0.25, le=4.0)}), tts_adapters/qwen3_tts.py {@code validate} (empty input, language
 * title-cased against the checkpoint's languages, voice lower-cased against its speakers, instructions length) and
 * docs/serving/speech_api.md (speakers, languages; output 24 kHz). Request-model errors are FastAPI validation
 * errors, which vLLM answers as 400 too; their text is abbreviated here.
 */
final class SpeechContract {
    static final List<String> SPEAKERS = List.of("aiden", "dylan", "eric", "ono_anna", "ryan", "serena", "sohee",
            "uncle_fu", "vivian");
    static final List<String> LANGUAGES = List.of("Auto", "Chinese", "English", "Japanese", "Korean", "German",
            "French", "Russian", "Portuguese", "Spanish", "Italian");
    static final List<String> FORMATS = List.of("wav", "pcm", "flac", "mp3", "aac", "opus");
    /** vLLM-Omni's server-side instructions limit (a server setting; this stand-in serves with 500). */
    static final int MAX_INSTRUCTIONS = 500;

    private SpeechContract() {
    }

    static Optional<String> reject(JsonNode body) {
        String format = body.path("response_format").asText("wav");
        if (!FORMATS.contains(format)) {
            return Optional.of("1 validation error for OpenAICreateSpeechRequest\nresponse_format\n  Input should be "
                    + "'wav', 'pcm', 'flac', 'mp3', 'aac' or 'opus'");
        }
        JsonNode speed = body.path("speed");
        if (speed.isNumber() && speed.doubleValue() < 0.25) {
            return Optional.of("1 validation error for OpenAICreateSpeechRequest\nspeed\n  Input should be greater "
                    + "than or equal to 0.25");
        }
        if (speed.isNumber() && speed.doubleValue() > 4.0) {
            return Optional.of("1 validation error for OpenAICreateSpeechRequest\nspeed\n  Input should be less than "
                    + "or equal to 4");
        }
        if (body.path("input").asText("").isBlank()) {
            return Optional.of("Input text cannot be empty");
        }
        if (body.hasNonNull("language")) {
            String language = titleCase(body.path("language").asText());
            if (!LANGUAGES.contains(language)) {
                return Optional.of("Invalid language '" + language + "'. Supported: "
                        + String.join(", ", new TreeSet<>(LANGUAGES)));
            }
        }
        if (body.hasNonNull("voice")) {
            String voice = body.path("voice").asText().toLowerCase(Locale.ROOT);
            if (!SPEAKERS.contains(voice)) {
                return Optional.of("Invalid voice '" + voice + "'. Supported: " + String.join(", ", SPEAKERS));
            }
        }
        if (body.path("instructions").asText("").length() > MAX_INSTRUCTIONS) {
            return Optional.of("Instructions too long (max " + MAX_INSTRUCTIONS + " characters)");
        }
        return Optional.empty();
    }

    /** Python's {@code str.title()} for one word. */
    private static String titleCase(String word) {
        return word.isEmpty() ? word : word.substring(0, 1).toUpperCase(Locale.ROOT)
                + word.substring(1).toLowerCase(Locale.ROOT);
    }
}
