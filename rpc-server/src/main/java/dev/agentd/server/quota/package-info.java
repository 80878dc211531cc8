/**
 * Quota before the wall (issue 27 point 4): what the providers' rate-limit headers said, per
 * selector. {@link dev.agentd.server.quota.QuotaRules} holds the pure rules (which thresholds a new
 * utilization crosses, what is still current); {@link dev.agentd.server.quota.QuotaBook} is the
 * session's state, fed by every reply's headers and publishing {@code rate_limit_update}. The
 * headers themselves are read in {@code ai} ({@code RateLimitHeaders}, beside the retry hints).
 * May import {@code protocol}, {@code ai} and {@code runtime}.
 */
package dev.agentd.server.quota;
