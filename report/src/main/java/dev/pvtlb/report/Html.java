package dev.pvtlb.report;

/** Text inside HTML and SVG: element content and attribute values, single- or double-quoted. */
public final class Html {
    private Html() {}

    public static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;")
                .replace("'", "&#39;");
    }
}
