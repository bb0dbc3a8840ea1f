package io.gpupipe.localstack.child;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;

/**
 * Runs another program's main class under {@link ChildSupport}: {@code java -cp quarkus-run.jar:<these classes>
 * io.gpupipe.localstack.child.Supervised io.quarkus.bootstrap.runner.QuarkusEntryPoint} is {@code java -jar
 * quarkus-run.jar} (same classpath through the jar's manifest, same main) that also exits with its launcher.
 */
public final class Supervised {
    private Supervised() {
    }

    public static void main(String[] args) throws Throwable {
        if (args.length == 0) {
            System.err.println("usage: Supervised MAIN_CLASS [ARGS...]");
            System.exit(2);
        }
        ChildSupport.superviseByParent();
        Method main = Class.forName(args[0]).getMethod("main", String[].class);
        try {
            main.invoke(null, (Object) Arrays.copyOfRange(args, 1, args.length));
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
