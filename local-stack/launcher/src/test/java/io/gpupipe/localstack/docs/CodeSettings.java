package io.gpupipe.localstack.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What the code reads from outside, found in its main sources: the {@code @ConfigMapping} keys (with {@code <key>}
 * for a map's keys), the CDK context keys the app asks {@code tryGetContext} for (with {@code <tier>} for a part
 * computed from a tier), and the environment variables read directly ({@code System.getenv}, an environment map's
 * {@code get}). A wrapper around {@code tryGetContext} is followed to its callers, and a local variable or constant to
 * its value.
 */
public record CodeSettings(Set<String> configKeys, Set<String> cdkContextKeys, Set<String> environmentVariables) {
    /** The placeholder of a map's keys in a configuration key. */
    public static final String MAP_KEY = "<key>";
    /** The placeholder of a context key's part computed from a tier. */
    public static final String TIER = "<tier>";

    private static final Pattern CONFIG_MAPPING = Pattern.compile(
            "@ConfigMapping\\s*\\(\\s*prefix\\s*=\\s*\"([^\"]+)\"[^)]*\\)\\s*(?:public\\s+)?interface\\s+(\\w+)");
    private static final Pattern INTERFACE = Pattern.compile("\\binterface\\s+(\\w+)[^{;]*\\{");
    private static final Pattern MEMBER = Pattern.compile(
            "^((?:@[\\w.]+(?:\\([^)]*\\))?\\s*)*)([\\w.]+(?:<.*>)?)\\s+(\\w+)\\s*\\(\\s*\\)$", Pattern.DOTALL);
    private static final Pattern WITH_NAME = Pattern.compile("@WithName\\(\\s*\"([^\"]+)\"\\s*\\)");
    private static final Pattern CONTAINER = Pattern.compile("^(?:Optional|Set|List)<(.*)>$");
    private static final Pattern MAP = Pattern.compile("^Map<\\s*String\\s*,(.*)>$");
    private static final Pattern ENV_NAME = Pattern.compile("^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$");
    private static final String ARG = "(\"[A-Z][A-Z0-9_]*\"|[A-Z][A-Z0-9_]*)";
    private static final List<Pattern> ENV_READS = List.of(
            Pattern.compile("\\bgetenv\\(\\s*" + ARG + "\\s*\\)"),
            Pattern.compile("\\b\\w*(?:env|Env|ENV)\\w*\\s*\\.\\s*(?:get|getOrDefault|containsKey)\\(\\s*" + ARG),
            Pattern.compile("\\w+\\(\\s*\\w*(?:env|Env)\\w*\\s*,\\s*" + ARG));
    private static final Pattern TRY_GET_CONTEXT = Pattern.compile("\\btryGetContext\\s*\\(");
    private static final int MAX_DEPTH = 8;

    /** Reads every {@code src/main/java} file under {@code repo}; CDK context keys from {@code cdk/} only. */
    public static CodeSettings read(Path repo) {
        Set<String> config = new TreeSet<>();
        Set<String> cdk = new TreeSet<>();
        Set<String> env = new TreeSet<>();
        for (Path file : mainSources(repo)) {
            JavaSource source = JavaSource.of(readText(file));
            config.addAll(configKeys(source));
            env.addAll(environmentVariables(source));
            if (repo.relativize(file).startsWith("cdk")) {
                cdk.addAll(contextKeys(source));
            }
        }
        return new CodeSettings(config, cdk, env);
    }

    /**
     * The keys of the {@code @ConfigMapping} interface in {@code source} ({@code prefix.kebab-name}, nested groups
     * and maps followed), and any {@code gpupipe.*} property a constant names inside a {@code ${…}} expression.
     */
    static Set<String> configKeys(JavaSource source) {
        Set<String> keys = new TreeSet<>();
        source.stringConstants().forEach((name, value) -> {
            if (value.matches("gpupipe\\.[a-z][a-z0-9.-]*") && source.code().matches("(?s).*\"\\$\\{\"\\s*\\+\\s*"
                    + name + "\\b.*")) {
                keys.add(value);
            }
        });
        Matcher mapping = CONFIG_MAPPING.matcher(source.code());
        if (mapping.find()) {
            Map<String, String> interfaces = interfaceBodies(source);
            addKeys(mapping.group(1), interfaces.get(mapping.group(2)), interfaces, keys, 0);
        }
        return keys;
    }

    private static void addKeys(String prefix, String body, Map<String, String> interfaces, Set<String> keys,
                                int depth) {
        if (body == null || depth > MAX_DEPTH) {
            return;
        }
        for (String statement : JavaSource.splitTopLevel(flatten(body), ';', false)) {
            for (String member : statement.split("}")) {
                Matcher matcher = MEMBER.matcher(member.strip());
                if (!matcher.matches() || matcher.group(2).equals("default")) {
                    continue;
                }
                Matcher withName = WITH_NAME.matcher(matcher.group(1));
                String key = prefix + "." + (withName.find() ? withName.group(1) : kebab(matcher.group(3)));
                String type = unwrap(matcher.group(2));
                Matcher map = MAP.matcher(type);
                if (map.matches()) {
                    key = key + "." + MAP_KEY;
                    type = unwrap(map.group(1).strip());
                }
                if (interfaces.containsKey(type)) {
                    addKeys(key, interfaces.get(type), interfaces, keys, depth + 1);
                } else {
                    keys.add(key);
                }
            }
        }
    }

