package io.gpupipe.localstack.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Matcher;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** How the launcher learns the port a worker bound ({@code QUARKUS_HTTP_PORT=0}) from its start-up line. */
class WorkerProcessTest {

    static Stream<Arguments> startUpLines() {
        return Stream.of(
                // the line the packaged worker prints (prod profile, plain text)
                Arguments.of("2026-12-02 10:12:35,490 INFO  [io.quarkus] (main) gpu-worker 0.1.0-SNAPSHOT on JVM "
                        + "(powered by Quarkus 3.33.2) started in 12.696s. Listening on: http://127.0.0.1:41409",
                        "41409"),
                // the same message under quarkus-logging-json
                Arguments.of("{\"timestamp\":\"2026-12-02T10:12:35.49Z\",\"level\":\"INFO\",\"message\":\"gpu-worker "
                        + "0.1.0 on JVM started in 12.696s. Listening on: http://127.0.0.1:38001\"}", "38001"));
    }

    @ParameterizedTest
    @MethodSource("startUpLines")
    void listening_shouldReadThePort_whenQuarkusLogsItsAddress(String line, String port) {
        // when
        Matcher m = WorkerProcess.LISTENING.matcher(line);
        // then
        assertThat(m.find()).isTrue();
        assertThat(m.group(1)).isEqualTo(port);
    }

    @Test
    void listening_shouldNotMatch_whenTheLineNamesNoAddress() {
        assertThat(WorkerProcess.LISTENING.matcher("gpu-worker 0.1.0 on JVM started in 12.696s.").find()).isFalse();
    }
}
