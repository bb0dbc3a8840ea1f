package io.gpupipe.simulator;

/**
 * When a tier's first cold start happened, stage by stage: the first job's arrival, the desired count's first rise
 * after it (end of the scaling signal), its first task leaving provisioning (end of capacity), that task polling
 * (end of load), the first job's result. NaN where a stage never happened (a warm tier, a job never served).
 *
 * @param capacity where the first task's instance came from
 */
record ColdStartTimeline(double arrival, double desiredAt, double loadingAt, double pollingAt, double firstResultAt,
                         ColdStart.Capacity capacity) {

    /** Arrival to the desired count's rise (0 when a task already ran or was wanted). */
    double signalSeconds() {
        return Double.isNaN(desiredAt) ? 0 : Math.max(0, desiredAt - arrival);
    }

    double capacitySeconds() {
        return Double.isNaN(loadingAt) ? 0 : loadingAt - Math.max(arrival, desiredAt);
    }

    double loadSeconds() {
        return Double.isNaN(pollingAt) || Double.isNaN(loadingAt) ? 0 : pollingAt - loadingAt;
    }

    /** True when the first job found the tier at zero and waited for a task to start. */
    boolean cold() {
        return !Double.isNaN(pollingAt) && pollingAt >= arrival;
    }

    /** Collects the timeline's first occurrences while a simulation runs. */
    static final class Builder {
        private double arrival = Double.NaN;
        private double desiredAt = Double.NaN;
        private double loadingAt = Double.NaN;
        private double pollingAt = Double.NaN;
        private ColdStart.Capacity capacity;

        void arrived(double t) {
            if (Double.isNaN(arrival)) {
                arrival = t;
            }
        }

        void desired(double t) {
            if (!Double.isNaN(arrival) && Double.isNaN(desiredAt)) {
                desiredAt = t;
            }
        }

        void loading(double t, ColdStart.Capacity from) {
            if (!Double.isNaN(arrival) && Double.isNaN(loadingAt)) {
                loadingAt = t;
                capacity = from;
            }
        }

        void polling(double t) {
            if (!Double.isNaN(loadingAt) && Double.isNaN(pollingAt)) {
                pollingAt = t;
            }
        }

        ColdStartTimeline build(double firstResultAt) {
            return new ColdStartTimeline(arrival, desiredAt, loadingAt, pollingAt, firstResultAt, capacity);
        }
    }
}
