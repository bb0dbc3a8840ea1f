package io.gpupipe.router.internal;

import io.gpupipe.model.Tier;
import java.util.Collection;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Reads a classifier model's answer: exactly one of the text tiers' names (from the tier catalogue), any case,
 * punctuation ignored.
 */
public final class ClassifierAnswer {
    private ClassifierAnswer() {
    }

    /**
     * The tier of {@code choices} named by {@code text}; empty when it names none or several (unparseable: the
     * caller falls back).
     */
    public static Optional<Tier> parse(String text, Collection<Tier> choices) {
        if (text == null || choices.isEmpty()) {
            return Optional.empty();
        }
        Pattern words = Pattern.compile(choices.stream().map(t -> Pattern.quote(t.wireName()))
                .collect(Collectors.joining("|", "(?<![\\w-])(", ")(?![\\w-])")));
        Matcher matcher = words.matcher(text.toLowerCase(Locale.ROOT));
        Tier found = null;
        while (matcher.find()) {
            Tier tier = Tier.of(matcher.group(1));
            if (found != null && !found.equals(tier)) {
                return Optional.empty();
            }
            found = tier;
        }
        return Optional.ofNullable(found);
    }
}
