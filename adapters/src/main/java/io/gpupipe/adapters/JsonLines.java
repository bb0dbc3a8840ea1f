package io.gpupipe.adapters;

import jakarta.enterprise.context.ApplicationScoped;

/**
 * Where structured log lines go: stdout, one JSON document per line, unprefixed, so that CloudWatch Logs reads
 * each as one event and extracts the EMF metrics in it.
 */
@ApplicationScoped
public class JsonLines {
    public void emit(String jsonLine) {
        System.out.println(jsonLine);
    }
}
