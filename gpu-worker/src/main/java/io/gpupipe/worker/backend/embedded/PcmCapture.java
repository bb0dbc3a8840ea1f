package io.gpupipe.worker.backend.embedded;

import com.sun.speech.freetts.audio.AudioPlayer;
import java.io.ByteArrayOutputStream;
import javax.sound.sampled.AudioFormat;

/** A FreeTTS audio "player" that keeps the synthesized samples in memory instead of playing or filing them. */
final class PcmCapture implements AudioPlayer {
    private final ByteArrayOutputStream samples = new ByteArrayOutputStream();
    private AudioFormat format;

    @Override
    public synchronized void setAudioFormat(AudioFormat format) {
        this.format = format;
    }

    @Override
    public synchronized AudioFormat getAudioFormat() {
        return format;
    }

    /** The samples as little-endian signed 16-bit PCM, as WAV wants them. */
    synchronized byte[] littleEndianPcm16() {
        if (format == null || format.getSampleSizeInBits() != 16 || format.getChannels() != 1) {
            throw new IllegalStateException("FreeTTS produced an unexpected audio format: " + format);
        }
        byte[] bytes = samples.toByteArray();
        if (format.isBigEndian()) {
            for (int i = 0; i + 1 < bytes.length; i += 2) {
                byte high = bytes[i];
                bytes[i] = bytes[i + 1];
                bytes[i + 1] = high;
            }
        }
        return bytes;
    }

    synchronized int sampleRate() {
        return (int) format.getSampleRate();
    }

    @Override
    public synchronized boolean write(byte[] audioData) {
        return write(audioData, 0, audioData.length);
    }

    @Override
    public synchronized boolean write(byte[] audioData, int offset, int size) {
        samples.write(audioData, offset, size);
        return true;
    }

    @Override
    public void begin(int size) {
        // one utterance after another: keep appending
    }

    @Override
    public boolean end() {
        return true;
    }

    @Override
    public boolean drain() {
        return true;
    }

    @Override
    public void pause() {
        // nothing plays
    }

    @Override
    public void resume() {
        // nothing plays
    }

    @Override
    public void reset() {
        // nothing plays
    }

    @Override
    public void cancel() {
        // nothing plays
    }

    @Override
    public void close() {
        // memory only
    }

    @Override
    public float getVolume() {
        return 1.0f;
    }

    @Override
    public void setVolume(float volume) {
        // not applicable
    }

    @Override
    public long getTime() {
        return 0;
    }

    @Override
    public void resetTime() {
        // not applicable
    }

    @Override
    public void startFirstSampleTimer() {
        // not applicable
    }

    @Override
    public void showMetrics() {
        // not applicable
    }
}
