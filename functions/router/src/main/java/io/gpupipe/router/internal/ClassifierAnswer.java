package io.gpupipe.router.internal;

import io.gpupipe.model.Tier;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads a classifier model's answer: exactly one of the words SMALL or LARGE, any case, punctuation ignored. */
public final class ClassifierAnswer {
    private static final Pattern WORD = Pattern.compile("\\b(SMALL|LARGE)\\b");

    private ClassifierAnswer() {
    }

    /** The tier named by {@code text}; empty when it names none or both (unparseable: the caller falls back). */
    public static Optional<Tier> parse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        Matcher matcher = WORD.matcher(text.toUpperCase(Locale.ROOT));
        Tier found = null;
        while (matcher.find()) {
            Tier tier = "LARGE".equals(matcher.group(1)) ? Tier.LARGE : Tier.SMALL;
            if (found != null && found != tier) {
                return Optional.empty();
            }
            found = tier;
        }
        return Optional.ofNullable(found);
    }
}
