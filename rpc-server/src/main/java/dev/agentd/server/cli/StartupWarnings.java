package dev.agentd.server.cli;

import dev.agentd.protocol.model.Model;
import dev.agentd.server.ai.ModelRegistry;
import dev.agentd.server.ai.faux.FauxModels;
import dev.agentd.server.runtime.Suggest;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * The configuration problems of this startup, as data: each reader (settings, auth.json,
 * models.json) returns its warnings and has logged them; this gathers them for {@code ready} and
 * {@code get_state} (an editor shows stdout, not stderr), and words the two decisions the CLI
 * makes from them: the faux fallback and the unknown-model error.
 */
final class StartupWarnings {
    private final List<String> warnings = new ArrayList<>();

    void addAll(List<String> more) {
        for (String warning : more) {
            if (!warnings.contains(warning)) {
                warnings.add(warning);
            }
        }
    }

    void add(String warning) {
        addAll(List.of(warning));
    }

    /**
     * After the model choice: when the faux model was chosen only because nothing else was
     * usable and the configuration had problems, say so, so the editor does not just show
     * "This is the faux model".
     */
    void afterChoice(Model chosen, boolean explicit) {
        if (!explicit && chosen.selector().equals(FauxModels.FAUX_1.selector()) && !warnings.isEmpty()) {
            add("using the embedded faux model " + FauxModels.FAUX_1.selector()
                    + ": no configured model is usable; the configuration problems above may be why");
        }
    }

    List<String> list() {
        return List.copyOf(warnings);
    }

    /**
     * {@code unknown model 'llama3'; closest: ollama/llama3.1:8b}, plus a pointer to the skipped
     * models.json entries when there were any (they are the likely reason).
     */
    static String unknownModel(String spec, ModelRegistry models, List<String> modelsJsonWarnings) {
        LinkedHashSet<String> names = new LinkedHashSet<>();
        for (Model model : models.all()) {
            names.add(model.selector());
        }
        String bare = spec.contains("/") ? spec : null;
        List<String> near = new ArrayList<>(Suggest.nearest(spec, names, 5));
        if (near.size() < 5 && bare == null) {
            // A bare id: compare with the ids too, and show the full selectors.
            for (Model model : models.all()) {
                if (near.size() < 5 && !near.contains(model.selector())
                        && !Suggest.nearest(spec, List.of(model.id()), 1).isEmpty()) {
                    near.add(model.selector());
                }
            }
        }
        StringBuilder message = new StringBuilder("unknown model '").append(spec).append("'");
        if (!near.isEmpty()) {
            message.append("; closest: ").append(String.join(", ", near));
        }
        if (!modelsJsonWarnings.isEmpty()) {
            message.append(" (models.json had ").append(modelsJsonWarnings.size())
                    .append(" problem(s), logged above: a skipped entry may be the one you mean)");
        }
        return message.toString();
    }
}
