package dev.agentd.server.export;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.ContentBlock;
import java.util.List;
import org.junit.jupiter.api.Test;

class HtmlExportTest {
    @Test
    void sessionTextIsEscapedAndThePageReferencesNothingOutside() {
        String html = HtmlExport.render("t<1>", List.of(new AgentMessage.User(
                List.of(new ContentBlock.Text("<script>alert('x')</script> & <img src=http://evil>")), 1)));
        assertTrue(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &lt;img src=http://evil&gt;"));
        assertTrue(html.contains("<title>t&lt;1&gt;</title>"));
        assertFalse(html.contains("<script"));
        assertFalse(html.contains("src=\"http"));
        assertFalse(html.contains("href="));
    }
}
