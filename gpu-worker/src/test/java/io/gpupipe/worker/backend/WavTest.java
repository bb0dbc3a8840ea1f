package io.gpupipe.worker.backend;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class WavTest {

    @Test
    void pcm16_shouldWriteAHeaderThatParseReadsBack() {
        // given one second of 16 kHz mono silence
        byte[] samples = new byte[32_000];
        // when
        byte[] wav = Wav.pcm16(samples, 16_000, 1);
        // then
        assertThat(wav).hasSize(Wav.HEADER_BYTES + samples.length);
        assertThat(new String(wav, 0, 4, StandardCharsets.US_ASCII)).isEqualTo("RIFF");
        Wav.Info info = Wav.parse(wav).orElseThrow();
        assertThat(info.sampleRate()).isEqualTo(16_000);
        assertThat(info.channels()).isEqualTo(1);
        assertThat(info.bitsPerSample()).isEqualTo(16);
        assertThat(info.dataBytes()).isEqualTo(32_000);
        assertThat(info.durationMs(wav.length)).isEqualTo(1000);
        assertThat(info.declaredDurationMs()).isEqualTo(1000);
    }

    @Test
    void parse_shouldSkipExtraChunks_andTrustFileLength_whenHeaderLeavesSizeOpen() {
        // given a streamed WAV (data size 0xFFFFFFFF) with a LIST chunk before data, 0.5 s of 24 kHz audio
        ByteBuffer buf = ByteBuffer.allocate(12 + 24 + 8 + 4 + 8 + 24_000).order(ByteOrder.LITTLE_ENDIAN);
        buf.put("RIFF".getBytes(StandardCharsets.US_ASCII)).putInt(-1).put("WAVE".getBytes(StandardCharsets.US_ASCII));
        buf.put("fmt ".getBytes(StandardCharsets.US_ASCII)).putInt(16).putShort((short) 1).putShort((short) 1)
                .putInt(24_000).putInt(48_000).putShort((short) 2).putShort((short) 16);
        buf.put("LIST".getBytes(StandardCharsets.US_ASCII)).putInt(4).put("INFO".getBytes(StandardCharsets.US_ASCII));
        buf.put("data".getBytes(StandardCharsets.US_ASCII)).putInt(-1);
        byte[] wav = buf.array();
        // when
        Wav.Info info = Wav.parse(wav).orElseThrow();
        // then
        assertThat(info.dataBytes()).isEqualTo(-1);
        assertThat(info.durationMs(wav.length)).isEqualTo(500);
    }

    @Test
    void parse_shouldBeEmpty_whenNotWav() {
        assertThat(Wav.parse("{\"error\":\"oops\"}".getBytes(StandardCharsets.UTF_8))).isEmpty();
        assertThat(Wav.parse(new byte[0])).isEmpty();
    }
}
