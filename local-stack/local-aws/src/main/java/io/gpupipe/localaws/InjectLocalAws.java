package io.gpupipe.localaws;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** Marks a {@code LocalAws} field of a {@code @QuarkusTest} to receive the instance of {@link LocalAwsTestResource}. */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.FIELD)
public @interface InjectLocalAws {
}
