package dev.agentd.server.export;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.protocol.model.Model;
import dev.agentd.server.testing.Samples;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The export handles every message and block kind, or names it as left out (an unhandled one throws). */
class HtmlExportDispatchTest {
    private static final Model MODEL = new Model("m", "M", "anthropic-messages", "anthropic", "https://x", true,
            List.of("text", "image"), Model.Cost.FREE, 200_000, 8_192);

    @Test
    void aHistoryOfEveryKindRenders() {
        String html = HtmlExport.render("all", Samples.historyOfEveryKind(MODEL));
        assertTrue(html.contains("next"), html);
    }
}
