package io.notify.cli.dev;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jwt.SignedJWT;
import io.notify.cli.Notifyctl;
import io.notify.platform.DevKeys;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Date;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code notifyctl token}: {@code --user} mints a client token, {@code --service} prints the dev stack's query-API token. */
class TokenCommandTest {

    @TempDir
    Path dir;

    private record Run(int code, String out, String err) {
    }

    /** Runs notifyctl in-process, capturing stdout and stderr (not for concurrent use: System.out/err are global). */
    private static Run notifyctl(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        StringWriter usage = new StringWriter();
        PrintStream stdout = System.out;
        PrintStream stderr = System.err;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            CommandLine cmd = new CommandLine(new Notifyctl());
            cmd.setErr(new PrintWriter(usage, true));
            int code = cmd.execute(args);
            return new Run(code, out.toString(StandardCharsets.UTF_8).trim(), err.toString(StandardCharsets.UTF_8) + usage);
        } finally {
            System.setOut(stdout);
            System.setErr(stderr);
        }
    }

    @Test
    void serviceTokenIsTheOneTheDevStackStartedWith() throws Exception {
        String data = "--data-dir=" + dir;
        Run none = notifyctl("token", "--service", data);
        assertEquals(2, none.code(), "no stack was ever started there");
        assertTrue(none.err().contains("notifyctl dev"), none.err());

        DevKeys stack = DevKeys.inDataDir(dir); // what notifyctl dev (LocalPlatform) does first
        Run service = notifyctl("token", "--service", data);
        assertEquals(0, service.code(), service.err());
        assertEquals(stack.queryToken(), service.out());
        assertEquals(stack.fanoutSettings().get("notify.fanout.query.tokens"), service.out(), "the token its query API accepts");
    }

    @Test
    void devKeyCreatesTheTokenInAFreshDataDir() throws Exception {
        Run created = notifyctl("token", "--service", "--dev-key", "--data-dir=" + dir);
        assertEquals(0, created.code(), created.err());
        assertEquals(DevKeys.existing(dir).queryToken(), created.out());
    }

    @Test
    void userTokensAreAsBefore() throws Exception {
        DevKeys stack = DevKeys.inDataDir(dir);
        Run user = notifyctl("token", "--user", "42", "--ttl", "30m", "--data-dir=" + dir);
        assertEquals(0, user.code(), user.err());
        SignedJWT jwt = SignedJWT.parse(user.out());
        assertEquals("42", jwt.getJWTClaimsSet().getSubject());
        assertTrue(jwt.getJWTClaimsSet().getExpirationTime().before(new Date(System.currentTimeMillis() + 31 * 60_000L)));
        assertTrue(jwt.verify(new com.nimbusds.jose.crypto.MACVerifier(stack.secret().getBytes(StandardCharsets.US_ASCII))));
    }

    @Test
    void exactlyOneKindIsAskedFor() throws Exception {
        DevKeys.inDataDir(dir);
        String data = "--data-dir=" + dir;
        assertEquals(2, notifyctl("token", data).code());
        assertEquals(2, notifyctl("token", "--user", "42", "--service", data).code());
        Run ttl = notifyctl("token", "--service", "--ttl", "1h", data);
        assertEquals(2, ttl.code());
        assertTrue(ttl.err().contains("--ttl applies to --user"), ttl.err());
    }
}
