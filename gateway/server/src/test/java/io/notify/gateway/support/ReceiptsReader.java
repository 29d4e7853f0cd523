package io.notify.gateway.support;

import io.notify.devstack.Infra;
import io.notify.protocol.inbox.Receipt;
import io.notify.schemas.topic.TopicCatalog;

/** The test's prefixed {@code notify.receipts}, read by stream ({@link StreamTopicReader}). */
public final class ReceiptsReader extends StreamTopicReader<Receipt> {

    public ReceiptsReader(Infra infra, int partitions) {
        super(infra, TopicCatalog.of(infra.prefix()).receipts(), partitions);
    }
}
