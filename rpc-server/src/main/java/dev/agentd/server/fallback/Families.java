package dev.agentd.server.fallback;

import dev.agentd.protocol.model.Model;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Bare family selectors against the catalog: which models belong to a family, which variant each
 * provider contributes, and in which order providers are preferred.
 */
public final class Families {
    /** Bare selectors never expand onto these aggregators; an explicit {@code openrouter/…} entry still works. */
    static final Set<String> BARE_DENYLIST = Set.of("openrouter", "openrouter-images");

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
     * of a provider: an exact id match first, then the shortest id, then alphabetical.
     */
    public static List<Model> ranked(FallbackCatalog catalog, String family, Predicate<String> hasCredential) {
        Map<String, Model> best = new LinkedHashMap<>();
        for (Model model : catalog.models()) {
            if (BARE_DENYLIST.contains(model.provider().toLowerCase(Locale.ROOT)) || !matches(model, family)) {
                continue;
            }
            best.merge(model.provider(), model, (a, b) -> VARIANT.compare(a, b, family) <= 0 ? a : b);
        }
        String vendor = vendorOf(family);
        List<Model> ranked = new ArrayList<>(best.values());
        ranked.sort(Comparator.<Model>comparingInt(model -> hasCredential.test(model.provider()) ? 0 : 1)
                .thenComparingInt(model -> model.provider().equalsIgnoreCase(vendor) ? 0 : 1)
                .thenComparing(model -> model.provider().toLowerCase(Locale.ROOT)));
        return List.copyOf(ranked);
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
