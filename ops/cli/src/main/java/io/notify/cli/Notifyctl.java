package io.notify.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code notifyctl}: the operator and analyst CLI. Exit codes: 0 ok, 1 failed, 2 bad usage. The
 * {@code bench} and {@code chaos} commands live in ops/bench (notify-bench), which adds them to this
 * root when {@code ops/notifyctl} runs from a checkout ({@code io.notify.cli.checkout.CheckoutMain}).
 */
@Command(name = "notifyctl", mixinStandardHelpOptions = true, version = "notifyctl 0.1.0",
        description = "Operate, measure and inspect a Notify platform.",
        subcommands = {io.notify.cli.dev.DevCommand.class, io.notify.cli.dev.SendCommand.class,
                io.notify.cli.dev.TokenCommand.class, io.notify.cli.replay.ReplayCommand.class, io.notify.cli.replay.TailCommand.class, io.notify.cli.why.WhyCommand.class,
                io.notify.cli.config.ConfigReferenceCommand.class,
                io.notify.cli.doctor.DoctorCommand.class,
                CommandLine.HelpCommand.class})
public final class Notifyctl implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.err);
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new Notifyctl()).execute(args));
    }
}
