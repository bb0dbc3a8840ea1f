package io.gpupipe.localstack.child;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;

/**
 * A Lambda {@code Context} for one invocation, built as a dynamic proxy of the function's own copy of
 * {@code com.amazonaws.services.lambda.runtime.Context} (so this code needs no compile-time dependency on it).
 * Values follow what the Lambda runtime reports; the logger prints to standard output like CloudWatch Logs capture.
 */
final class LambdaContext {
    static final String ACCOUNT = "000000000000";
    static final String REGION = "us-east-1";

    private LambdaContext() {
    }

    static Object create(Class<?> contextType, String loggerClass, String functionName, String requestId,
                         int memoryMb, long deadlineMillis) throws ClassNotFoundException {
        Class<?> loggerType = Class.forName(loggerClass, false, contextType.getClassLoader());
        Object logger = Proxy.newProxyInstance(contextType.getClassLoader(), new Class<?>[] {loggerType},
                loggerHandler());
        InvocationHandler handler = (proxy, method, args) -> switch (method.getName()) {
            case "getAwsRequestId" -> requestId;
            case "getLogGroupName" -> "/aws/lambda/" + functionName;
            case "getLogStreamName" -> "local/[$LATEST]" + requestId.replace("-", "");
            case "getFunctionName" -> functionName;
            case "getFunctionVersion" -> "$LATEST";
            case "getInvokedFunctionArn" -> "arn:aws:lambda:" + REGION + ":" + ACCOUNT + ":function:" + functionName;
            case "getRemainingTimeInMillis" -> (int) Math.max(0, deadlineMillis - System.currentTimeMillis());
            case "getMemoryLimitInMB" -> memoryMb;
            case "getLogger" -> logger;
            case "toString" -> "LambdaContext[" + functionName + ", " + requestId + "]";
            case "hashCode" -> System.identityHashCode(proxy);
            case "equals" -> proxy == args[0];
            default -> method.isDefault() ? InvocationHandler.invokeDefault(proxy, method, args) : null;
        };
        return Proxy.newProxyInstance(contextType.getClassLoader(), new Class<?>[] {contextType}, handler);
    }

    private static InvocationHandler loggerHandler() {
        return (proxy, method, args) -> {
            if ("log".equals(method.getName()) && args != null && args.length == 1) {
                Object message = args[0];
                System.out.println(message instanceof byte[] bytes
                        ? new String(bytes, StandardCharsets.UTF_8) : String.valueOf(message));
                return null;
            }
            if (method.isDefault()) {
                return InvocationHandler.invokeDefault(proxy, method, args);
            }
            return switch (method.getName()) {
                case "hashCode" -> System.identityHashCode(proxy);
                case "equals" -> proxy == args[0];
                case "toString" -> "LambdaLogger";
                default -> null;
            };
        };
    }
}
