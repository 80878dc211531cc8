package dev.agentd.server.fallback;

import dev.agentd.protocol.model.Model;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Bare family selectors against the catalog: which models belong to a family, which variant each
 * provider contributes, and in which order providers are preferred.
 */
public final class Families {
    /** Bare selectors never expand onto these aggregators; an explicit {@code openrouter/…} entry still works. */
    static final Set<String> BARE_DENYLIST = Set.of("openrouter", "openrouter-images");
    static final String BEDROCK = "amazon-bedrock";

    /**
     * The family's own vendor, ranked right after the credential tier: the first id prefix that
     * matches decides. A small fixed table (decision: the vendors agentd ships or users commonly
     * configure); an unlisted family has no vendor preference and falls through to the name order.
     */
    private static final List<Map.Entry<String, String>> VENDOR_BY_PREFIX = List.of(
            Map.entry("claude", "anthropic"),
            Map.entry("gpt", "openai"),
            Map.entry("chatgpt", "openai"),
            Map.entry("codex", "openai"),
            Map.entry("o1", "openai"),
            Map.entry("o3", "openai"),
            Map.entry("o4", "openai"),
            Map.entry("gemini", "google"),
            Map.entry("gemma", "google"),
            Map.entry("grok", "xai"),
            Map.entry("mistral", "mistral"),
            Map.entry("codestral", "mistral"),
            Map.entry("devstral", "mistral"),
            Map.entry("deepseek", "deepseek"),
            Map.entry("kimi", "moonshotai"));

    private Families() {}

    /** The id after its last {@code .} or {@code /}: {@code global.anthropic.claude-x} → {@code claude-x}. */
    public static String withoutNamespace(String id) {
        int cut = Math.max(id.lastIndexOf('.'), id.lastIndexOf('/'));
        return cut < 0 ? id : id.substring(cut + 1);
    }

    /**
     * Whether the lowercased id, or its namespace-stripped form, equals {@code family} or starts
     * with {@code family + "-"} or, as Vertex AI versions Claude ({@code claude-sonnet-4-5@20250929}),
     * {@code family + "@"}. Never a substring match: {@code k3} matches {@code k3-256k}, not
     * {@code kimi-k3}.
     */
    public static boolean matches(Model model, String family) {
        String id = model.id().toLowerCase(Locale.ROOT);
        return matchesId(id, family) || matchesId(withoutNamespace(id), family);
    }

    private static boolean matchesId(String id, String family) {
        return id.equals(family) || (id.length() > family.length() + 1 && id.startsWith(family)
                && (id.charAt(family.length()) == '-' || id.charAt(family.length()) == '@'));
    }

    /** Whether any catalog model belongs to the family (bare-key validation). */
    public static boolean known(FallbackCatalog catalog, String family) {
        return catalog.models().stream().anyMatch(model -> matches(model, family));
    }

    /**
     * One variant per provider serving the family (not on the bare denylist), best provider first:
     * providers with a configured credential, then the family's vendor, then by name. The variant
     * of a provider: an exact id match first, then the shortest id, then alphabetical; on Amazon
     * Bedrock, {@link #bedrockVariant} instead.
     */
    public static List<Model> ranked(FallbackCatalog catalog, String family, Predicate<String> hasCredential) {
        Map<String, Model> best = new LinkedHashMap<>();
        List<Model> bedrock = new ArrayList<>();
        for (Model model : catalog.models()) {
            if (BARE_DENYLIST.contains(model.provider().toLowerCase(Locale.ROOT)) || !matches(model, family)) {
                continue;
            }
            if (model.provider().equals(BEDROCK)) {
                bedrock.add(model);
            }
            best.merge(model.provider(), model, (a, b) -> VARIANT.compare(a, b, family) <= 0 ? a : b);
        }
        bedrockVariant(bedrock, catalog.awsRegion()).ifPresent(pick -> best.put(BEDROCK, pick));
        String vendor = vendorOf(family);
        List<Model> ranked = new ArrayList<>(best.values());
        ranked.sort(Comparator.<Model>comparingInt(model -> hasCredential.test(model.provider()) ? 0 : 1)
                .thenComparingInt(model -> model.provider().equalsIgnoreCase(vendor) ? 0 : 1)
                .thenComparing(model -> model.provider().toLowerCase(Locale.ROOT)));
        return List.copyOf(ranked);
    }

