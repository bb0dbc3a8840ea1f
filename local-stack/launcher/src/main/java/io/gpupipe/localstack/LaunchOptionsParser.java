package io.gpupipe.localstack;

import io.gpupipe.localstack.LaunchFlags.BadFlagException;
import io.gpupipe.localstack.LaunchFlags.BadValueException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Reads the command line with picocli ({@link LaunchFlags} declares the flags; {@code --help} is generated from it),
 * and {@code GPUPIPE_TEXT_MODEL}, {@code GPUPIPE_TEXT_MODEL_URL}, {@code GPUPIPE_CACHE_DIR}. Never throws for bad
 * input: an {@link Outcome.Invalid} carries one line naming the problem and the fix.
 */
public final class LaunchOptionsParser {

    /** What the command line asks for. */
    public sealed interface Outcome {
        /** Start the stack with these options. */
        record Run(LaunchOptions options) implements Outcome {
        }

        /** Print {@code usage} and exit 0. */
        record Help(String usage) implements Outcome {
        }

        /** Print the message and exit 2. */
        record Invalid(String message) implements Outcome {
        }
    }

    private final LaunchOptions defaults;
    private final Map<String, String> env;

    public LaunchOptionsParser(LaunchOptions defaults, Map<String, String> env) {
        this.defaults = defaults;
        this.env = env;
    }

    /** The generated {@code --help} text. */
    public static String usage() {
        return commandLine(new LaunchFlags()).getUsageMessage(CommandLine.Help.Ansi.OFF);
    }

    public Outcome parse(String... args) {
        LaunchFlags flags = new LaunchFlags();
        CommandLine commandLine = commandLine(flags);
        // Maven passes an empty -Dlocal-stack.args as one blank argument
        String[] given = Arrays.stream(args).filter(a -> !a.isBlank()).toArray(String[]::new);
        try {
            commandLine.parseArgs(given);
            if (commandLine.isUsageHelpRequested()) {
                return new Outcome.Help(usage());
            }
            return new Outcome.Run(flags.options(defaults, env));
        } catch (CommandLine.ParameterException e) {
            return new Outcome.Invalid(message(e));
        } catch (BadFlagException e) {
            return new Outcome.Invalid(e.getMessage());
        }
    }

    private static CommandLine commandLine(LaunchFlags flags) {
        CommandLine commandLine = new CommandLine(flags);
        commandLine.setExpandAtFiles(false);
        commandLine.setOverwrittenOptionsAllowed(true);
        commandLine.setUnmatchedOptionsAllowedAsOptionParameters(false);
        return commandLine;
    }

    /** picocli's problem as the one line the launcher has always printed for it. */
    private static String message(CommandLine.ParameterException e) {
        if (e.getCause() instanceof BadValueException bad && e.getArgSpec() instanceof OptionSpec option) {
            return option.longestName() + " " + bad.getMessage();
        }
        if (e instanceof CommandLine.UnmatchedArgumentException unmatched && !unmatched.getUnmatched().isEmpty()) {
            return "unknown flag " + unmatched.getUnmatched().get(0) + "; run with --help to list the flags";
        }
        if (e instanceof CommandLine.MissingParameterException missing) {
            List<ArgSpec> specs = missing.getMissing();
            if (!specs.isEmpty() && specs.get(0) instanceof OptionSpec option) {
                return option.longestName() + " needs a value; run with --help to see it";
            }
        }
        if (e.getArgSpec() instanceof OptionSpec option && e.getMessage().startsWith("Expected parameter for")) {
            return option.longestName() + " needs a value; run with --help to see it";
        }
        return e.getMessage() + "; run with --help to list the flags";
    }
}