    /** {@code Optional<Set<X>>} → {@code X}. */
    private static String unwrap(String type) {
        String t = type.strip();
        for (Matcher m = CONTAINER.matcher(t); m.matches(); m = CONTAINER.matcher(t)) {
            t = m.group(1).strip();
        }
        return t;
    }

    /** {@code body} with every nested block emptied: what is declared at its own level. */
    private static String flatten(String body) {
        JavaSource nested = new JavaSource(body);
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            if (c == '{') {
                i = nested.closing(i);
                out.append("{}");
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static Map<String, String> interfaceBodies(JavaSource source) {
        Map<String, String> bodies = new LinkedHashMap<>();
        Matcher matcher = INTERFACE.matcher(source.code());
        while (matcher.find()) {
            bodies.put(matcher.group(1), source.inside(matcher.end() - 1));
        }
        return bodies;
    }

    /** {@code maxUnfinishedJobs} → {@code max-unfinished-jobs}, as SmallRye Config names a mapping's methods. */
    static String kebab(String camel) {
        return camel.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(java.util.Locale.ROOT);
    }

    /** The environment variables {@code source} reads directly. */
    static Set<String> environmentVariables(JavaSource source) {
        Map<String, String> constants = source.stringConstants();
        Set<String> names = new TreeSet<>();
        for (Pattern read : ENV_READS) {
            Matcher matcher = read.matcher(source.code());
            while (matcher.find()) {
                String arg = matcher.group(1);
                String name = arg.startsWith("\"") ? arg.substring(1, arg.length() - 1) : constants.get(arg);
                if (name != null && ENV_NAME.matcher(name).matches()) {
                    names.add(name);
                }
            }
        }
        return names;
    }

    /** The context keys {@code source} asks {@code tryGetContext} for, directly or through a wrapper method. */
    static Set<String> contextKeys(JavaSource source) {
        Set<String> keys = new TreeSet<>();
        Matcher matcher = TRY_GET_CONTEXT.matcher(source.code());
        while (matcher.find()) {
            int open = matcher.end() - 1;
            List<String> args = source.arguments(open);
            if (args.size() == 1) {
                keys.addAll(values(source, args.get(0), source.methodAt(open), 0));
            }
        }
        return keys;
    }

    /** The strings {@code expression} can be inside {@code method}: literals joined by {@code +}. */
    private static Set<String> values(JavaSource source, String expression, Optional<JavaSource.Method> method,
                                      int depth) {
        Set<String> results = new LinkedHashSet<>(List.of(""));
        for (String term : JavaSource.splitTopLevel(expression, '+', false)) {
            Set<String> termValues = termValues(source, term.strip(), method, depth);
            Set<String> joined = new LinkedHashSet<>();
            results.forEach(prefix -> termValues.forEach(value -> joined.add(prefix + value)));
            results = joined;
        }
        return results;
    }

    private static Set<String> termValues(JavaSource source, String term, Optional<JavaSource.Method> method,
                                          int depth) {
        Optional<String> literal = JavaSource.literal(term);
        if (literal.isPresent()) {
            return Set.of(literal.get());
        }
        if (depth < MAX_DEPTH && term.matches("\\w+") && method.isPresent()) {
            JavaSource.Method m = method.get();
            int parameter = m.parameters().indexOf(term);
            if (parameter >= 0) {
                return callerValues(source, m, parameter, depth);
            }
            Matcher local = Pattern.compile("\\b(?:String|var)\\s+" + term + "\\s*=\\s*([^;]+);")
                    .matcher(source.code().substring(m.bodyStart(), m.bodyEnd()));
            if (local.find()) {
                return values(source, local.group(1), method, depth + 1);
            }
        }
        String constant = source.stringConstants().get(term);
        return Set.of(constant != null ? constant : TIER);
    }

    /** What the callers of {@code method} in this file pass as its {@code parameter}-th argument. */
    private static Set<String> callerValues(JavaSource source, JavaSource.Method method, int parameter, int depth) {
        Set<String> values = new LinkedHashSet<>();
        Matcher call = Pattern.compile("(?<![\\w.])" + method.name() + "\\s*\\(").matcher(source.code());
        while (call.find()) {
            int open = call.end() - 1;
            if (isDeclaration(source, open)) {
                continue;
            }
            List<String> args = source.arguments(open);
            Optional<JavaSource.Method> caller = source.methodAt(open);
            if (args.size() == method.parameters().size() && caller.isPresent()
                    && caller.get().bodyStart() != method.bodyStart()) {
                values.addAll(values(source, args.get(parameter), caller, depth + 1));
            }
        }
        return values;
    }

    /** True when the parentheses at {@code open} are a declaration's parameters (a body or throws follows). */
    private static boolean isDeclaration(JavaSource source, int open) {
        String after = source.code().substring(source.closing(open) + 1).stripLeading();
        return after.startsWith("{") || after.startsWith("throws");
    }

    private static List<Path> mainSources(Path repo) {
        try (Stream<Path> files = Files.walk(repo)) {
            List<Path> sources = new ArrayList<>();
            files.filter(f -> f.toString().endsWith(".java") && Files.isRegularFile(f))
                    .filter(f -> {
                        String relative = repo.relativize(f).toString().replace('\\', '/');
                        return relative.contains("src/main/java/") && !relative.contains("/target/")
                                && !relative.contains("node_modules/") && !relative.startsWith(".");
                    })
                    .sorted().forEach(sources::add);
            return sources;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String readText(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
