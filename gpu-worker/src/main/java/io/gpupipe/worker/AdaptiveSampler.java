package io.gpupipe.worker;

import io.gpupipe.worker.consumption.AdaptiveWindow;
import io.gpupipe.worker.backend.InferenceBackend;
import org.jboss.logging.Logger;

/** Samples the model server's queue and resizes the window as {@link AdaptiveWindow} decides. */
final class AdaptiveSampler implements Runnable {
    private static final Logger LOG = Logger.getLogger(AdaptiveSampler.class);

    private final InferenceBackend backend;
    private final AdaptiveWindow controller;
    private final ConsumptionWindow window;

    AdaptiveSampler(InferenceBackend backend, AdaptiveWindow controller, ConsumptionWindow window) {
        this.backend = backend;
        this.controller = controller;
        this.window = window;
    }

    @Override
    public void run() {
        try {
            backend.load().ifPresent(load -> {
                int before = controller.limit();
                int after = controller.observe(load);
                if (after != before) {
                    window.resize(after);
                    LOG.infof("window %d -> %d (model server: %d running, %d waiting)", before, after,
                            load.running(), load.waiting());
                }
            });
        } catch (RuntimeException e) {
            LOG.debugf("adaptive sample failed: %s", e.getMessage());
        }
    }
}
