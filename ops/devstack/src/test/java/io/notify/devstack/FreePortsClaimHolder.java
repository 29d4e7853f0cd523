package io.notify.devstack;

/**
 * A second process for {@link FreePortsTest}: claims the port given as its argument, says whether it
 * could on stdout, and holds the claim until its stdin ends.
 */
public final class FreePortsClaimHolder {

    private FreePortsClaimHolder() {
    }

    public static void main(String[] args) throws Exception {
        System.out.println(FreePorts.claim(Integer.parseInt(args[0])) ? "claimed" : "refused");
        System.out.flush();
        System.in.read();
    }
}
