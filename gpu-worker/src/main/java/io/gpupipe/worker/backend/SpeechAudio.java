package io.gpupipe.worker.backend;

/** Synthesized speech as a complete WAV file, with its sample rate and duration. */
public record SpeechAudio(byte[] wav, int sampleRate, long durationMs) {

    public static SpeechAudio of(byte[] wav) {
        Wav.Info info = Wav.parse(wav).orElseThrow(() -> new ModelException(
                io.gpupipe.worker.consumption.ModelFailure.permanent("model server returned audio that is not WAV")));
        return new SpeechAudio(wav, info.sampleRate(), info.durationMs(wav.length));
    }
}
