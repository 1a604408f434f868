package io.steadfast.cluster;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.Help.Ansi;

/** One run of the launcher's command line in this JVM, with its exit code and what it printed (no colours). */
record CommandRun(int exitCode, String out, String err) {

    /** Only for arguments that stop before a command does its work: help, or a usage error. */
    static CommandRun of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exitCode = SteadfastCommand.commandLine()
                .setOut(new PrintWriter(out, true))
                .setErr(new PrintWriter(err, true))
                .setColorScheme(Help.defaultColorScheme(Ansi.OFF))
                .execute(args);
        return new CommandRun(exitCode, out.toString(), err.toString());
    }

    /** The help of {@code steadfast <subcommand>} (or of {@code steadfast} itself for null), as --help prints it. */
    static String usage(@Nullable String subcommand) {
        CommandLine steadfast = SteadfastCommand.commandLine();
        CommandLine command = subcommand == null ? steadfast : steadfast.getSubcommands().get(subcommand);
        return command.getUsageMessage(Ansi.OFF);
    }
}
