package io.gpupipe.localstack.docs;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One Java source file read as text, without its comments: enough structure (balanced brackets, declarations,
 * string constants) for {@link CodeSettings} to find what the code reads. Not a Java parser: it relies on the code
 * being formatted as a compiler accepts it, with string literals free of unbalanced brackets' effects (they are
 * skipped when brackets are matched).
 */
record JavaSource(String code) {
    private static final Pattern STRING_CONSTANT =
            Pattern.compile("\\bstatic\\s+final\\s+String\\s+(\\w+)\\s*=\\s*\"((?:[^\"\\\\]|\\\\.)*)\"\\s*;");
    private static final Pattern DECLARATION = Pattern.compile("(\\w+)\\s*\\(([^()]*)\\)\\s*(?:throws\\s[^{;]*)?\\{");
    private static final List<String> NOT_METHODS = List.of("if", "for", "while", "switch", "catch", "synchronized",
            "return", "new", "try");

    static JavaSource of(String text) {
        return new JavaSource(withoutComments(text));
    }

    /** A method or constructor: its name, its parameters' names, and where its body lies. */
    record Method(String name, List<String> parameters, int bodyStart, int bodyEnd) {
    }

    /** The {@code static final String} constants with a literal value. */
    Map<String, String> stringConstants() {
        Map<String, String> constants = new LinkedHashMap<>();
        Matcher matcher = STRING_CONSTANT.matcher(code);
        while (matcher.find()) {
            constants.put(matcher.group(1), matcher.group(2));
        }
        return constants;
    }

    /** The text between the bracket at {@code open} and its partner, without either. */
    String inside(int open) {
        return code.substring(open + 1, closing(open));
    }

    /** Where the bracket at {@code open} ({@code (}, {@code [} or {@code {}) is closed. */
    int closing(int open) {
        int depth = 0;
        for (int i = open; i < code.length(); i++) {
            char c = code.charAt(i);
            if (c == '"' || c == '\'') {
                i = endOfLiteral(code, i);
            } else if (c == '(' || c == '[' || c == '{') {
                depth++;
            } else if (c == ')' || c == ']' || c == '}') {
                depth--;
                if (depth == 0) {
                    return i;
                }
            }
        }
        throw new IllegalArgumentException("unbalanced bracket at " + open);
    }

    /** The innermost method or constructor whose body holds {@code position}. */
    Optional<Method> methodAt(int position) {
        Method found = null;
        for (Method method : methods()) {
            if (method.bodyStart() < position && position < method.bodyEnd()
                    && (found == null || method.bodyStart() > found.bodyStart())) {
                found = method;
            }
        }
        return Optional.ofNullable(found);
    }

    /** Every method and constructor declared in this file. */
    List<Method> methods() {
        List<Method> methods = new ArrayList<>();
        Matcher matcher = DECLARATION.matcher(code);
        while (matcher.find()) {
            if (NOT_METHODS.contains(matcher.group(1)) || insideLiteral(matcher.start())) {
                continue;
            }
            int open = matcher.end() - 1;
            List<String> parameters = new ArrayList<>();
            for (String parameter : splitTopLevel(matcher.group(2), ',', true)) {
                String[] words = parameter.strip().split("\\s+");
                if (words.length >= 2) {
                    parameters.add(words[words.length - 1]);
                }
            }
            methods.add(new Method(matcher.group(1), parameters, open, closing(open)));
        }
        return methods;
    }

    /** The arguments of the call whose opening parenthesis is at {@code open}. */
    List<String> arguments(int open) {
        return splitTopLevel(inside(open), ',', false).stream().map(String::strip).toList();
    }

    /**
     * {@code text} split at {@code separator} where no bracket or literal encloses it; {@code angles}: count
     * {@code < >} as brackets too (type arguments of declarations, not comparisons or lambdas in expressions).
     */
    static List<String> splitTopLevel(String text, char separator, boolean angles) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"' || c == '\'') {
                i = endOfLiteral(text, i);
            } else if (c == '(' || c == '[' || c == '{' || (angles && c == '<')) {
                depth++;
            } else if (c == ')' || c == ']' || c == '}' || (angles && c == '>')) {
                depth--;
            } else if (c == separator && depth == 0) {
                parts.add(text.substring(start, i));
                start = i + 1;
            }
        }
        if (start < text.length() || !parts.isEmpty()) {
            parts.add(text.substring(start));
        }
        return parts;
    }

    /** The value of {@code expression} when it is one string literal. */
    static Optional<String> literal(String expression) {
        String e = expression.strip();
        if (e.length() >= 2 && e.startsWith("\"") && e.endsWith("\"") && endOfLiteral(e, 0) == e.length() - 1) {
            return Optional.of(e.substring(1, e.length() - 1).replaceAll("\\\\(.)", "$1"));
        }
        return Optional.empty();
    }

    private boolean insideLiteral(int position) {
        for (int i = 0; i < position; i++) {
            char c = code.charAt(i);
            if (c == '"' || c == '\'') {
                int end = endOfLiteral(code, i);
                if (position <= end) {
                    return true;
                }
                i = end;
            }
        }
        return false;
    }

    /** Where the string, text block or char literal starting at {@code start} ends (its closing quote). */
    private static int endOfLiteral(String text, int start) {
        char quote = text.charAt(start);
        if (quote == '"' && text.startsWith("\"\"\"", start)) {
            int end = text.indexOf("\"\"\"", start + 3);
            return end < 0 ? text.length() - 1 : end + 2;
        }
        for (int i = start + 1; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == quote || c == '\n') {
                return i;
            }
        }
        return text.length() - 1;
    }

    /** {@code text} with its comments blanked out (line breaks kept), string and char literals untouched. */
    static String withoutComments(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"' || c == '\'') {
                int end = endOfLiteral(text, i);
                out.append(text, i, end + 1);
                i = end;
            } else if (text.startsWith("//", i)) {
                int end = text.indexOf('\n', i);
                i = (end < 0 ? text.length() : end) - 1;
            } else if (text.startsWith("/*", i)) {
                int end = text.indexOf("*/", i + 2);
                end = end < 0 ? text.length() : end + 2;
                text.substring(i, end).chars().filter(ch -> ch == '\n').forEach(ch -> out.append('\n'));
                i = end - 1;
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
