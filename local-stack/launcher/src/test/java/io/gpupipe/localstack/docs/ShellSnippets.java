package io.gpupipe.localstack.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The {@code ./mvnw} commands of the repository's shell: the CI workflows under {@code .github/workflows} (their
 * {@code run:} scripts), {@code .ci/run} and every {@code *.sh} file. Each line (backslash continuations joined) is
 * read as a page's code is.
 */
public final class ShellSnippets {
    private ShellSnippets() {
    }

    /** A command and the workflow file it is in. */
    public record Found(Path file, MavenCommand command) {
    }

    /** Every {@code ./mvnw} command in the workflows, CI script and shell scripts of {@code repo}. */
    public static List<Found> commands(Path repo) {
        List<Found> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(repo)) {
            for (Path file : files.filter(Files::isRegularFile).filter(f -> isShell(repo.relativize(f))).sorted()
                    .toList()) {
                List<String> lines = MarkdownPage.joinedLines(Files.readString(file));
                for (int i = 0; i < lines.size(); i++) {
                    MavenCommand.find(lines.get(i), i + 1).ifPresent(c -> found.add(new Found(file, c)));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return found;
    }

    private static boolean isShell(Path relative) {
        String path = relative.toString().replace('\\', '/');
        if (path.startsWith(".github/workflows/")) {
            return path.endsWith(".yml") || path.endsWith(".yaml");
        }
        if (path.equals(".ci/run")) {
            return true;
        }
        for (Path part : relative) {
            String name = part.toString();
            if (name.equals("target") || name.equals("node_modules") || name.startsWith(".")) {
                return false;
            }
        }
        return path.endsWith(".sh");
    }
}
