package io.gpupipe.worker.standin;

import io.gpupipe.worker.backend.Wav;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Makes the stand-in's speech: a WAV whose length follows the text (60 ms per character), as TTS output does. */
final class SpeechTone {
    static final int MS_PER_CHAR = 60;

    private SpeechTone() {
    }

    static byte[] wav(String text, int sampleRate) {
        int samples = Math.max(1, text.length()) * MS_PER_CHAR * sampleRate / 1000;
        ByteBuffer pcm = ByteBuffer.allocate(samples * 2).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < samples; i++) {
            pcm.putShort((short) (3000 * Math.sin(2 * Math.PI * 220 * i / sampleRate)));
        }
        return Wav.pcm16(pcm.array(), sampleRate, 1);
    }
}
