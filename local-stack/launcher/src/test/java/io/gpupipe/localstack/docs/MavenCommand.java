package io.gpupipe.localstack.docs;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A {@code ./mvnw} command as a page writes it: its text up to the first shell operator ({@code &&}, {@code ||},
 * {@code ;}, {@code |}) or comment, where it stands, and its arguments split as a POSIX shell splits them (single and
 * double quotes, backslash escapes).
 */
public record MavenCommand(String text, int line, List<String> args) {
    static final String WRAPPER = "./mvnw";

    /** The command starting at the first {@code ./mvnw} in {@code shellLine}, if there is one. */
    static Optional<MavenCommand> find(String shellLine, int line) {
        int start = shellLine.indexOf(WRAPPER);
        if (start < 0 || (start > 0 && !Character.isWhitespace(shellLine.charAt(start - 1))
                && "(`$;&|".indexOf(shellLine.charAt(start - 1)) < 0)) {
            return Optional.empty();
        }
        List<String> words = new ArrayList<>();
        int end = split(shellLine, start, words);
        if (words.isEmpty() || !words.get(0).equals(WRAPPER)) {
            return Optional.empty();
        }
        return Optional.of(new MavenCommand(shellLine.substring(start, end).strip(), line,
                List.copyOf(words.subList(1, words.size()))));
    }

    /** Splits {@code text} from {@code start} into {@code words}; returns where the command ends. */
    private static int split(String text, int start, List<String> words) {
        StringBuilder word = null;
        char quote = 0;
        int i = start;
        for (; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else if (c == '\\' && quote == '"' && i + 1 < text.length()) {
                    word.append(text.charAt(++i));
                } else {
                    word.append(c);
                }
                continue;
            }
            if (Character.isWhitespace(c)) {
                if (word != null) {
                    words.add(word.toString());
                    word = null;
                }
                continue;
            }
            if ((c == '#' && word == null) || c == ';' || c == '|' || (c == '&' && next(text, i) == '&')) {
                break;
            }
            if (word == null) {
                word = new StringBuilder();
            }
            if (c == '\'' || c == '"') {
                quote = c;
            } else if (c == '\\' && i + 1 < text.length()) {
                word.append(text.charAt(++i));
            } else {
                word.append(c);
            }
        }
        if (word != null) {
            words.add(word.toString());
        }
        return i;
    }

    private static char next(String text, int i) {
        return i + 1 < text.length() ? text.charAt(i + 1) : 0;
    }
}
