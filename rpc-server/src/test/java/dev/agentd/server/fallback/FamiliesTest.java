package dev.agentd.server.fallback;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.agentd.protocol.model.Model;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** The fallback design §2: family matching (never substring), variant pick and provider ranking. */
class FamiliesTest {

    @ParameterizedTest(name = "{0} in {1}: {2}")
    @CsvSource({
        "claude-sonnet-4-5, claude-sonnet-4-5, true",
        "claude-sonnet-4-5-20250929, claude-sonnet-4-5, true",
        "Claude-Sonnet-4-5, claude-sonnet-4-5, true",
        "global.anthropic.claude-sonnet-4-5, claude-sonnet-4-5, true",
        "us.anthropic.claude-sonnet-4-5-20250929-v1:0, claude-sonnet-4-5, true",
        "claude-sonnet-4-5@20250929, claude-sonnet-4-5, true",
        "claude-sonnet-4-5@, claude-sonnet-4-5, false",
        "claude-sonnet-4-50@20250929, claude-sonnet-4-5, false",
        "anthropic/claude-sonnet-4-5, claude-sonnet-4-5, true",
        "not-claude-sonnet-4-5, claude-sonnet-4-5, false",
        "claude-sonnet-4-50, claude-sonnet-4-5, false",
        "claude-sonnet-4-5-, claude-sonnet-4-5, false",
        "k3-256k, k3, true",
        "kimi-k3, k3, false",
        "gpt-5-mini, gpt-5, true",
        "gpt-50, gpt-5, false",
    })
    void matching(String id, String family, boolean expected) {
        assertEquals(expected, Families.matches(Fixtures.model("p", id, true), family));
    }

    @Test
    void onePerProviderExactFirstThenShortestAndNeverOpenRouter() {
        List<Model> ranked = Families.ranked(Fixtures.CATALOG, "claude-sonnet-4-5", p -> false);
        // anthropic is the family's vendor; then by name. Exact ids win inside a provider
        // (anthropic: claude-sonnet-4-5 over the dated id; vertex: the shorter id).
        assertEquals(List.of(Fixtures.SONNET, Fixtures.BEDROCK_SONNET, Fixtures.VERTEX_SONNET), ranked);
    }

    @Test
    void credentialTierComesBeforeTheVendor() {
        Set<String> withKey = Set.of("vertex");
        assertEquals(List.of(Fixtures.VERTEX_SONNET, Fixtures.SONNET, Fixtures.BEDROCK_SONNET),
                Families.ranked(Fixtures.CATALOG, "claude-sonnet-4-5", withKey::contains));
        assertEquals(List.of(Fixtures.GPT5, Fixtures.AZURE_GPT5), Families.ranked(Fixtures.CATALOG, "gpt-5", p -> false));
        assertEquals(List.of(Fixtures.AZURE_GPT5, Fixtures.GPT5),
                Families.ranked(Fixtures.CATALOG, "gpt-5", "azure"::equals));
    }

    @ParameterizedTest(name = "vendor of {0}: [{1}]")
    @CsvSource({"claude-opus-4, anthropic", "gpt-5, openai", "o3, openai", "o4-mini, openai", "gemini-2.5-pro, google",
        "grok-4, xai", "kimi-k2, moonshotai", "qwen3-coder, ''", "claudette, ''", "oak, ''"})
    void vendors(String family, String vendor) {
        assertEquals(vendor, Families.vendorOf(family));
    }

    @ParameterizedTest(name = "{0} in region {1}: {2}")
    @CsvSource(nullValues = "null", value = {
        // the global profile whenever there is one
        "'anthropic.c-5,us.anthropic.c-5,eu.anthropic.c-5,global.anthropic.c-5', eu-west-1, global.anthropic.c-5",
        // else the region's group: Bedrock serves newer models on demand only through a profile
        "'anthropic.c-5,us.anthropic.c-5,eu.anthropic.c-5', eu-west-1, eu.anthropic.c-5",
        "'anthropic.c-5,us.anthropic.c-5,eu.anthropic.c-5', us-west-2, us.anthropic.c-5",
        "'anthropic.c-5,us.anthropic.c-5,eu.anthropic.c-5', null, us.anthropic.c-5",
        "'anthropic.c-5,apac.anthropic.c-5,jp.anthropic.c-5', ap-northeast-1, jp.anthropic.c-5",
        "'anthropic.c-5,apac.anthropic.c-5,us.anthropic.c-5', ap-southeast-1, apac.anthropic.c-5",
        "'anthropic.c-5,us-gov.anthropic.c-5,us.anthropic.c-5', us-gov-west-1, us-gov.anthropic.c-5",
        // else the base id, before another region's profile
        "'anthropic.c-5,eu.anthropic.c-5', us-east-1, anthropic.c-5",
        "'eu.anthropic.c-5', us-east-1, eu.anthropic.c-5",
        "'meta.llama-4,meta.llama-4-v2', us-east-1, meta.llama-4",
    })
    void bedrockVariantPrefersGlobalThenTheRegionsProfileThenTheBaseId(String ids, String region, String expected) {
        List<Model> variants = java.util.Arrays.stream(ids.split(","))
                .map(id -> Fixtures.model("amazon-bedrock", id, true)).toList();
        assertEquals(expected, Families.bedrockVariant(variants, region).orElseThrow().id());
    }

    @Test
    void aBareClaudeSelectorOnTheShippedCatalogRanksAnthropicThenBedrocksGlobalProfileAndNeverOpenRouter() {
        FallbackCatalog shipped = FallbackCatalog.of(dev.agentd.server.ai.catalog.Catalog.builtin().all());
        List<String> ranked = Families.ranked(shipped, "claude-sonnet-4-5", p -> false).stream()
                .map(Model::selector).toList();
        // pi 1.6's Vertex catalog lists Gemini models only: no Vertex variant of Claude to rank.
        assertEquals(List.of("anthropic/claude-sonnet-4-5",
                "amazon-bedrock/global.anthropic.claude-sonnet-4-5-20250929-v1:0"), ranked);
        assertEquals("amazon-bedrock/global.anthropic.claude-opus-4-5-20251101-v1:0",
                Families.ranked(shipped.withAwsRegion("eu-west-1"), "claude-opus-4-5", p -> false).get(1).selector());
        assertEquals(List.of("google/gemini-2.5-pro", "google-vertex/gemini-2.5-pro"),
                Families.ranked(shipped, "gemini-2.5-pro", p -> false).stream().map(Model::selector).toList());
        assertEquals(List.of("google-vertex/gemini-2.5-pro", "google/gemini-2.5-pro"),
                Families.ranked(shipped, "gemini-2.5-pro", "google-vertex"::equals).stream().map(Model::selector)
                        .toList(), "the credential tier still comes first");
    }
}
