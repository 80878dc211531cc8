package dev.agentd.server.ai.bedrock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.server.ai.http.HttpReplyStreamer;
import dev.agentd.server.runtime.KnownSecrets;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Where a Bedrock request goes and how it is signed: the region rule (an ARN's region, the
 * environment, the profile, a standard endpoint), a catalog's standard endpoint following the
 * region while a custom endpoint is kept, and the message when no credential is found.
 */
class BedrockRoutingTest {
    final Map<String, String> env = new HashMap<>();

    BedrockProvider provider() {
        return new BedrockProvider((HttpReplyStreamer) null, env::get, Clock.systemUTC());
    }

    @Test
    void anInferenceProfileArnSignsForItsOwnRegionWhateverTheEnvironmentSays() {
        env.put("AWS_REGION", "us-west-2");
        assertEquals("ap-southeast-2", provider().region(
                "arn:aws:bedrock:ap-southeast-2:123456789012:inference-profile/au.anthropic.claude-opus-4-8",
                "https://bedrock-runtime.us-east-1.amazonaws.com"));
        assertEquals("cn-north-1", provider().region(
                "arn:aws-cn:bedrock:cn-north-1:123456789012:application-inference-profile/abc", null));
    }

    @Test
    void theEnvironmentRegionBeatsTheCatalogsStandardEndpoint() {
        env.put("AWS_DEFAULT_REGION", "eu-west-3");
        assertEquals("eu-west-3", provider().region("anthropic.claude-opus-4-8",
                "https://bedrock-runtime.us-east-1.amazonaws.com"));
        env.put("AWS_REGION", "eu-central-1");
        assertEquals("eu-central-1", provider().region("anthropic.claude-opus-4-8",
                "https://bedrock-runtime.us-east-1.amazonaws.com"));
    }

    @Test
    void aStandardEndpointFollowsTheRegionAndACustomOneIsKept() {
        assertEquals("https://bedrock-runtime.eu-central-1.amazonaws.com",
                BedrockProvider.baseUrl("https://bedrock-runtime.us-east-1.amazonaws.com", "eu-central-1"));
        assertEquals("https://bedrock-runtime-fips.us-gov-west-1.amazonaws.com",
                BedrockProvider.baseUrl("https://bedrock-runtime-fips.us-east-1.amazonaws.com", "us-gov-west-1"));
        assertEquals("https://bedrock-runtime.cn-north-1.amazonaws.com.cn",
                BedrockProvider.baseUrl("", "cn-north-1"));
        assertEquals("https://bedrock-runtime.us-east-1.amazonaws.com", BedrockProvider.baseUrl(null, "us-east-1"));
        assertEquals("https://vpce-0abc.bedrock-runtime.us-east-1.vpce.amazonaws.com",
                BedrockProvider.baseUrl("https://vpce-0abc.bedrock-runtime.us-east-1.vpce.amazonaws.com", "eu-west-1"));
        assertEquals("http://127.0.0.1:4566", BedrockProvider.baseUrl("http://127.0.0.1:4566", "eu-west-1"));
        assertEquals("https://bedrock-runtime.us-east-1.amazonaws.com/proxy",
                BedrockProvider.baseUrl("https://bedrock-runtime.us-east-1.amazonaws.com/proxy", "eu-west-1"),
                "a path makes it a custom endpoint");
    }

    @Test
    void aMissingCredentialNamesEveryPlaceLookedAndNoSecret() {
        KnownSecrets.add("known-secret-value-0123");
        env.put("AWS_PROFILE", "dev");
        env.put("AWS_CONFIG_FILE", "/home/me/.aws/config-work");
        String sdk = "Unable to load credentials from any of the providers in the chain AwsCredentialsProviderChain("
                + "credentialsProviders=[…]) : [EnvironmentVariableCredentialsProvider(): Unable to load credentials,"
                + " ProfileCredentialsProvider(profileName=dev): The SSO session associated with this profile has "
                + "expired. known-secret-value-0123]";
        String message = AwsSupport.missingCredentials(env::get, sdk);
        for (String place : new String[] {"AWS_BEARER_TOKEN_BEDROCK", "apiKey", "AWS_ACCESS_KEY_ID",
                "AWS_SECRET_ACCESS_KEY", "aws.accessKeyId", "AWS_WEB_IDENTITY_TOKEN_FILE", "AWS_ROLE_ARN",
                "profile 'dev'", "/home/me/.aws/config-work", "~/.aws/credentials", "sso_session",
                "credential_process", "AWS_CONTAINER_CREDENTIALS_FULL_URI", "EC2 instance metadata"}) {
            assertTrue(message.contains(place), place + " in " + message);
        }
        assertTrue(message.contains("The SSO session associated with this profile has expired"), message);
        assertFalse(message.contains("AwsCredentialsProviderChain("), "the SDK's chain dump is dropped: " + message);
        assertFalse(message.contains("known-secret-value-0123"), message);
        assertTrue(AwsSupport.missingCredentials(env::get, "x".repeat(100_000)).length() < 2_100);
    }
}
