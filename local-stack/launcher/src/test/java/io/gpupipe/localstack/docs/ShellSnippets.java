package io.gpupipe.localstack.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The {@code ./mvnw} commands of the CI workflows under {@code .github/workflows}: their {@code run:} scripts are
 * shell, so each line (backslash continuations joined) is read as a page's code is.
 */
public final class ShellSnippets {
    private ShellSnippets() {
    }

    /** A command and the workflow file it is in. */
    public record Found(Path file, MavenCommand command) {
    }

    /** Every {@code ./mvnw} command in the workflow files of {@code repo}. */
    public static List<Found> workflowCommands(Path repo) {
        Path workflows = repo.resolve(".github/workflows");
        if (!Files.isDirectory(workflows)) {
            return List.of();
        }
        List<Found> found = new ArrayList<>();
        try (Stream<Path> files = Files.list(workflows)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".yml") || f.toString().endsWith(".yaml"))
                    .sorted().toList()) {
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
}
