package io.gpupipe.worker.backend.embedded;

import com.sun.speech.freetts.Voice;
import com.sun.speech.freetts.VoiceManager;
import io.gpupipe.worker.consumption.ModelFailure;
import io.gpupipe.worker.backend.ModelException;
import io.gpupipe.worker.backend.SpeechAudio;
import io.gpupipe.worker.backend.Wav;
import java.util.Arrays;
import java.util.stream.Collectors;

/** Speech synthesis with FreeTTS (pure Java, CPU): kevin16 is a 16 kHz mono voice. One voice, one job at a time. */
final class FreeTtsSpeech {
    static final String VOICES_PROPERTY = "freetts.voices";
    static final String KEVIN_DIRECTORY = "com.sun.speech.freetts.en.us.cmu_us_kal.KevinVoiceDirectory";

    private final Voice voice;

    FreeTtsSpeech(String voiceName) {
        if (System.getProperty(VOICES_PROPERTY) == null) {
            System.setProperty(VOICES_PROPERTY, KEVIN_DIRECTORY);
        }
        VoiceManager manager = VoiceManager.getInstance();
        Voice found = manager.getVoice(voiceName);
        if (found == null) {
            String available = Arrays.stream(manager.getVoices()).map(Voice::getName)
                    .collect(Collectors.joining(", "));
            throw new IllegalStateException("FreeTTS voice '" + voiceName + "' not found (gpupipe.worker.embedded"
                    + ".voice); available: " + available);
        }
        found.allocate();
        this.voice = found;
    }

    synchronized SpeechAudio speak(String text) {
        PcmCapture capture = new PcmCapture();
        voice.setAudioPlayer(capture);
        if (!voice.speak(text)) {
            throw new ModelException(ModelFailure.permanent("FreeTTS could not synthesize the prompt"));
        }
        byte[] pcm = capture.littleEndianPcm16();
        byte[] wav = Wav.pcm16(pcm, capture.sampleRate(), 1);
        return new SpeechAudio(wav, capture.sampleRate(), pcm.length / 2 * 1000L / capture.sampleRate());
    }

    void close() {
        voice.deallocate();
    }
}
