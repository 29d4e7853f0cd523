package io.notify.cli.why;

import io.notify.protocol.push.PushOutcome;

/** How {@code notifyctl why} words one push attempt of a fallback (a row of the timeline). */
final class PushAttempts {

    private PushAttempts() {
    }

    /** One attempt: what happened, to which registration of which provider, the provider's answer, and what followed. */
    static String describe(PushOutcome o, String user) {
        if (o.outcome() == PushOutcome.Outcome.NO_REGISTRATION) {
            return "no registration: user " + user + " had no push device registered when the fallback was written";
        }
        String what = switch (o.outcome()) {
            case SENT -> "sent";
            case RETRY -> "failed, tried again";
            case GONE -> "gone";
            case REFUSED -> "refused";
            case GIVEN_UP -> "given up";
            case RATE_LIMITED -> "rate limited";
            case NO_REGISTRATION -> "no registration";
        };
        // attempt 0: none was made (a record read after its TTL is given up unsent)
        String answer = (o.attempt() > 0 ? "attempt " + o.attempt() : "not attempted")
                + (o.status() > 0 ? ", HTTP " + o.status() : "") + (o.reason() == null ? "" : ": " + o.reason());
        String then = switch (o.outcome()) {
            case SENT -> o.providerId() == null ? "" : ", message id " + o.providerId();
            case GONE -> "; the provider no longer knows the registration, so it was removed (notify.push-changes)";
            case REFUSED -> "; not to be tried again: in notify.push.dlq";
            case GIVEN_UP -> o.attempt() > 0 ? "; still failing at the last attempt or past the retry deadline: in notify.push.dlq"
                    : "; in notify.push.dlq";
            case RATE_LIMITED -> "; the device's own rate limit held it back: in notify.push.dlq";
            case RETRY, NO_REGISTRATION -> "";
        };
        return what + ": " + o.provider() + " registration " + o.registration() + " (" + answer + ")" + then;
    }
}
