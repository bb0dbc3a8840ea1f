package io.gpupipe.localstack.exception;

/**
 * The stack cannot start because of something the user can fix (a busy port, an unreadable model file, a bad flag,
 * a component not built). The message is one line naming the problem and the fix; the launcher exits with code 2.
 */
public class StartupException extends RuntimeException {
    public StartupException(String message) {
        super(message);
    }

    public StartupException(String message, Throwable cause) {
        super(message, cause);
    }
}
