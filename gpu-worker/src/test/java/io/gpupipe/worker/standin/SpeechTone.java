package io.gpupipe.worker.standin;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import javax.sound.sampled.AudioFileFormat;
import javax.sound.sampled.AudioFormat;
import javax.sound.sampled.AudioInputStream;
import javax.sound.sampled.AudioSystem;

/**
 * Makes the stand-in's speech: a WAV whose length follows the text (60 ms per character), as TTS output does. Written
 * by the JDK's own WAV writer, not the worker's, so the stand-in needs nothing but its package (the local stack's
 * tests load it from the worker's test-jar alone) and the worker's parser is checked against an independent writer.
 */
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
        AudioFormat format = new AudioFormat(sampleRate, 16, 1, true, false);
        ByteArrayOutputStream out = new ByteArrayOutputStream(44 + pcm.capacity());
        try (AudioInputStream audio = new AudioInputStream(new ByteArrayInputStream(pcm.array()), format, samples)) {
            AudioSystem.write(audio, AudioFileFormat.Type.WAVE, out);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the stand-in's WAV", e);
        }
        return out.toByteArray();
    }
}
