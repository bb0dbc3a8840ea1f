package io.gpupipe.worker.consumption;

import java.util.OptionalDouble;

/** Minimal reader of the Prometheus text exposition format (version 0.0.4): enough to read gauges. */
public final class PrometheusText {
    private PrometheusText() {
    }

    /**
     * The sum of every sample of {@code metric} across its label sets (vLLM exports one per engine/model), or empty
     * when no sample of it is present. Comments, other metrics and malformed lines are skipped.
     */
    public static OptionalDouble sum(String exposition, String metric) {
        if (exposition == null) {
            return OptionalDouble.empty();
        }
        double total = 0;
        boolean found = false;
        for (String raw : exposition.split("\n")) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#") || !line.startsWith(metric)) {
                continue;
            }
            String rest = line.substring(metric.length());
            if (rest.startsWith("{")) {
                int close = rest.lastIndexOf('}');
                if (close < 0) {
                    continue;
                }
                rest = rest.substring(close + 1);
            } else if (!rest.startsWith(" ") && !rest.startsWith("\t")) {
                continue; // another metric sharing the prefix, e.g. vllm:num_requests_waiting_by_reason
            }
            String[] parts = rest.strip().split("\\s+");
            try {
                double value = Double.parseDouble(parts[0]);
                if (!Double.isNaN(value)) {
                    total += value;
                    found = true;
                }
            } catch (NumberFormatException e) {
                // malformed sample: ignore it
            }
        }
        return found ? OptionalDouble.of(total) : OptionalDouble.empty();
    }
}
