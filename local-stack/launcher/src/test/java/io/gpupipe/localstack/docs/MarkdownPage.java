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
import org.commonmark.ext.gfm.tables.TableBody;
import org.commonmark.ext.gfm.tables.TableCell;
import org.commonmark.ext.gfm.tables.TableRow;
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

    /** A row of a table's body: the section it stands in (the nearest heading of level 1 or 2), each cell's code. */
    public record Row(String section, List<List<String>> cellCode, int line) {
        /** The inline code of the row's first cell. */
        public List<String> firstCellCode() {
            return cellCode.isEmpty() ? List.of() : cellCode.get(0);
        }
    }

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

    public static MarkdownPage read(Path root, Path file) {
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

    /** Every body row of every table on this page, with the inline code of each cell. */
    public List<Row> tableRows() {
        List<Row> rows = new ArrayList<>();
        String section = "";
        for (Node node = document.getFirstChild(); node != null; node = node.getNext()) {
            if (node instanceof Heading heading && heading.getLevel() <= 2) {
                section = text(heading).strip();
            }
            String current = section;
            node.accept(new AbstractVisitor() {
                @Override
                public void visit(org.commonmark.node.CustomNode custom) {
                    if (custom instanceof TableRow row && row.getParent() instanceof TableBody) {
                        List<List<String>> cells = new ArrayList<>();
                        for (Node cell = row.getFirstChild(); cell != null; cell = cell.getNext()) {
                            if (cell instanceof TableCell) {
                                cells.add(inlineCode(cell));
                            }
                        }
                        rows.add(new Row(current, cells, line(row)));
                    } else {
                        visitChildren(custom);
                    }
                }
            });
        }
        return rows;
    }

    /** The inline code outside tables, per section (the nearest heading of level 1 or 2), in page order. */
    public java.util.Map<String, List<String>> proseCodeBySection() {
        java.util.Map<String, List<String>> code = new java.util.LinkedHashMap<>();
        String section = "";
        for (Node node = document.getFirstChild(); node != null; node = node.getNext()) {
            if (node instanceof Heading heading && heading.getLevel() <= 2) {
                section = text(heading).strip();
            }
            if (!(node instanceof org.commonmark.ext.gfm.tables.TableBlock)) {
                code.computeIfAbsent(section, s -> new ArrayList<>()).addAll(inlineCode(node));
            }
        }
        return code;
    }

    /** Every inline code span of this page, tables included. */
    public List<String> inlineCode() {
        return inlineCode(document);
    }

    private static List<String> inlineCode(Node node) {
        List<String> code = new ArrayList<>();
        node.accept(new AbstractVisitor() {
            @Override
            public void visit(Code c) {
                code.add(c.getLiteral());
            }
        });
        return code;
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
