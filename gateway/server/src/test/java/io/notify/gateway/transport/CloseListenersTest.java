package io.notify.gateway.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.xnio.ChannelListener;
import org.xnio.Option;
import org.xnio.StreamConnection;

/** The upgraded socket's previous owner lets go at the takeover; the new owner's listener alone runs on close. */
class CloseListenersTest {

    /** A socket that is only open or closed. */
    static final class Socket extends StreamConnection {
        boolean open = true;

        Socket() {
            super(null);
        }

        @Override
        public boolean isOpen() {
            return open;
        }

        void closeNow() {
            open = false;
            invokeCloseListenerForTest();
        }

        private void invokeCloseListenerForTest() {
            try {
                java.lang.reflect.Method m = org.xnio.Connection.class.getDeclaredMethod("invokeCloseListener");
                m.setAccessible(true);
                m.invoke(this);
            } catch (ReflectiveOperationException e) {
                throw new AssertionError(e);
            }
        }

        @Override
        protected void notifyWriteClosed() {
        }

        @Override
        protected void notifyReadClosed() {
        }

        @Override
        public SocketAddress getPeerAddress() {
            return new InetSocketAddress(0);
        }

        @Override
        public SocketAddress getLocalAddress() {
            return new InetSocketAddress(0);
        }

        @Override
        public <T> T getOption(Option<T> option) {
            return null;
        }

        @Override
        public boolean supportsOption(Option<?> option) {
            return false;
        }

        @Override
        public <T> T setOption(Option<T> option, T value) {
            return null;
        }
    }

    @Test
    void thePreviousListenerRunsAtTheTakeoverAndIsNoLongerReachable() {
        List<String> ran = new ArrayList<>();
        Socket socket = new Socket();
        socket.setCloseListener(c -> ran.add("undertow lets go"));
        ChannelListener<StreamConnection> ours = c -> ran.add("transport closed");
        CloseListeners.takeOver(socket, ours);
        assertEquals(List.of("undertow lets go"), ran);
        assertSame(ours, socket.getCloseListener(), "replaced, not merged: the HTTP connection is not reachable from the socket");
        socket.closeNow();
        assertEquals(List.of("undertow lets go", "transport closed"), ran);
    }

    @Test
    void onAClosedSocketTheListenerRunsAtOnce() {
        List<String> ran = new ArrayList<>();
        Socket socket = new Socket();
        socket.closeNow();
        CloseListeners.takeOver(socket, c -> ran.add("transport"));
        assertEquals(List.of("transport"), ran);
    }
}
