package io.gpupipe.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.localstack.docs.MarkdownPage;
import io.gpupipe.localstack.docs.MavenCommand;
import io.gpupipe.localstack.docs.MavenReactor;
import io.gpupipe.localstack.docs.ShellSnippets;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Keeps the documentation honest: README.md stays a front page of at most {@value #README_MAX_LINES} lines whose
 * quick start gives the run and test commands; every relative link and {@code #anchor} in any Markdown file of the
 * repository resolves; every page under docs/ is linked from README.md; every {@code ./mvnw} command in any Markdown
 * file, CI workflow and shell script names modules, profiles and test classes the build has, with {@code -am} where it
 * names a module that depends on others (nothing is installed into ~/.m2 on a fresh clone); no page speaks in issue
 * numbers. Settings are checked by {@link ConfigurationDocumentationTest}. The run command
 * itself is executed by {@link ReadmeCommandTest}.
 */
class DocumentationTest {
    static final int README_MAX_LINES = 250;
    static final String RUN_COMMAND =
            "./mvnw -B -Dmaven.test.skip=true -Plocal-stack -pl local-stack/launcher -am package";
    static final String TEST_COMMAND = "./mvnw -B verify";
    private static final Pattern ISSUE_NUMBER = Pattern.compile("(?i)\\bissues?\\s*#?\\d+");

    private static Path repo;
    private static MavenReactor reactor;
    private static List<MarkdownPage> pages;

    @BeforeAll
    static void readTheRepository() {
        repo = TestPaths.repo().toAbsolutePath().normalize();
        reactor = MavenReactor.read(repo);
        pages = MarkdownPage.readAll(repo);
    }

    @Test
    void readme_shouldFitOnAFewScreens() throws IOException {
        // when
        long lines = Files.readAllLines(repo.resolve("README.md")).size();
        // then
        assertThat(lines).as("README.md's lines (the rest belongs in docs/)").isLessThanOrEqualTo(README_MAX_LINES);
    }

    @Test
    void readmeQuickStart_shouldGiveTheRunAndTestCommands() {
        // when
        List<String> quickStart = page("README.md").codeBlocksUnder("Quick start");
        // then
        assertThat(quickStart).as("code of README.md's 'Quick start' section").contains(RUN_COMMAND, TEST_COMMAND);
    }

    @Test
    void relativeLinks_shouldResolveToFilesAndHeadings() {
        // when
        List<String> dead = new ArrayList<>();
        for (MarkdownPage page : pages) {
            page.relativeLinks().forEach(link -> whyDead(page, link).ifPresent(dead::add));
        }
        // then
        assertThat(pages).as("Markdown pages found").isNotEmpty();
        assertThat(dead).as("dead relative links in the repository's Markdown").isEmpty();
    }

    @Test
    void everyDocsPage_shouldBeLinkedFromTheReadme() {
        // given
        MarkdownPage readme = page("README.md");
        Set<Path> linked = new TreeSet<>();
        readme.relativeLinks().forEach(link -> linked.add(readme.resolve(link.path())));
        // when
        List<String> unlinked = docsPages().stream().map(MarkdownPage::file).filter(f -> !linked.contains(f))
                .map(f -> repo.relativize(f).toString()).toList();
        // then
        assertThat(docsPages()).as("pages under docs/").isNotEmpty();
        assertThat(unlinked).as("pages under docs/ that README.md does not link (no reader finds them)").isEmpty();
    }

    @Test
    void mvnwCommands_shouldNameModulesProfilesAndTestsTheBuildHas() {
        // given
        List<MavenCommand> commands = new ArrayList<>();
        List<String> wrong = new ArrayList<>();
        // when: every Markdown file of the repository, the CI workflows and scripts, the shell scripts
        for (MarkdownPage page : pages) {
            for (MavenCommand command : page.mavenCommands()) {
                commands.add(command);
                reactor.problems(command).forEach(problem -> wrong.add(page.name() + ":" + command.line() + ": "
                        + problem + "\n      " + command.text()));
            }
        }
        for (ShellSnippets.Found found : ShellSnippets.commands(repo)) {
            MavenCommand command = found.command();
            commands.add(command);
            reactor.problems(command).forEach(problem -> wrong.add(repo.relativize(found.file()) + ":"
                    + command.line() + ": " + problem + "\n      " + command.text()));
        }
        // then
        assertThat(commands).as("./mvnw commands in the repository's Markdown and shell")
                .extracting(MavenCommand::text).contains(RUN_COMMAND, TEST_COMMAND);
        assertThat(wrong).as("./mvnw commands that would fail on a fresh clone: naming what the build does not "
                + "have, or one module without the modules it depends on").isEmpty();
    }

    @Test
    void userPages_shouldNameNoIssueNumbers() {
        // when
        List<String> found = new ArrayList<>();
        for (MarkdownPage page : userPages()) {
            for (int i = 0; i < page.lines().size(); i++) {
                Matcher matcher = ISSUE_NUMBER.matcher(page.lines().get(i));
                if (matcher.find()) {
                    found.add(page.name() + ":" + (i + 1) + ": \"" + matcher.group() + "\"");
                }
            }
        }
        // then
        assertThat(found).as("issue numbers in README.md and docs/ (name the feature instead)").isEmpty();
    }

    /** Why {@code link} on {@code page} is dead, or empty when its file (and heading) exist. */
    private static Optional<String> whyDead(MarkdownPage page, MarkdownPage.Link link) {
        String where = page.name() + ":" + link.line() + ": (" + link.destination() + ")";
        Path target = link.path().isEmpty() ? page.file() : page.resolve(link.path());
        if (!target.startsWith(repo)) {
            return Optional.of(where + " points outside the repository");
        }
        if (!Files.exists(target)) {
            return Optional.of(where + " names no file: " + repo.relativize(target));
        }
        if (link.anchor().isEmpty()) {
            return Optional.empty();
        }
        Optional<MarkdownPage> targetPage = pages.stream().filter(p -> p.file().equals(target)).findFirst();
        if (targetPage.isEmpty()) {
            return Optional.of(where + " has an anchor, but " + repo.relativize(target) + " is no Markdown page");
        }
        if (!targetPage.get().headingIds().contains(link.anchor())) {
            return Optional.of(where + " names no heading of " + targetPage.get().name() + "; its headings: "
                    + targetPage.get().headingIds());
        }
        return Optional.empty();
    }

    private static List<MarkdownPage> docsPages() {
        return pages.stream().filter(p -> p.file().startsWith(repo.resolve("docs"))).toList();
    }

    /** README.md and docs/: what a user reads. */
    private static List<MarkdownPage> userPages() {
        List<MarkdownPage> user = new ArrayList<>();
        user.add(page("README.md"));
        user.addAll(docsPages());
        return user;
    }

    private static MarkdownPage page(String relative) {
        Path file = repo.resolve(relative);
        return pages.stream().filter(p -> p.file().equals(file)).findFirst()
                .orElseThrow(() -> new AssertionError(relative + " is missing"));
    }
}
