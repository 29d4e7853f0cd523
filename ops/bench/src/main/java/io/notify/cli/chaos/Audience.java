package io.notify.cli.chaos;

/**
 * Who gets what in a chaos run: {@code users × devicesPerUser} devices, device {@code d} belonging to
 * user {@code d / devicesPerUser} and, when there are rooms, subscribed to room {@code d % rooms}.
 * Targets {@code 0..users-1} are the users, {@code users..users+rooms-1} the rooms.
 */
record Audience(int users, int devicesPerUser, int rooms) {

    int devices() {
        return users * devicesPerUser;
    }

    int targets() {
        return users + rooms;
    }

    static int roomOf(int device, int rooms) {
        return device % rooms;
    }

    int roomTarget(int room) {
        return users + room;
    }

    boolean isRoom(int target) {
        return target >= users;
    }

    /** The devices an event for {@code target} must reach. */
    int[] devicesOf(int target) {
        if (!isRoom(target)) {
            int[] out = new int[devicesPerUser];
            for (int k = 0; k < devicesPerUser; k++) {
                out[k] = target * devicesPerUser + k;
            }
            return out;
        }
        int room = target - users;
        int[] out = new int[(devices() - room + rooms - 1) / rooms];
        for (int i = 0; i < out.length; i++) {
            out[i] = room + i * rooms;
        }
        return out;
    }

    /** The streams each device has: its user's, and its room's when there are rooms. */
    int streamsPerDevice() {
        return rooms > 0 ? 2 : 1;
    }

    String describe(int target) {
        return isRoom(target) ? "room-" + (target - users) : "user-" + target;
    }
}
