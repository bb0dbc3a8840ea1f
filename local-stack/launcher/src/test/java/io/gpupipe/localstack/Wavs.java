package io.gpupipe.localstack;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/** Reads a RIFF/WAVE file's header the way a player would: format chunk, then the data chunk's length. */
final class Wavs {
    private Wavs() {
    }

    /** What the header says. */
    record Info(int channels, int sampleRate, int bitsPerSample, int byteRate, long dataBytes) {
        double durationSeconds() {
            return (double) dataBytes / byteRate;
        }
    }

    /** Parses the header; throws {@link IllegalArgumentException} when the bytes are not a PCM WAV file. */
    static Info parse(byte[] bytes) {
        ByteBuffer in = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        if (bytes.length < 12 || !"RIFF".equals(text(bytes, 0)) || !"WAVE".equals(text(bytes, 8))) {
            throw new IllegalArgumentException("not a RIFF/WAVE file");
        }
        int pos = 12;
        Integer channels = null;
        int sampleRate = 0;
        int byteRate = 0;
        int bits = 0;
        while (pos + 8 <= bytes.length) {
            String id = text(bytes, pos);
            long size = in.getInt(pos + 4) & 0xffffffffL;
            if ("fmt ".equals(id)) {
                channels = (int) in.getShort(pos + 10);
                sampleRate = in.getInt(pos + 12);
                byteRate = in.getInt(pos + 16);
                bits = in.getShort(pos + 22);
            } else if ("data".equals(id)) {
                if (channels == null) {
                    throw new IllegalArgumentException("data chunk before fmt chunk");
                }
                long available = Math.min(size, bytes.length - pos - 8L);
                return new Info(channels, sampleRate, bits, byteRate, available);
            }
            pos += 8 + (int) size + (int) (size & 1);
        }
        throw new IllegalArgumentException("no data chunk");
    }

    private static String text(byte[] bytes, int at) {
        return new String(bytes, at, 4, StandardCharsets.US_ASCII);
    }
}
