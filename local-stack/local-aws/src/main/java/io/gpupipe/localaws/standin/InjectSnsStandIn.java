package io.gpupipe.localaws.standin;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** Marks a Quarkus test field that receives the {@link SnsStandIn} started by {@link SnsStandInResource}. */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.FIELD)
public @interface InjectSnsStandIn {
}
