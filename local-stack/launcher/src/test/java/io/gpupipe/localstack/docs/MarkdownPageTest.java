package io.gpupipe.localstack.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What DocumentationTest reads from a Markdown page: links, heading anchors, quick-start code, ./mvnw commands. */
class MarkdownPageTest {
    private static final String PAGE = String.join("\n",
            "# Title",
            "See [the API](docs/api.md#errors), [a section](#ci-cd-and-more), [site](https://example.com/x.md),",
            "[mail](mailto:a@b.c) and ![chart](docs/chart%20one.png).",
            "",
            "| page | link |",
            "|---|---|",
            "| deploy | [Deploy](docs/deploy.md) |",
            "",
            "## Quick start",
            "",
            "```",
            "./mvnw -B -pl a \\",
            "  -am package",
            "```",
            "",
            "### Details",
            "",
            "```",
            "./mvnw -B verify   # the tests",
            "```",
            "",
            "## CI/CD and more",
            "",
            "Run `./mvnw -B -Pbenchmark -pl b -am verify` or `cd cdk && ./mvnw -B package`.",
            "",
            "## 1. The serverless side (SAM)",
            "## Usage",
            "## Usage",
            "## The `jobs/` prefix",
            "");

    @TempDir
    static Path root;
    private static MarkdownPage page;

    @BeforeAll
    static void writeAPage() throws IOException {
        Files.writeString(root.resolve("README.md"), PAGE);
        page = MarkdownPage.read(root, root.resolve("README.md"));
    }

    @Test
    void relativeLinks_shouldBeThePathsAndAnchorsIntoTheRepository() {
        assertThat(page.relativeLinks()).extracting(MarkdownPage.Link::path, MarkdownPage.Link::anchor,
                        MarkdownPage.Link::line)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("docs/api.md", "errors", 2),
                        org.assertj.core.groups.Tuple.tuple("", "ci-cd-and-more", 2),
                        org.assertj.core.groups.Tuple.tuple("docs/chart%20one.png", "", 3),
                        org.assertj.core.groups.Tuple.tuple("docs/deploy.md", "", 7));
        assertThat(page.resolve("docs/chart%20one.png")).isEqualTo(root.resolve("docs/chart one.png"));
    }

    @Test
    void headingIds_shouldBeGitHubsAnchors() {
        assertThat(page.headingIds()).containsExactly("title", "quick-start", "details", "cicd-and-more",
                "1-the-serverless-side-sam", "usage", "usage-1", "the-jobs-prefix");
    }

    @Test
    void codeBlocksUnder_shouldGiveTheSectionsCommandsWithContinuationsJoined() {
        assertThat(page.codeBlocksUnder("Quick start")).containsExactly("./mvnw -B -pl a -am package",
                "./mvnw -B verify   # the tests");
        assertThat(page.codeBlocksUnder("CI/CD and more")).isEmpty();
    }

    @Test
    void mavenCommands_shouldBeFoundInCodeBlocksAndInlineCode() {
        assertThat(page.mavenCommands()).extracting(MavenCommand::text).containsExactly(
                "./mvnw -B -pl a -am package", "./mvnw -B verify", "./mvnw -B -Pbenchmark -pl b -am verify",
                "./mvnw -B package");
    }
}
