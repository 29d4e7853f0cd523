package io.notify.cli.doctor;

import java.util.Map;

/**
 * A topic as the cluster describes it: partitions, replication factor and the configs the doctor
 * judges ({@code cleanup.policy}, {@code retention.ms}, {@code min.insync.replicas}).
 */
record TopicState(String name, int partitions, int replicationFactor, Map<String, String> configs) {

    String config(String key) {
        return configs.getOrDefault(key, "");
    }
}
