/** {@code export_html}: the session as one self-contained HTML page (no scripts, no network). May import {@code protocol}. */
package dev.agentd.server.export;
