package io.gpupipe.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpupipe.localstack.StackCloser.Stage;
import io.gpupipe.localstack.exception.StartupException;
import io.gpupipe.localstack.internal.Console;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The closer stops by stage (API first, files last), within a stage in reverse start order, and never twice. */
class StackCloserTest {
    private final ByteArrayOutputStream output = new ByteArrayOutputStream();
    private final StackCloser closer = new StackCloser(new Console(new PrintStream(output, true,
            StandardCharsets.UTF_8)));
    private final List<String> stopped = new CopyOnWriteArrayList<>();

    @Test
    void close_shouldStopByStage_andWithinAStageInReverseStartOrder() {
        // given: components handed over in the order a start makes them
        closer.add(Stage.FILES, "run dir", stopped::add);
        closer.add(Stage.STORAGE, "sqs and s3", stopped::add);
        closer.add(Stage.FUNCTIONS, "router", stopped::add);
        closer.add(Stage.FUNCTIONS, "notifier", stopped::add);
        closer.add(Stage.WORKERS, "workers", stopped::add);
        closer.add(Stage.API, "api", stopped::add);
        closer.add(Stage.EVENTS, "s3 events", stopped::add);
        closer.add(Stage.CONSOLE, "console", stopped::add);

        // when
        closer.close();
        closer.close();

        // then: the API before the workers drain, the events after, SQS/S3 and files last; each once
        assertThat(stopped).containsExactly("api", "console", "workers", "s3 events", "notifier", "router",
                "sqs and s3", "run dir");
        assertThat(output.toString(StandardCharsets.UTF_8)).contains("draining workers");
    }

    @Test
    void close_shouldStopTheRest_whenOneStopFails() {
        closer.add(Stage.API, "api", name -> {
            throw new IllegalStateException("cannot stop " + name);
        });
        closer.add(Stage.STORAGE, "sqs and s3", stopped::add);

        closer.close();

        assertThat(stopped).containsExactly("sqs and s3");
        assertThat(output.toString(StandardCharsets.UTF_8)).contains("cannot stop api");
    }

    @Test
    void add_afterClose_shouldStopTheComponentAtOnce_andStopTheStart() {
        // given: a stop (a signal) while a start was still running
        closer.close();

        // when, then: what that start makes next is stopped at once, and the start gives up
        assertThatThrownBy(() -> closer.add(Stage.FUNCTIONS, "late function", stopped::add))
                .isInstanceOf(StartupException.class).hasMessageContaining("stopped while starting");
        assertThat(stopped).containsExactly("late function");
        assertThatThrownBy(closer::ensureOpen).isInstanceOf(StartupException.class);
    }
}
