package io.gpupipe.worker;

/** Where job events go: stdout in production ({@link StdoutJobEvents}), a list in tests. */
@FunctionalInterface
public interface JobEvents {
    void emit(JobEvent event);
}
