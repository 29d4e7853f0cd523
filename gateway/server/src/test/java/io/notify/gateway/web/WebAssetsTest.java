package io.notify.gateway.web;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class WebAssetsTest {

    private final WebAssets web = WebAssets.load();

    @Test
    void servesTheClientAsAnEsModuleAnyOriginMayImport() {
        WebAssets.Answer a = web.answer("/notify.js", null);
        assertEquals(200, a.status());
        assertEquals("application/javascript; charset=utf-8", a.headers().get("Content-Type"));
        assertEquals("public, max-age=300", a.headers().get("Cache-Control"));
        assertEquals("*", a.headers().get("Access-Control-Allow-Origin"));
        assertEquals("nosniff", a.headers().get("X-Content-Type-Options"));
        String js = new String(a.body(), StandardCharsets.UTF_8);
        assertTrue(js.contains("export function connect("), "notify.js exports connect");
        assertTrue(js.contains("export const PROTOCOL = 'notify.v1'"), js.substring(0, 200));
    }

    @Test
    void servesTheDemoPageRevalidatedAndWithoutReferrer() {
        WebAssets.Answer a = web.answer("/", null);
        assertEquals(200, a.status());
        assertEquals("text/html; charset=utf-8", a.headers().get("Content-Type"));
        assertEquals("no-cache", a.headers().get("Cache-Control"));
        // the page's URL may carry ?token=: it must not leak to ingest or anywhere else in a Referer
        assertEquals("no-referrer", a.headers().get("Referrer-Policy"));
        String html = new String(a.body(), StandardCharsets.UTF_8);
        assertTrue(html.contains("from '/notify.js'"));
        assertTrue(html.contains("href=\"/demo.css\""));
        assertEquals("text/css; charset=utf-8", web.answer("/demo.css", null).headers().get("Content-Type"));
        assertEquals(List.of("/", "/notify.js", "/demo.css", "/service-worker.js"), web.paths());
        assertTrue(new String(web.answer("/service-worker.js", null).body(), java.nio.charset.StandardCharsets.UTF_8).contains("showNotification"),
                "the push service worker of examples/browser-push");
    }

    @Test
    void strongEtagOfTheBytesAnswers304WhenTheClientHasThem() {
        WebAssets.Answer first = web.answer("/notify.js", null);
        String etag = first.headers().get("ETag");
        assertTrue(etag.matches("\"[A-Za-z0-9_-]{22}\""), etag);
        assertEquals(WebAssets.etag(first.body()), etag);
        assertNotEquals(etag, web.answer("/", null).headers().get("ETag"));

        WebAssets.Answer again = web.answer("/notify.js", etag);
        assertEquals(304, again.status());
        assertArrayEquals(new byte[0], again.body());
        assertEquals(etag, again.headers().get("ETag"));
        assertEquals("public, max-age=300", again.headers().get("Cache-Control"));

        assertEquals(304, web.answer("/notify.js", "\"other\", W/" + etag).status());
        assertEquals(304, web.answer("/notify.js", "*").status());
        assertEquals(200, web.answer("/notify.js", "\"other\"").status());
    }

    @Test
    void ifNoneMatchParsing() {
        assertTrue(WebAssets.matches("\"a\"", "\"a\""));
        assertTrue(WebAssets.matches(" \"b\" ,\"a\"", "\"a\""));
        assertTrue(WebAssets.matches("W/\"a\"", "\"a\""));
        assertFalse(WebAssets.matches("\"ab\"", "\"a\""));
        assertFalse(WebAssets.matches("", "\"a\""));
        assertFalse(WebAssets.matches(null, "\"a\""));
    }

    @Test
    void unknownPathIs404() {
        assertEquals(404, web.answer("/nope.js", null).status());
    }
}
