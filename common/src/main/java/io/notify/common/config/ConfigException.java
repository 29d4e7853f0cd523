package io.notify.common.config;

/** A configuration value is missing or invalid; the message names the offending key. */
public final class ConfigException extends RuntimeException {

    public ConfigException(String key, String problem) {
        super(key + ": " + problem);
    }
}
