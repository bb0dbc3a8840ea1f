package io.gpupipe.router;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.gpupipe.model.JobJson;
import io.gpupipe.router.FuzzBodies.Body;
import io.gpupipe.router.FuzzBodies.Kind;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The fuzz generator keeps its strength: one CI-sized run ({@link RouterFuzzTest#BODIES} bodies) holds every kind of
 * bad input the fuzz tests promise, and a seed gives the same bodies every time. Generation only, no I/O.
 */
class FuzzBodiesTest {
    private static final Pattern ESCAPED_SURROGATE = Pattern.compile("\\\\u[dD][89a-fA-F][0-9a-fA-F]{2}");
    private static final Pattern WRONG_TYPE = Pattern.compile("\"maxTokens\":[\"\\[{tfn]");

    @Test
    void bodies_shouldHoldEveryKindOfBadInput_inOneCiRun() {
        // given
        FuzzRun run = FuzzRun.fromSystemProperties("FuzzBodiesTest", "fuzz.bodies", RouterFuzzTest.BODIES);
        List<Body> bodies = run.bodies().toList();
        Map<String, Predicate<String>> promised = new LinkedHashMap<>();
        promised.put("a raw lone surrogate", text -> text.codePoints()
                .anyMatch(c -> c >= Character.MIN_SURROGATE && c <= Character.MAX_SURROGATE));
        promised.put("an escaped surrogate", text -> ESCAPED_SURROGATE.matcher(text).find());
        promised.put("U+FFFF", text -> text.indexOf('\uFFFF') >= 0);
        promised.put("an escaped control", text -> text.contains("\\u0000"));
        promised.put("a 1 MB body", text -> text.length() >= 1 << 20);
        promised.put("nesting beyond 1,000", text -> text.contains("[".repeat(1001)));
        promised.put("a number beyond double", text -> text.contains("1e999999"));
        promised.put("a number beyond long", text -> text.contains("9223372036854775808"));
        promised.put("a wrongly typed maxTokens", text -> WRONG_TYPE.matcher(text).find());
        promised.put("a duplicate key", FuzzBodiesTest::hasDuplicateKey);
        promised.put("a document that is not JSON", text -> text.length() < 10_000 && !isJson(text));
        // when
        List<String> missing = promised.entrySet().stream()
                .filter(claim -> bodies.stream().map(Body::text).noneMatch(claim.getValue()))
                .map(Map.Entry::getKey).toList();
        // then
        assertThat(missing).as("bad input missing from the run of seed %d", run.seed()).isEmpty();
        assertThat(bodies.stream().map(Body::kind).collect(Collectors.toSet())).containsAll(EnumSet.allOf(Kind.class));
        assertThat(planes(bodies)).as("Unicode planes of the run's characters").hasSize(17);
        assertThat(bodies.stream().filter(body -> body.kind() == Kind.RANDOM_JSON)
                .map(body -> body.text().isEmpty() ? "" : body.text().substring(0, 1)).collect(Collectors.toSet()))
                .as("first characters of random JSON bodies").contains("{", "[", "\"", "t", "f", "n")
                .containsAnyOf("-", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9");
    }

    @Test
    void bodies_shouldBeTheSame_forTheSameSeed() {
        assertThat(texts(new FuzzBodies(42))).isEqualTo(texts(new FuzzBodies(42)))
                .isNotEqualTo(texts(new FuzzBodies(43)));
    }

    /** Each body as kind, length and hash (a failure prints these, not megabytes of bodies). */
    private static List<String> texts(FuzzBodies generator) {
        return generator.bodies(300).map(body -> body.kind() + " " + body.text().length() + " "
                + body.text().hashCode()).toList();
    }

    private static Set<Integer> planes(List<Body> bodies) {
        Set<Integer> planes = new TreeSet<>();
        bodies.forEach(body -> body.text().codePoints().forEach(c -> planes.add(c >> 16)));
        return planes;
    }

    private static boolean isJson(String text) {
        try {
            JobJson.mapper().readTree(text);
            return true;
        } catch (JsonProcessingException e) {
            return false;
        }
    }

    private static boolean hasDuplicateKey(String text) {
        return FuzzBodies.FIELDS.stream().map(field -> FuzzBodies.quote(field) + ":")
                .anyMatch(key -> text.indexOf(key) != text.lastIndexOf(key));
    }
}
