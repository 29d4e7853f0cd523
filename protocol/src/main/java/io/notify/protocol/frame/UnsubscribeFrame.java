package io.notify.protocol.frame;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * Client to server: leave a room or the broadcast stream. The server answers {@code unsubscribed}
 * (also when the connection was not subscribed: leaving is idempotent) and sends nothing more of it.
 */
@JsonPropertyOrder({"stream"})
public record UnsubscribeFrame(String stream) implements ClientFrame {

    public UnsubscribeFrame {
        SubscribeFrame.requireStreamText(stream);
    }

    @Override
    public FrameType frameType() {
        return FrameType.UNSUBSCRIBE;
    }
}
