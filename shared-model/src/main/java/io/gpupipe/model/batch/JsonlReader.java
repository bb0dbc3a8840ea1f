package io.gpupipe.model.batch;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Reads the lines of a JSONL input (or of a byte range of one) as they stream in, numbering physical lines from
 * {@code firstLine} and skipping blank ones. A line longer than {@code maxLineBytes} is consumed without being held
 * and reported as {@link Line.TooLong}; {@code \r\n} endings are read as {@code \n}. The planner and every chunk read
 * a file through this one reader, so they agree on line numbers and byte offsets.
 */
public final class JsonlReader {
    private static final int BUFFER_BYTES = 64 * 1024;

    private final InputStream in;
    private final int maxLineBytes;
    private final byte[] buffer = new byte[BUFFER_BYTES];
    private int buffered;
    private int position;
    private long offset;
    private int nextNumber;

    /** One non-blank line: its physical number and byte range {@code [start, end)} (the newline included). */
    public sealed interface Line {
        int number();

        long start();

        long end();

        /** A line within the limit, decoded as UTF-8, without its line ending. */
        record Text(int number, long start, long end, String text) implements Line {
        }

        /** A line over the limit, skipped. */
        record TooLong(int number, long start, long end) implements Line {
        }
    }

    /** {@code startOffset}: the file offset of the stream's first byte (a range read starts inside the file). */
    public JsonlReader(InputStream in, int firstLine, long startOffset, int maxLineBytes) {
        this.in = in;
        this.nextNumber = firstLine;
        this.offset = startOffset;
        this.maxLineBytes = maxLineBytes;
    }

    /** The next non-blank line, or empty at the end of the stream. */
    public Optional<Line> next() throws IOException {
        while (true) {
            long start = offset;
            int number = nextNumber;
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            boolean tooLong = false;
            boolean sawAny = false;
            int b;
            while ((b = read()) >= 0) {
                sawAny = true;
                if (b == '\n') {
                    break;
                }
                if (!tooLong) {
                    bytes.write(b);
                    if (bytes.size() > maxLineBytes + 1) {
                        tooLong = true;
                        bytes = new ByteArrayOutputStream();
                    }
                }
            }
            if (!sawAny) {
                return Optional.empty();
            }
            nextNumber++;
            if (tooLong) {
                return Optional.of(new Line.TooLong(number, start, offset));
            }
            String text = new String(bytes.toByteArray(), StandardCharsets.UTF_8);
            if (text.endsWith("\r")) {
                text = text.substring(0, text.length() - 1);
            }
            if (text.length() > maxLineBytes) {
                return Optional.of(new Line.TooLong(number, start, offset));
            }
            if (!text.isBlank()) {
                return Optional.of(new Line.Text(number, start, offset, text));
            }
        }
    }

    /** The file offset after the last byte read. */
    public long offset() {
        return offset;
    }

    private int read() throws IOException {
        if (position == buffered) {
            buffered = in.read(buffer);
            position = 0;
            if (buffered <= 0) {
                buffered = 0;
                return -1;
            }
        }
        offset++;
        return buffer[position++] & 0xff;
    }
}
