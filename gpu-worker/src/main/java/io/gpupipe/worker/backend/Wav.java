package io.gpupipe.worker.backend;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/** Writes 16-bit PCM as a RIFF/WAVE file and reads the format of one from its header. */
public final class Wav {
    public static final int HEADER_BYTES = 44;

    private Wav() {
    }

    /** The format of a WAV file; {@code dataBytes} is -1 when the header leaves the length open (streamed WAV). */
    public record Info(int sampleRate, int channels, int bitsPerSample, long dataBytes, int dataOffset) {

        /** Duration of the audio in a file of {@code fileLength} bytes (trusting the file over an open header). */
        public long durationMs(long fileLength) {
            long available = Math.max(0, fileLength - dataOffset);
            long data = dataBytes < 0 ? available : Math.min(dataBytes, available);
            long bytesPerSecond = (long) sampleRate * channels * Math.max(1, bitsPerSample / 8);
            return bytesPerSecond == 0 ? 0 : data * 1000 / bytesPerSecond;
        }

        /** Duration as the header declares it (for a stored file read back by its header only). */
        public long declaredDurationMs() {
            return dataBytes < 0 ? 0 : durationMs(dataOffset + dataBytes);
        }
    }

    /** A WAV file of little-endian signed 16-bit PCM samples. */
    public static byte[] pcm16(byte[] littleEndianSamples, int sampleRate, int channels) {
        int blockAlign = channels * 2;
        ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        header.put("RIFF".getBytes(StandardCharsets.US_ASCII)).putInt(36 + littleEndianSamples.length)
                .put("WAVE".getBytes(StandardCharsets.US_ASCII))
                .put("fmt ".getBytes(StandardCharsets.US_ASCII)).putInt(16).putShort((short) 1)
                .putShort((short) channels).putInt(sampleRate).putInt(sampleRate * blockAlign)
                .putShort((short) blockAlign).putShort((short) 16)
                .put("data".getBytes(StandardCharsets.US_ASCII)).putInt(littleEndianSamples.length);
        ByteArrayOutputStream out = new ByteArrayOutputStream(HEADER_BYTES + littleEndianSamples.length);
        out.writeBytes(header.array());
        out.writeBytes(littleEndianSamples);
        return out.toByteArray();
    }

    /** Reads the {@code fmt } and {@code data} chunk headers; empty when the bytes are not a WAV file. */
    public static Optional<Info> parse(byte[] bytes) {
        if (bytes == null || bytes.length < 12 || !ascii(bytes, 0, "RIFF") || !ascii(bytes, 8, "WAVE")) {
            return Optional.empty();
        }
        ByteBuffer buf = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        int pos = 12;
        int sampleRate = 0;
        int channels = 0;
        int bits = 0;
        while (pos + 8 <= bytes.length) {
            long size = Integer.toUnsignedLong(buf.getInt(pos + 4));
            if (ascii(bytes, pos, "fmt ") && pos + 24 <= bytes.length) {
                channels = buf.getShort(pos + 10);
                sampleRate = buf.getInt(pos + 12);
                bits = buf.getShort(pos + 22);
            } else if (ascii(bytes, pos, "data")) {
                if (sampleRate <= 0 || channels <= 0) {
                    return Optional.empty();
                }
                long dataBytes = size == 0xFFFFFFFFL || size == 0 ? -1 : size;
                return Optional.of(new Info(sampleRate, channels, bits, dataBytes, pos + 8));
            }
            pos += 8 + (int) Math.min(size + (size & 1), Integer.MAX_VALUE - pos - 8);
        }
        return Optional.empty();
    }

    private static boolean ascii(byte[] bytes, int offset, String tag) {
        return offset + 4 <= bytes.length
                && new String(bytes, offset, 4, StandardCharsets.US_ASCII).equals(tag);
    }
}
