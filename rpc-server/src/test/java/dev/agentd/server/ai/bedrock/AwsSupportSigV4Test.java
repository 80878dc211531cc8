package dev.agentd.server.ai.bedrock;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;

/**
 * The signer against AWS's published SigV4 example "GET Object" (S3 API reference, "Examples:
 * Signature Calculations in AWS Signature Version 4"): the SDK signer always sends
 * {@code x-amz-content-sha256}, which the generic suite's vanilla cases do not, and this
 * example signs it.
 */
class AwsSupportSigV4Test {
    @Test
    void awsPublishedGetObjectExample() {
        Clock at = Clock.fixed(Instant.parse("2013-05-24T00:00:00Z"), ZoneOffset.UTC);
        AwsBasicCredentials keys = AwsBasicCredentials.create("AKIAIOSFODNN7EXAMPLE",
                "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY");
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Range", "bytes=0-9");

        Map<String, String> signed = AwsSupport.signWith(keys, "GET",
                URI.create("https://examplebucket.s3.amazonaws.com/test.txt"), headers, null, "us-east-1", "s3", at);

        assertEquals("20130524T000000Z", signed.get("x-amz-date"));
        assertEquals("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                signed.get("x-amz-content-sha256"));
        assertEquals("AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
                + "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, "
                + "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41",
                signed.get("authorization"));
    }
}
