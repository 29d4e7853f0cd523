package io.notify.push.fcm;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.notify.protocol.NotifyJson;
import io.notify.protocol.text.Clip;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.interfaces.RSAPrivateKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Google service account key, as the Firebase console downloads it ({@code "type": "service_account"}):
 * the project FCM sends for, and the RSA key and identity that sign the OAuth grant. Only the fields
 * the sender uses are read; each missing or malformed one is named in the error, which never quotes
 * the key. {@link #toString()} never shows the key.
 *
 * @param projectId    {@code project_id}: the Firebase project, part of the send URL
 * @param privateKeyId {@code private_key_id}: the {@code kid} of the grant's JWT
 * @param privateKey   {@code private_key}: an unencrypted PKCS#8 PEM RSA key (at least 2,048 bits)
 * @param clientEmail  {@code client_email}: the grant's issuer
 * @param tokenUri     {@code token_uri}: the OAuth token endpoint (the grant's audience)
 */
public record ServiceAccount(String projectId, String privateKeyId, RSAPrivateKey privateKey, String clientEmail, URI tokenUri) {

    private static final Pattern PKCS8 = Pattern.compile("-----BEGIN PRIVATE KEY-----([A-Za-z0-9+/=\\s]+)-----END PRIVATE KEY-----");
    private static final Pattern PROJECT_ID = Pattern.compile("^[A-Za-z0-9:._-]{1,100}$");

    public ServiceAccount {
        if (projectId == null || !PROJECT_ID.matcher(projectId).matches()) {
            throw new IllegalArgumentException("service account: project_id must be a Google Cloud project id (1..100 of [A-Za-z0-9:._-]), got '" + Clip.clip(projectId) + "'");
        }
        if (privateKeyId == null || privateKeyId.isBlank()) {
            throw new IllegalArgumentException("service account: private_key_id is required");
        }
        if (privateKey == null || privateKey.getModulus().bitLength() < 2048) {
            throw new IllegalArgumentException("service account: private_key must be an RSA key of at least 2048 bits");
        }
        if (clientEmail == null || !clientEmail.contains("@")) {
            throw new IllegalArgumentException("service account: client_email must be the account's e-mail address, got '"
                    + Clip.clip(clientEmail) + "'");
        }
        if (tokenUri == null || !tokenUri.isAbsolute() || tokenUri.getHost() == null
                || !(tokenUri.getScheme().equals("https") || tokenUri.getScheme().equals("http"))) {
            throw new IllegalArgumentException("service account: token_uri must be an absolute http(s) URL, got '" + tokenUri + "'");
        }
    }

    /**
     * The service account of {@link FcmSettings#serviceAccount()}: JSON text when it starts with
     * <code>{</code>, else the path of the JSON file.
     *
     * @throws IllegalArgumentException naming {@code fcm.service-account} and what is wrong
     */
    public static ServiceAccount load(String jsonOrPath) {
        if (jsonOrPath == null) {
            throw new IllegalArgumentException("fcm.service-account is required");
        }
        if (jsonOrPath.strip().startsWith("{")) {
            return wrap("fcm.service-account", jsonOrPath);
        }
        Path file = Path.of(jsonOrPath.strip());
        String json;
        try {
            json = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalArgumentException("fcm.service-account: cannot read " + file + ": " + e, e);
        }
        return wrap("fcm.service-account " + file, json);
    }

    private static ServiceAccount wrap(String where, String json) {
        try {
            return parse(json);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
        }
    }

    /** The service account in {@code json}, the text of a key file. */
    public static ServiceAccount parse(String json) {
        JsonNode root;
        try {
            root = NotifyJson.mapper().readTree(json);
        } catch (JsonProcessingException e) {
            // the parser's message may quote the text, and the text holds a private key
            throw new IllegalArgumentException("service account: not JSON (line " + e.getLocation().getLineNr() + ")");
        }
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("service account: a JSON object is expected");
        }
        String type = text(root, "type");
        if (!type.equals("service_account")) {
            throw new IllegalArgumentException("service account: type must be 'service_account', got '" + Clip.clip(type)
                    + "' (download a key of a service account: Firebase console, Project settings, Service accounts)");
        }
        return new ServiceAccount(text(root, "project_id"), text(root, "private_key_id"), rsaKey(text(root, "private_key")),
                text(root, "client_email"), uri(text(root, "token_uri")));
    }

    private static String text(JsonNode root, String field) {
        JsonNode node = root.get(field);
        if (node == null || !node.isTextual() || node.asText().isBlank()) {
            throw new IllegalArgumentException("service account: " + field + " is required (a string)");
        }
        return node.asText();
    }

    private static URI uri(String value) {
        try {
            return new URI(value);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("service account: token_uri is not a URL: " + e.getReason());
        }
    }

    private static RSAPrivateKey rsaKey(String pem) {
        Matcher m = PKCS8.matcher(pem);
        if (!m.find()) {
            throw new IllegalArgumentException("service account: private_key must be a PEM '-----BEGIN PRIVATE KEY-----' (PKCS#8) block");
        }
        try {
            byte[] der = Base64.getMimeDecoder().decode(m.group(1));
            return (RSAPrivateKey) KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(der));
        } catch (GeneralSecurityException | IllegalArgumentException | ClassCastException e) {
            throw new IllegalArgumentException("service account: private_key is not an RSA PKCS#8 key");
        }
    }

    @Override
    public String toString() {
        return "ServiceAccount[projectId=" + projectId + ", privateKeyId=" + privateKeyId + ", clientEmail=" + clientEmail
                + ", tokenUri=" + tokenUri + "]";
    }
}