    /**
     * The Bedrock id a bare selector picks among a family's Bedrock models. Newer models (Claude 4.5
     * and later among them) are served on demand only through an inference profile, so the plain
     * {@code anthropic.claude-…} id fails with "on-demand throughput isn't supported": prefer the
     * {@code global.} profile, then the region group of {@code awsRegion} ({@code us.} for
     * {@code us-east-1}, {@code eu.} for {@code eu-west-1}, …), then the base id (no profile
     * prefix), then the shortest id. Among equals, the shortest then alphabetical id.
     */
    public static Optional<Model> bedrockVariant(List<Model> variants, String awsRegion) {
        List<String> groups = regionGroups(awsRegion);
        Comparator<Model> order = Comparator.<Model>comparingInt(model -> bedrockRank(model.id(), groups))
                .thenComparingInt(model -> model.id().length()).thenComparing(Model::id);
        return variants.stream().min(order);
    }

    /** 0 global profile, 1 the region's group, 2 the base id, 3 another region's profile. */
    private static int bedrockRank(String id, List<String> groups) {
        String lower = id.toLowerCase(Locale.ROOT);
        int dot = lower.indexOf('.');
        String prefix = dot < 0 ? "" : lower.substring(0, dot);
        if (prefix.equals("global")) {
            return 0;
        }
        if (groups.contains(prefix)) {
            return 1;
        }
        return PROFILE_GROUPS.contains(prefix) ? 3 : 2;
    }

    /** The inference-profile prefixes Bedrock uses; any other first segment is a vendor (base id). */
    private static final Set<String> PROFILE_GROUPS = Set.of("us", "us-gov", "eu", "apac", "jp", "au", "ca", "in");

    /** The profile groups serving an AWS region, best first ({@code ap-northeast-1} → jp, apac). */
    static List<String> regionGroups(String awsRegion) {
        String region = awsRegion == null || awsRegion.isBlank() ? "us-east-1" : awsRegion.trim().toLowerCase(Locale.ROOT);
        if (region.startsWith("us-gov-")) {
            return List.of("us-gov");
        }
        if (region.startsWith("ap-northeast-1") || region.startsWith("ap-northeast-3")) {
            return List.of("jp", "apac");
        }
        if (region.startsWith("ap-southeast-2") || region.startsWith("ap-southeast-4")) {
            return List.of("au", "apac");
        }
        if (region.startsWith("ap-south-")) {
            return List.of("in", "apac");
        }
        int dash = region.indexOf('-');
        String area = dash < 0 ? region : region.substring(0, dash);
        return switch (area) {
            case "us" -> List.of("us");
            case "eu" -> List.of("eu");
            case "ca" -> List.of("ca", "us");
            case "ap" -> List.of("apac");
            default -> List.of();
        };
    }

    /** The vendor of a family by the prefix table, or {@code ""} when none is listed. */
    static String vendorOf(String family) {
        for (Map.Entry<String, String> entry : VENDOR_BY_PREFIX) {
            String prefix = entry.getKey();
            if (family.equals(prefix) || (family.startsWith(prefix) && !Character.isLetter(family.charAt(prefix.length())))) {
                return entry.getValue();
            }
        }
        return "";
    }

    private interface VariantOrder {
        int compare(Model a, Model b, String family);
    }

    private static final VariantOrder VARIANT = (a, b, family) -> {
        boolean exactA = exact(a, family);
        boolean exactB = exact(b, family);
        if (exactA != exactB) {
            return exactA ? -1 : 1;
        }
        if (a.id().length() != b.id().length()) {
            return Integer.compare(a.id().length(), b.id().length());
        }
        return a.id().compareTo(b.id());
    };

    private static boolean exact(Model model, String family) {
        String id = model.id().toLowerCase(Locale.ROOT);
        return id.equals(family) || withoutNamespace(id).equals(family);
    }
}
