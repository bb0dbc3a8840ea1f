package io.gpupipe.localstack.docs;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The settings docs/configuration.md and docs/local-stack.md document, read from their tables as a reader reads them:
 * <ul>
 * <li>the first column of the table under "SAM parameters": SAM parameters; under "CDK context keys": context keys;</li>
 * <li>the first column of every other table of configuration.md: configuration keys, written in full
 * ({@code gpupipe.batch.bucket}), as environment variables ({@code GPUPIPE_TRACING_FILE}), or relative to the group
 * the section names in its text as {@code gpupipe.<group>.*} ({@code queue-urls.<tier>} under {@code gpupipe.router.*});</li>
 * <li>the first column of local-stack.md's "Flags" table: the launcher's flags;</li>
 * <li>any inline code of either page naming a {@code gpupipe.…} key or a {@code GPUPIPE_…} variable.</li>
 * </ul>
 * Names that fit none of these are {@link #unreadable()}.
 */
public record DocumentedSettings(Set<String> samParameters, Set<String> cdkContextKeys, Set<String> configKeys,
                                 Set<String> environmentVariables, Set<String> launcherFlags, List<String> unreadable,
                                 String allInlineCode) {
    public static final String SAM_SECTION = "SAM parameters";
    public static final String CDK_SECTION = "CDK context keys";
    public static final String FLAGS_SECTION = "Flags";
    private static final Pattern GROUP = Pattern.compile("^(gpupipe\\.[a-z]+)\\.\\*$");
    private static final Pattern FULL_KEY = Pattern.compile("^gpupipe\\.[a-z0-9<>.-]*[a-z0-9>]$");
    private static final Pattern RELATIVE_KEY = Pattern.compile("^[a-z][a-z0-9<>.-]*[a-z0-9>]$");
    private static final Pattern ENV = Pattern.compile("\\bGPUPIPE_[A-Z0-9_<>]*[A-Z0-9>](?![A-Z0-9_<>*])");

    public static DocumentedSettings read(MarkdownPage configuration, MarkdownPage localStack) {
        Set<String> sam = new TreeSet<>();
        Set<String> cdk = new TreeSet<>();
        Set<String> keys = new TreeSet<>();
        Set<String> env = new TreeSet<>();
        Set<String> flags = new TreeSet<>();
        List<String> unreadable = new ArrayList<>();
        Map<String, List<String>> prose = configuration.proseCodeBySection();
        for (MarkdownPage.Row row : configuration.tableRows()) {
            for (String name : row.firstCellCode()) {
                String where = configuration.name() + ":" + row.line() + ": `" + name + "`";
                switch (row.section()) {
                    case SAM_SECTION -> sam.add(name);
                    case CDK_SECTION -> cdk.add(name);
                    default -> {
                        Optional<String> group = prose.getOrDefault(row.section(), List.of()).stream()
                                .map(GROUP::matcher).filter(Matcher::matches).map(m -> m.group(1)).findFirst();
                        if (FULL_KEY.matcher(name).matches()) {
                            keys.add(name);
                        } else if (ENV.matcher(name).matches()) {
                            env.add(name);
                        } else if (group.isPresent() && RELATIVE_KEY.matcher(name).matches()) {
                            keys.add(group.get() + "." + name);
                        } else {
                            unreadable.add(where + " in section \"" + row.section() + "\" (write the key in full, "
                                    + "as GPUPIPE_…, or name the section's group as `gpupipe.<group>.*` in its text)");
                        }
                    }
                }
            }
        }
        for (MarkdownPage.Row row : localStack.tableRows()) {
            if (row.section().equals(FLAGS_SECTION)) {
                row.firstCellCode().stream().map(code -> code.strip().split("\\s+")[0]).filter(f -> f.startsWith("-"))
                        .forEach(flags::add);
            }
        }
        StringBuilder allCode = new StringBuilder();
        for (MarkdownPage page : List.of(configuration, localStack)) {
            for (String code : page.inlineCode()) {
                allCode.append(code).append('\n');
                if (FULL_KEY.matcher(code).matches()) {
                    keys.add(code);
                }
                Matcher matcher = ENV.matcher(code);
                while (matcher.find()) {
                    env.add(matcher.group());
                }
            }
        }
        return new DocumentedSettings(sam, cdk, keys, env, flags, unreadable, allCode.toString());
    }

    /** True when an inline code span of the two pages names {@code word} (as a whole word). */
    public boolean mentions(String word) {
        return Pattern.compile("(?<![\\w])" + Pattern.quote(word) + "(?![\\w])").matcher(allInlineCode).find();
    }
}
