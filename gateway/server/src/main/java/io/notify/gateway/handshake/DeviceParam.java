package io.notify.gateway.handshake;

import io.notify.common.http.HttpResponses;
import io.notify.common.http.Problem;
import io.notify.gateway.admission.HandshakeGate;
import io.notify.protocol.stream.Endpoints;
import io.undertow.server.HttpServerExchange;
import java.util.Deque;

/**
 * The {@code device} query parameter of {@code /v1/ws} and {@code /v1/sse} (docs/protocol.md §1): a
 * stable id the client gives its device, 1..64 characters of {@code [A-Za-z0-9._-]}, which its
 * {@code ack} receipts carry. Without it the device is the connection id. A malformed one refuses the
 * handshake with 400 {@code bad-device}, counted as reason {@code bad_device}; checked before the
 * credential, so a refused handshake spends no connect ticket.
 */
final class DeviceParam {

    static final String NAME = "device";
    /** What {@link #admit} returns when the client gave no device id. */
    static final String ABSENT = "";

    private DeviceParam() {
    }

    /** The client's device id, {@link #ABSENT} when it gave none, or null when it is malformed (refused: answered and counted). */
    static String admit(HttpServerExchange exchange, HandshakeGate gate, String transport) {
        Deque<String> values = exchange.getQueryParameters().get(NAME);
        String device = values == null || values.isEmpty() ? null : values.getFirst();
        if (device == null) {
            return ABSENT;
        }
        if (Endpoints.CONNECTION_ID.matcher(device).matches()) {
            return device;
        }
        gate.refuse(exchange, transport, "bad_device");
        HttpResponses.problem(exchange, Problem.of(400, "bad-device", "Bad device id", "device must be 1..64 characters of "
                + "[A-Za-z0-9._-], got '" + (device.length() > 70 ? device.substring(0, 70) + "…" : device) + "'"));
        return null;
    }

    /** The device of a session: the client's, or null (the session then uses its connection id). */
    static String orNull(String admitted) {
        return admitted == null || admitted.isEmpty() ? null : admitted;
    }
}
