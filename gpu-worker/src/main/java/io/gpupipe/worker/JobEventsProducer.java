package io.gpupipe.worker;

import io.quarkus.arc.DefaultBean;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;

/** Job events go to stdout (JSON log line + EMF line) unless another {@link JobEvents} bean is present. */
@ApplicationScoped
public class JobEventsProducer {

    @Produces
    @Singleton
    @DefaultBean
    JobEvents jobEvents(WorkerConfig config) {
        return new StdoutJobEvents(System.out, Clock.systemUTC(), config.metricNamespace());
    }
}
