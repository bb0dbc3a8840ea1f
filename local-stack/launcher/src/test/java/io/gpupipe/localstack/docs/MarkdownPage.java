package io.gpupipe.localstack.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.ext.heading.anchor.IdGenerator;
import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.Code;
import org.commonmark.node.FencedCodeBlock;
import org.commonmark.node.Heading;
import org.commonmark.node.Image;
import org.commonmark.node.IndentedCodeBlock;
import org.commonmark.node.Link;
import org.commonmark.node.Node;
import org.commonmark.node.Text;
import org.commonmark.parser.IncludeSourceSpans;
import org.commonmark.parser.Parser;

/**
 * One Markdown file of the repository, parsed by CommonMark's reference parser (with GitHub's tables): its relative
 * links, its headings' anchors as GitHub generates them, its code, and the {@code ./mvnw} commands in that code.
 */
public record MarkdownPage(Path file, String name, List<String> lines, Node document) {
    private static final Parser PARSER = Parser.builder().extensions(List.of(TablesExtension.create()))
            .includeSourceSpans(IncludeSourceSpans.BLOCKS_AND_INLINES).build();
    private static final Pattern SCHEME = Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.-]*:");
    private static final Set<String> SKIPPED_DIRECTORIES = Set.of("target", "node_modules");

    /** A link whose destination is a path in the repository ({@code docs/api.md#errors}, {@code #errors}). */
    public record Link(String destination, String path, String anchor, int line) {
    }

    /** Every Markdown file under {@code root}, except build output, dependencies and hidden directories. */
    public static List<MarkdownPage> readAll(Path root) {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(f -> f.toString().endsWith(".md")).filter(Files::isRegularFile)
                    .filter(f -> isSource(root.relativize(f))).sorted().map(f -> read(root, f)).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean isSource(Path relative) {
        for (Path part : relative) {
            String name = part.toString();
            if (SKIPPED_DIRECTORIES.contains(name) || (name.startsWith(".") && !name.equals(relative.toString()))) {
                return false;
            }
        }
        return true;
    }

    static MarkdownPage read(Path root, Path file) {
        try {
            String text = Files.readString(file);
            return new MarkdownPage(file.toAbsolutePath().normalize(), root.relativize(file).toString(),
                    text.lines().toList(), PARSER.parse(text));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The file a link's path names, seen from this page. */
    public Path resolve(String path) {
        return file.getParent().resolve(URLDecoder.decode(path.replace("+", "%2B"), StandardCharsets.UTF_8))
                .normalize();
    }

    /** Links and images into the repository (no scheme such as https: or mailto:). */
    public List<Link> relativeLinks() {
        List<Link> links = new ArrayList<>();
        document.accept(new AbstractVisitor() {
            @Override
            public void visit(org.commonmark.node.Link link) {
                add(link.getDestination(), link);
                visitChildren(link);
            }

            @Override
            public void visit(Image image) {
                add(image.getDestination(), image);
            }

            private void add(String destination, Node node) {
                if (destination.isEmpty() || SCHEME.matcher(destination).find() || destination.startsWith("//")) {
                    return;
                }
                int hash = destination.indexOf('#');
                links.add(new Link(destination, hash < 0 ? destination : destination.substring(0, hash),
                        hash < 0 ? "" : destination.substring(hash + 1), line(node)));
            }
        });
        return links;
    }

    /** The anchors of this page's headings, as GitHub makes them (lower case, dashes, -1 for repeats). */
    public Set<String> headingIds() {
        IdGenerator ids = IdGenerator.builder().build();
        Set<String> anchors = new LinkedHashSet<>();
        document.accept(new AbstractVisitor() {
            @Override
            public void visit(Heading heading) {
                anchors.add(ids.generateId(text(heading)));
            }
        });
        return anchors;
    }

    /** The lines of the code blocks in the section under the heading {@code title} (up to the next heading). */
    public List<String> codeBlocksUnder(String title) {
        List<String> code = new ArrayList<>();
        boolean inside = false;
        int level = 0;
        for (Node node = document.getFirstChild(); node != null; node = node.getNext()) {
            if (node instanceof Heading heading) {
                if (inside && heading.getLevel() <= level) {
                    break;
                }
                if (text(heading).strip().equalsIgnoreCase(title)) {
                    inside = true;
                    level = heading.getLevel();
                }
            } else if (inside && node instanceof FencedCodeBlock block) {
                joinedLines(block.getLiteral()).forEach(line -> code.add(line.strip()));
            }
        }
        return code;
    }

    /** Every {@code ./mvnw} command in this page's code blocks and inline code. */
    public List<MavenCommand> mavenCommands() {
        List<MavenCommand> commands = new ArrayList<>();
        document.accept(new AbstractVisitor() {
            @Override
            public void visit(FencedCodeBlock block) {
                addAll(block.getLiteral(), line(block) + 1);
            }

            @Override
            public void visit(IndentedCodeBlock block) {
                addAll(block.getLiteral(), line(block));
            }

            @Override
            public void visit(Code code) {
                MavenCommand.find(code.getLiteral(), line(code)).ifPresent(commands::add);
            }

            private void addAll(String literal, int firstLine) {
                List<String> joined = joinedLines(literal);
                for (int i = 0; i < joined.size(); i++) {
                    MavenCommand.find(joined.get(i), firstLine + i).ifPresent(commands::add);
                }
            }
        });
        return commands;
    }

    /** The lines of a shell snippet, with backslash-continued lines joined into one. */
    static List<String> joinedLines(String literal) {
        return List.of(literal.replaceAll("[ \\t]*\\\\\\r?\\n\\s*", " ").split("\\r?\\n"));
    }

    private static String text(Node node) {
        StringBuilder text = new StringBuilder();
        node.accept(new AbstractVisitor() {
            @Override
            public void visit(Text t) {
                text.append(t.getLiteral());
            }

            @Override
            public void visit(Code c) {
                text.append(c.getLiteral());
            }
        });
        return text.toString();
    }

    private static int line(Node node) {
        return node.getSourceSpans().isEmpty() ? 0 : node.getSourceSpans().get(0).getLineIndex() + 1;
    }
}
