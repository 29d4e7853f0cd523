package io.notify.protocol.frame;

import java.util.Random;

/** Random small edits of a valid text (deleted, inserted or replaced characters), for the decoders' fuzz tests. */
final class TextMutations {

    private TextMutations() {
    }

    /** {@code seed} with 1..{@code maxEdits} edits, each character drawn from {@code alphabet}. */
    static String mutate(String seed, Random random, String alphabet, int maxEdits) {
        StringBuilder sb = new StringBuilder(seed);
        int edits = 1 + random.nextInt(maxEdits);
        for (int k = 0; k < edits && sb.length() > 0; k++) {
            int at = random.nextInt(sb.length());
            switch (random.nextInt(3)) {
                case 0 -> sb.deleteCharAt(at);
                case 1 -> sb.insert(at, alphabet.charAt(random.nextInt(alphabet.length())));
                default -> sb.setCharAt(at, alphabet.charAt(random.nextInt(alphabet.length())));
            }
        }
        return sb.toString();
    }
}
