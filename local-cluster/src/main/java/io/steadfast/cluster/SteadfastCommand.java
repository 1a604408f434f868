package io.steadfast.cluster;

import io.steadfast.cluster.client.RouterRequestException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The launcher's command line, {@code steadfast <command>}: runs {@link LocalCommand} or {@link KillHostCommand}
 * and turns what goes wrong into a message and an exit code: 2 for a usage error, 1 when the command failed.
 */
@Command(name = "steadfast", mixinStandardHelpOptions = true, scope = ScopeType.INHERIT,
        versionProvider = LauncherVersion.class,
        subcommands = {LocalCommand.class, KillHostCommand.class, HelpCommand.class},
        description = {
            "Runs a Steadfast cluster on this machine, and crashes its hosts to watch the recoveries.",
            "",
            "./steadfast local first builds, with Maven, each module whose jar is missing or older than its sources"
                    + " (--rebuild: all of them); ./steadfast <command> --help needs no build.",
            ""})
public final class SteadfastCommand {

    /** Failures whose message already says what failed and what to do: reported without a stack trace. */
    private static final List<Class<? extends RuntimeException>> EXPLAINED_FAILURES = List.of(
            MissingJarException.class, ServiceStartupException.class, RouterRequestException.class,
            IllegalStateException.class, IllegalArgumentException.class, UncheckedIOException.class);

    public static void main(String[] args) {
        System.exit(commandLine().execute(args)); // runs LocalCluster's shutdown hook, which stops what it started
    }

    static CommandLine commandLine() {
        return new CommandLine(new SteadfastCommand())
                .setParameterExceptionHandler(SteadfastCommand::reportUsageError)
                .setExecutionExceptionHandler(SteadfastCommand::reportFailure);
    }

    /** picocli's message, the options it guesses were meant, and where the valid ones are; not the whole help. */
    private static int reportUsageError(ParameterException e, String[] args) {
        CommandLine command = e.getCommandLine();
        PrintWriter err = command.getErr();
        err.println(e.getMessage());
        UnmatchedArgumentException.printSuggestions(e, err);
        err.println("Run ./" + command.getCommandSpec().qualifiedName() + " --help for the options.");
        return command.getCommandSpec().exitCodeOnInvalidInput();
    }

    private static int reportFailure(Exception e, CommandLine command, ParseResult parsed) throws Exception {
        if (EXPLAINED_FAILURES.stream().noneMatch(type -> type.isInstance(e))) {
            throw e;
        }
        command.getErr().println();
        command.getErr().println(e.getMessage());
        return command.getCommandSpec().exitCodeOnExecutionException();
    }
}
