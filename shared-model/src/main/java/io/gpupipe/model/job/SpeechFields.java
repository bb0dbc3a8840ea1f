package io.gpupipe.model.job;

import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.FieldReader;
import io.gpupipe.model.Task;
import java.util.List;
import java.util.Optional;

/**
 * The speech options of a job ({@code voice}, {@code language}, {@code speed}, {@code instructions}), each read and
 * judged on its own: given on a job of another task, each is {@code not_applicable}.
 */
public final class SpeechFields {
    public static final int MAX_VOICE_CHARS = 64;
    /** vLLM-Omni's speech API bounds ({@code speed: float = Field(ge=0.25, le=4.0)} in protocol/audio.py). */
    public static final double MIN_SPEED = 0.25;
    public static final double MAX_SPEED = 4.0;
    /** Our bound: vLLM-Omni rejects instructions above a server-configured maximum; we stay well inside it. */
    public static final int MAX_INSTRUCTIONS_CHARS = 500;
    /**
     * The languages of the official Qwen3-TTS checkpoints ("Auto" always accepted), compared case-insensitively and
     * sent title-cased, as vLLM-Omni's Qwen3-TTS adapter does (docs/serving/speech_api.md, "Supported languages").
     */
    public static final List<String> SPEECH_LANGUAGES = List.of("Auto", "Chinese", "English", "Japanese", "Korean",
            "German", "French", "Russian", "Portuguese", "Spanish", "Italian");

    private SpeechFields() {
    }

    static String voice(FieldReader fields, Task task) {
        Optional<String> voice = fields.string("voice");
        if (voice.isEmpty()) {
            return null;
        }
        if (task != Task.SPEECH) {
            fields.error("voice", ErrorCodes.NOT_APPLICABLE, "voice applies only to task \"speech\"");
        } else if (voice.get().isBlank() || voice.get().length() > MAX_VOICE_CHARS) {
            fields.error("voice", ErrorCodes.INVALID_VALUE, "voice must be 1 to " + MAX_VOICE_CHARS
                    + " non-blank characters");
        }
        return voice.get();
    }

    /** The language, title-cased as listed in {@link #SPEECH_LANGUAGES}. */
    static String language(FieldReader fields, Task task) {
        if (!fields.appliesTo("language", task, Task.SPEECH)) {
            return null;
        }
        Optional<String> language = fields.string("language");
        if (language.isEmpty()) {
            return null;
        }
        Optional<String> known = SPEECH_LANGUAGES.stream().filter(l -> l.equalsIgnoreCase(language.get().trim()))
                .findFirst();
        if (known.isEmpty()) {
            fields.error("language", ErrorCodes.INVALID_VALUE, "language must be one of " + SPEECH_LANGUAGES
                    + ", got \"" + language.get() + "\"");
        }
        return known.orElse(null);
    }

    static Double speed(FieldReader fields, Task task) {
        return fields.appliesTo("speed", task, Task.SPEECH) ? fields.number("speed", MIN_SPEED, MAX_SPEED)
                .orElse(null) : null;
    }

    /** The instructions; blank ones are no instructions. */
    static String instructions(FieldReader fields, Task task) {
        if (!fields.appliesTo("instructions", task, Task.SPEECH)) {
            return null;
        }
        Optional<String> instructions = fields.string("instructions");
        if (instructions.isPresent() && instructions.get().length() > MAX_INSTRUCTIONS_CHARS) {
            fields.error("instructions", ErrorCodes.TOO_LONG, "instructions must be at most "
                    + MAX_INSTRUCTIONS_CHARS + " characters, got " + instructions.get().length());
            return null;
        }
        return instructions.filter(text -> !text.isBlank()).orElse(null);
    }
}
