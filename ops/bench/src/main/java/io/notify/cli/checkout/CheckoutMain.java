package io.notify.cli.checkout;

import io.notify.cli.Notifyctl;
import io.notify.cli.bench.BenchCommand;
import io.notify.cli.chaos.ChaosCommand;
import picocli.CommandLine;

/**
 * {@code notifyctl} as {@code ops/notifyctl} runs it from a checkout: the operator's commands
 * ({@link Notifyctl}, the notify-cli jar) with {@code bench} and {@code chaos} added, which ship in
 * this module (notify-bench) so that the operator's jar carries no load generator, benchmark or
 * fault injector. Same names, flags and exit codes as when they were built in.
 */
public final class CheckoutMain {

    private CheckoutMain() {
    }

    /** The root command with every subcommand, bench and chaos included. */
    public static CommandLine commandLine() {
        CommandLine cmd = new CommandLine(new Notifyctl());
        cmd.addSubcommand(new BenchCommand());
        cmd.addSubcommand(new ChaosCommand());
        return cmd;
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }
}
