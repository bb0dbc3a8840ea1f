package io.gpupipe.localstack.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Matcher;
import org.junit.jupiter.api.Test;

/** How the launcher learns the port a worker bound ({@code QUARKUS_HTTP_PORT=0}) from its start-up line. */
class WorkerProcessTest {

    @Test
    void listening_shouldReadThePort_whenQuarkusLogsItsAddressInPlainText() {
        // given: the line the packaged worker prints (gpu-worker, prod profile)
        String line = "2026-12-02 10:12:35,490 INFO  [io.quarkus] (main) gpu-worker 0.1.0-SNAPSHOT on JVM (powered by "
                + "Quarkus 3.33.2) started in 12.696s. Listening on: http://127.0.0.1:41409";
        // when
        Matcher m = WorkerProcess.LISTENING.matcher(line);
        // then
        assertThat(m.find()).isTrue();
        assertThat(m.group(1)).isEqualTo("41409");
    }

    @Test
    void listening_shouldReadThePort_whenTheLogIsJson() {
        // given: the same message under quarkus-logging-json
        String line = "{\"timestamp\":\"2026-12-02T10:12:35.49Z\",\"level\":\"INFO\",\"message\":\"gpu-worker 0.1.0 on JVM "
                + "started in 12.696s. Listening on: http://127.0.0.1:38001\",\"loggerName\":\"io.quarkus\"}";
        // when
        Matcher m = WorkerProcess.LISTENING.matcher(line);
        // then
        assertThat(m.find()).isTrue();
        assertThat(m.group(1)).isEqualTo("38001");
    }

    @Test
    void listening_shouldNotMatch_whenTheLineNamesNoAddress() {
        assertThat(WorkerProcess.LISTENING.matcher("gpu-worker 0.1.0 on JVM started in 12.696s.").find()).isFalse();
    }
}
