package io.gpupipe.localstack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Set;

/**
 * A copy of the repository's sources as a fresh clone has them: every file except build output, editor state and
 * local data (the directories {@code .gitignore} names), with file modes kept so that {@code ./mvnw} stays runnable.
 */
final class SourceCopy {
    /** Directory names never copied, at any depth: {@code .gitignore}'s entries and the VCS's own. */
    private static final Set<String> SKIPPED = Set.of(".git", "target", "cdk.out", ".aws-sam", ".idea", ".vscode",
            "node_modules");
    /** Paths (from the root) never copied: {@code .gitignore}'s rooted entries. */
    private static final Set<Path> SKIPPED_PATHS = Set.of(Path.of("native-build", "out"), Path.of("local-stack", "data"));

    private SourceCopy() {
    }

    /** Copies {@code repository} into {@code into} (an empty directory) and returns {@code into}. */
    static Path of(Path repository, Path into) {
        try {
            Files.walkFileTree(repository, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) throws IOException {
                    Path relative = repository.relativize(dir);
                    if (!dir.equals(repository) && (SKIPPED.contains(dir.getFileName().toString())
                            || SKIPPED_PATHS.contains(relative))) {
                        return FileVisitResult.SKIP_SUBTREE;
                    }
                    Files.createDirectories(into.resolve(relative.toString()));
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
                    Files.copy(file, into.resolve(repository.relativize(file).toString()),
                            StandardCopyOption.COPY_ATTRIBUTES, LinkOption.NOFOLLOW_LINKS);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy the sources of " + repository + " into " + into, e);
        }
        return into;
    }
}
