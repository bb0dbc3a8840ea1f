package io.gpupipe.localstack.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What DocumentationTest reports for a {@code ./mvnw} command, on a two-module build written here. */
class MavenReactorTest {
    @TempDir
    static Path root;
    private static MavenReactor reactor;

    @BeforeAll
    static void writeABuild() throws IOException {
        write("pom.xml", pom("parent", "<modules><module>core</module><module>apps/web</module></modules>"
                + "<profiles><profile><id>bench</id></profile></profiles>"));
        write("core/pom.xml", pom("core", ""));
        write("core/src/test/java/x/CoreTest.java", "class CoreTest {}");
        write("apps/web/pom.xml", pom("web", "<dependencies><dependency><groupId>io.example</groupId>"
                + "<artifactId>core</artifactId></dependency><dependency><groupId>org.other</groupId>"
                + "<artifactId>lib</artifactId></dependency></dependencies>"
                + "<profiles><profile><id>serve</id></profile></profiles>"));
        write("apps/web/src/test/java/x/WebTest.java", "class WebTest {}");
        write("apps/web/src/test/java/x/WebStartIT.java", "class WebStartIT {}");
        reactor = MavenReactor.read(root);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "./mvnw -B verify",
        "./mvnw -B -pl core verify -Dtest=CoreTest",
        "./mvnw -B -pl apps/web -am verify -Dtest=WebTest -Dsurefire.failIfNoSpecifiedTests=false",
        "./mvnw -B -pl :web -am verify -Dtest='Web*#start' -Pbench",
        "./mvnw -B -Pserve -pl apps/web -am package",
        "./mvnw -B -pl apps/web -am verify -Dtest=CoreTest -Dsurefire.failIfNoSpecifiedTests=false",
        "./mvnw -B -pl apps/web -am verify -Dtest=NoSuchTest -Dit.test=WebStartIT",
        "./mvnw -B -pl \"${modules%,}\" -am package",
    })
    void problems_shouldBeNone_whenTheCommandNamesWhatTheBuildHas(String line) {
        assertThat(reactor.problems(command(line))).isEmpty();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "./mvnw -B -pl <module> verify                        | -pl <module> is no module",
        "./mvnw -B -pl core,apps/mobile -am verify            | -pl apps/mobile is no module",
        "./mvnw -B -Pserve -pl core verify                    | -P serve is a profile of neither",
        "./mvnw -B -Pbenchmark verify                         | -P benchmark is a profile of neither",
        "./mvnw -B -pl apps/web verify                        | -pl apps/web without -am",
        "./mvnw -B -pl core verify -Dtest=WebTest             | -Dtest=WebTest names no test class",
        "./mvnw -B -pl apps/web -am verify -Dit.test=WebEndIT | -Dit.test=WebEndIT names no test class",
        "./mvnw -B -pl apps/web -am verify -Dtest=NoSuchTest  | -Dtest=NoSuchTest names no test class",
    })
    void problems_shouldNameTheMistake_whenTheCommandNamesWhatTheBuildLacks(String line, String problem) {
        assertThat(reactor.problems(command(line))).singleElement().asString().startsWith(problem);
    }

    @Test
    void find_shouldSplitLikeAShellAndStopAtTheNextCommand() {
        MavenCommand command = MavenCommand.find("cd x && ./mvnw -B -Dtest='A#b c' -Dx=\"1 2\" a\\ b && cd cdk", 7)
                .orElseThrow();

        assertThat(command.args()).containsExactly("-B", "-Dtest=A#b c", "-Dx=1 2", "a b");
        assertThat(command.text()).isEqualTo("./mvnw -B -Dtest='A#b c' -Dx=\"1 2\" a\\ b");
        assertThat(command.line()).isEqualTo(7);
        assertThat(MavenCommand.find("run ../mvnw or x./mvnw", 1)).isEmpty();
    }

    private static MavenCommand command(String line) {
        return MavenCommand.find(line.strip(), 1).orElseThrow();
    }

    private static String pom(String artifactId, String body) {
        return "<project><groupId>io.example</groupId><artifactId>" + artifactId + "</artifactId>" + body
                + "</project>";
    }

    private static void write(String relative, String text) throws IOException {
        Path file = root.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }
}
