package io.gpupipe.notifier;

/** Reads the current string value of a stored secret. */
public interface SecretReader {
    /**
     * The SecretString of the secret's current version.
     *
     * @throws io.gpupipe.notifier.exception.NotifierAwsException when it cannot be read
     */
    String read(String secretArn);
}
