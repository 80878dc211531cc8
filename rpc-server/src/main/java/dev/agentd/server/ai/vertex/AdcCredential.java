package dev.agentd.server.ai.vertex;

import dev.agentd.server.ai.http.RequestHeaders;

/**
 * Application Default Credentials as the provider sees them, in JDK types only, so that naming
 * this type loads nothing of Google's ({@link GoogleAuthSupport} implements it).
 */
interface AdcCredential {
    /** Where the credential was found (a file path or the library's chain); no secret. */
    String source();

    /** The quota project, else the credential's own project ({@code project_id}), else null. */
    String project();

    /** A current OAuth access token, refreshed first when expired; registered with KnownSecrets. */
    String accessToken() throws RequestHeaders.InvalidRequestException;
}
