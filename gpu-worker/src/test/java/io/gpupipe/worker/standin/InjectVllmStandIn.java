package io.gpupipe.worker.standin;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** Marks a {@link VllmStandIn} field of a {@code @QuarkusTest} to receive the running stand-in. */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.FIELD)
public @interface InjectVllmStandIn {
}
