package io.gpupipe.localstack.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;

/**
 * The build as the root pom declares it: its modules (path, artifactId, profiles, test classes, the modules they depend
 * on) and its own profiles, and what a {@code ./mvnw} command names that the build does not have.
 */
public record MavenReactor(List<Module> modules, Set<String> rootProfiles) {

    /** One module of the root pom; {@code dependsOnModules}: whether it depends on other modules of the build. */
    public record Module(String path, String artifactId, Set<String> profiles, Set<String> testClasses,
                         boolean dependsOnModules) {
        boolean isNamedBy(String project) {
            return path.equals(project) || project.equals(":" + artifactId) || project.endsWith(":" + artifactId);
        }
    }

    public static MavenReactor read(Path root) {
        Pom rootPom = Pom.read(root.resolve("pom.xml"));
        List<Pom> poms = rootPom.modules().stream().map(path -> Pom.read(root.resolve(path).resolve("pom.xml")))
                .toList();
        // modules inherit the root's groupId
        Set<String> coordinates = poms.stream().map(pom -> rootPom.groupId() + ":" + pom.artifactId())
                .collect(Collectors.toSet());
        List<Module> modules = new ArrayList<>();
        for (int i = 0; i < poms.size(); i++) {
            Pom pom = poms.get(i);
            String path = rootPom.modules().get(i);
            modules.add(new Module(path, pom.artifactId(), pom.profiles(), testClasses(root.resolve(path)),
                    pom.dependencies().stream().anyMatch(coordinates::contains)));
        }
        return new MavenReactor(List.copyOf(modules), rootPom.profiles());
    }

    /** What {@code command} names that this build does not have: modules, profiles, test classes; empty when fine. */
    public List<String> problems(MavenCommand command) {
        MavenArgs args = MavenArgs.parse(command.args());
        List<String> problems = new ArrayList<>();
        List<Module> selected = new ArrayList<>();
        for (String project : args.projects()) {
            if (project.contains("$")) {
                continue; // a script's variable: its value is not known here
            }
            String name = project.replaceFirst("^[!-]", "");
            modules.stream().filter(m -> m.isNamedBy(name)).findFirst().ifPresentOrElse(selected::add,
                    () -> problems.add("-pl " + project + " is no module of the root pom; modules: "
                            + modules.stream().map(Module::path).toList()));
        }
        // the build is never installed into the local repository: without -am a fresh clone cannot resolve them
        selected.stream().filter(Module::dependsOnModules).filter(m -> !args.alsoMake()).forEach(m -> problems.add(
                "-pl " + m.path() + " without -am: its sibling modules are not built, and not in ~/.m2 on a fresh "
                        + "clone"));
        List<Module> profileScope = args.projects().isEmpty() ? modules : selected;
        for (String profile : args.profiles()) {
            String id = profile.replaceFirst("^[!?]+", "");
            if (!rootProfiles.contains(id) && profileScope.stream().noneMatch(m -> m.profiles().contains(id))) {
                problems.add("-P " + profile + " is a profile of neither the root pom nor the selected modules");
            }
        }
        // -am also builds (and tests) the modules the selected ones depend on: any module may then hold the test
        List<Module> testScope = args.projects().isEmpty() || args.alsoMake() ? modules : selected;
        boolean integrationTestsFound = !args.integrationTests().isEmpty()
                && args.integrationTests().stream().allMatch(t -> matchesATestClass(t, testScope));
        args.integrationTests().stream().filter(t -> !matchesATestClass(t, testScope))
                .forEach(t -> problems.add("-Dit.test=" + t + " names no test class of the selected modules"));
        // a -Dtest matching nothing beside a -Dit.test empties the unit-test phase on purpose: only the IT runs
        args.tests().stream().filter(t -> !matchesATestClass(t, testScope) && !integrationTestsFound)
                .forEach(t -> problems.add("-Dtest=" + t + " names no test class of the selected modules"));
        return problems;
    }

    private static boolean matchesATestClass(String pattern, List<Module> scope) {
        String name = pattern.strip().replaceFirst("^!", "");
        name = name.contains("#") ? name.substring(0, name.indexOf('#')) : name;
        name = name.substring(name.lastIndexOf('/') + 1).replaceFirst("\\.java$", "");
        name = name.substring(name.lastIndexOf('.') + 1);
        Pattern glob = Pattern.compile(Pattern.quote(name).replace("?", "\\E.\\Q").replace("*", "\\E.*\\Q"));
        return scope.stream().flatMap(m -> m.testClasses().stream()).anyMatch(c -> glob.matcher(c).matches());
    }

