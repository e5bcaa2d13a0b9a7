package dev.pvtlb.report;

/** Text inside HTML and SVG: element content and attribute values, single- or double-quoted. */
public final class Html {
    private Html() {}

    public static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;")
                .replace("'", "&#39;");
    }

    /**
     * The start of a self-contained page, up to and including {@code <body>}: the title and the one
     * style sheet every pvtlb page shares (tables, charts, pass and fail), so the pages of compare,
     * demo, assess and validate look alike whichever module writes them.
     */
    public static String head(String title) {
        return "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'><title>" + escape(title)
                + "</title>\n<style>body{font-family:sans-serif;margin:2em;max-width:1100px}"
                + "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}"
                + "th:first-child,td:first-child{text-align:left}svg{margin:0.5em 1em 0.5em 0}"
                + ".pass{color:#2ca02c;font-weight:bold}.fail{color:#d62728;font-weight:bold}</style></head><body>\n";
    }
}
