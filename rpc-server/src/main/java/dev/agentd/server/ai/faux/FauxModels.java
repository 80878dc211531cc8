package dev.agentd.server.ai.faux;

import dev.agentd.protocol.model.Model;
import java.util.List;

/** The embedded models that need no credential: faux-1 (reasoning) and faux-2 (for fallback demos). */
public final class FauxModels {
    public static final String API = "faux";
    public static final String PROVIDER = "faux";
    public static final Model FAUX_1 = model("faux-1", "Faux 1 (embedded, scripted)", true);
    public static final Model FAUX_2 = model("faux-2", "Faux 2 (embedded, scripted)", false);
    public static final List<Model> ALL = List.of(FAUX_1, FAUX_2);

    private FauxModels() {}

    private static Model model(String id, String name, boolean reasoning) {
        return new Model(id, name, API, PROVIDER, "faux://embedded", reasoning, List.of("text", "image"),
                Model.Cost.FREE, 128_000, 16_384);
    }
}
