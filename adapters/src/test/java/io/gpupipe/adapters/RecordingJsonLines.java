package io.gpupipe.adapters;

import io.quarkus.test.Mock;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Keeps every line the function writes (and still writes it to stdout). */
@Mock
@ApplicationScoped
public class RecordingJsonLines extends JsonLines {
    private final List<String> lines = new CopyOnWriteArrayList<>();

    @Override
    public void emit(String jsonLine) {
        lines.add(jsonLine);
        super.emit(jsonLine);
    }

    public List<String> lines() {
        return List.copyOf(lines);
    }

    public void clear() {
        lines.clear();
    }
}
