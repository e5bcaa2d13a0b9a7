package dev.pvtlb.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class HtmlTest {
    @Test
    void escapesMarkupAndBothQuotes() {
        assertEquals("&lt;b&gt; &amp; &quot;x&quot; &#39;y&#39;", Html.escape("<b> & \"x\" 'y'"));
        assertEquals("&amp;lt;", Html.escape("&lt;"), "escaped once, not interpreted");
    }
}