    private static Set<String> testClasses(Path module) {
        Path tests = module.resolve("src/test/java");
        if (!Files.isDirectory(tests)) {
            return Set.of();
        }
        try (Stream<Path> files = Files.walk(tests)) {
            return files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".java"))
                    .map(n -> n.substring(0, n.length() - ".java".length()))
                    .collect(Collectors.toCollection(TreeSet::new));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The options of a Maven command line that name parts of the build: -pl, -am, -P, -Dtest, -Dit.test. */
    record MavenArgs(List<String> projects, boolean alsoMake, List<String> profiles, List<String> tests,
                     List<String> integrationTests) {
        static MavenArgs parse(List<String> args) {
            List<String> projects = new ArrayList<>();
            List<String> profiles = new ArrayList<>();
            List<String> tests = new ArrayList<>();
            List<String> integrationTests = new ArrayList<>();
            boolean alsoMake = false;
            for (int i = 0; i < args.size(); i++) {
                String arg = args.get(i);
                String next = i + 1 < args.size() ? args.get(i + 1) : "";
                if (arg.equals("-pl") || arg.equals("--projects")) {
                    projects.addAll(projectList(next));
                    i++;
                } else if (arg.startsWith("-pl")) {
                    projects.addAll(projectList(arg.substring("-pl".length())));
                } else if (arg.equals("-P") || arg.equals("--activate-profiles")) {
                    profiles.addAll(split(next));
                    i++;
                } else if (arg.startsWith("-P")) {
                    profiles.addAll(split(arg.substring("-P".length())));
                } else if (arg.equals("-am") || arg.equals("--also-make")) {
                    alsoMake = true;
                } else if (arg.startsWith("-Dtest=")) {
                    tests.addAll(split(arg.substring("-Dtest=".length())));
                } else if (arg.startsWith("-Dit.test=")) {
                    integrationTests.addAll(split(arg.substring("-Dit.test=".length())));
                }
            }
            return new MavenArgs(projects, alsoMake, profiles, tests, integrationTests);
        }

        /** A script's variable ({@code "${modules%,}"}) stays one entry: its commas are not the list's. */
        private static List<String> projectList(String list) {
            return list.contains("$") ? List.of(list) : split(list);
        }

        private static List<String> split(String list) {
            return Stream.of(list.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
        }
    }

    /** The parts of a pom read here: groupId, artifactId, modules, profile ids, dependencies (groupId:artifactId). */
    record Pom(String groupId, String artifactId, List<String> modules, Set<String> profiles,
               Set<String> dependencies) {
        static Pom read(Path file) {
            try {
                DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
                factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
                Element project = factory.newDocumentBuilder().parse(file.toFile()).getDocumentElement();
                List<String> modules = new ArrayList<>();
                Set<String> profiles = new TreeSet<>();
                Set<String> dependencies = new TreeSet<>();
                for (Element child : children(project)) {
                    if (child.getTagName().equals("modules")) {
                        children(child).forEach(m -> modules.add(m.getTextContent().strip()));
                    } else if (child.getTagName().equals("profiles")) {
                        children(child).forEach(p -> profiles.add(childText(p, "id")));
                    } else if (child.getTagName().equals("dependencies")) {
                        children(child).forEach(d -> dependencies.add(childText(d, "groupId") + ":"
                                + childText(d, "artifactId")));
                    }
                }
                return new Pom(childText(project, "groupId"), childText(project, "artifactId"), modules, profiles,
                        dependencies);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (ParserConfigurationException | SAXException e) {
                throw new IllegalStateException("cannot read " + file, e);
            }
        }

        private static String childText(Element parent, String tag) {
            return children(parent).stream().filter(c -> c.getTagName().equals(tag)).findFirst()
                    .map(c -> c.getTextContent().strip()).orElse("");
        }

        private static List<Element> children(Element parent) {
            List<Element> elements = new ArrayList<>();
            for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
                if (n instanceof Element e) {
                    elements.add(e);
                }
            }
            return elements;
        }
    }
}
