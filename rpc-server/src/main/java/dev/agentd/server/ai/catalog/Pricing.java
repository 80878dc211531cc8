package dev.agentd.server.ai.catalog;

import dev.agentd.protocol.message.Usage;
import dev.agentd.protocol.model.Model;

/** Token counts priced with a model's $/million rates (SPEC §6.1: cost = price × tokens / 1e6). */
public final class Pricing {
    private Pricing() {}

    public static Usage usage(Model model, long input, long output, long cacheRead, long cacheWrite, long totalTokens) {
        Model.Cost price = model.cost();
        double inputCost = price.input() * input / 1e6;
        double outputCost = price.output() * output / 1e6;
        double cacheReadCost = price.cacheRead() * cacheRead / 1e6;
        double cacheWriteCost = price.cacheWrite() * cacheWrite / 1e6;
        return new Usage(input, output, cacheRead, cacheWrite, totalTokens, new Usage.Cost(inputCost, outputCost,
                cacheReadCost, cacheWriteCost, inputCost + outputCost + cacheReadCost + cacheWriteCost));
    }
}
