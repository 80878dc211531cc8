package dev.agentd.protocol.message;

import java.util.List;

/** Small helpers over content lists. */
public final class ContentBlocks {
    private ContentBlocks() {}

    /** The concatenation of every text block, in order. */
    public static String text(List<ContentBlock> blocks) {
        StringBuilder out = new StringBuilder();
        for (ContentBlock block : blocks) {
            if (block instanceof ContentBlock.Text text && text.text() != null) {
                out.append(text.text());
            }
        }
        return out.toString();
    }
}
