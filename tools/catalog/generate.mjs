#!/usr/bin/env node
// Regenerates agentd's built-in model catalog from pi's own catalog (README "Built-in models").
//
//   cd /tmp && npm pack @earendil-works/pi-ai@1.6.0 @earendil-works/pi-coding-agent@1.6.0
//   mkdir ai ca && tar xzf earendil-works-pi-ai-1.6.0.tgz -C ai && tar xzf earendil-works-pi-coding-agent-1.6.0.tgz -C ca
//   node tools/catalog/generate.mjs --pi-ai /tmp/ai/package --pi-coding-agent /tmp/ca/package --date 2026-12-02
//
// Writes rpc-server/src/main/resources/dev/agentd/server/ai/catalog/models.jsonl (or --out): a header
// line, then one compact line per provider. Deterministic: the same packages and --date give the same
// bytes (providers in PROVIDERS order, the provider's default model first, then pi's own order).
import { readFileSync, writeFileSync, existsSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

/** The providers agentd ships, in the order the daemon tries them for a default model. */
const PROVIDERS = ["anthropic", "openai", "google", "openrouter", "groq", "xai", "deepseek", "cerebras",
  "together", "fireworks", "azure", "amazon-bedrock", "google-vertex"];
/** The apis agentd speaks (config.ModelsConfig.APIS, plus google-vertex). */
const APIS = new Set(["anthropic-messages", "openai-completions", "openai-responses", "azure-openai-responses",
  "google-generative-ai", "google-vertex", "bedrock-converse-stream"]);
const LEVELS = ["off", "minimal", "low", "medium", "high", "xhigh", "max"];

function args(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i];
    if (!key.startsWith("--") || i + 1 >= argv.length) throw new Error(`bad argument ${key}`);
    out[key.slice(2)] = argv[i + 1];
  }
  for (const required of ["pi-ai", "pi-coding-agent", "date"]) {
    if (!out[required]) throw new Error(`--${required} is required`);
  }
  if (!/^\d{4}-\d{2}-\d{2}$/.test(out.date)) throw new Error("--date must be YYYY-MM-DD");
  return out;
}

function packageVersion(dir) {
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  return `${pkg.name}@${pkg.version}`;
}

/** pi-coding-agent's defaultModelPerProvider table, read as text (the module imports packages we lack). */
function piDefaults(dir) {
  const source = readFileSync(join(dir, "dist/core/model-resolver.js"), "utf8");
  const table = source.match(/defaultModelPerProvider\s*=\s*\{([^}]*)\}/);
  if (!table) throw new Error("defaultModelPerProvider not found in pi-coding-agent");
  const defaults = {};
  for (const entry of table[1].matchAll(/^\s*(?:"([^"]+)"|([A-Za-z_$][\w$]*))\s*:\s*"([^"]+)"/gm)) {
    defaults[entry[1] ?? entry[2]] = entry[3];
  }
  return defaults;
}

/** pi's getSupportedThinkingLevels: a null entry is unsupported; xhigh and max only when mapped. */
function thinkingLevels(model) {
  if (!model.reasoning) return undefined;
  return LEVELS.filter((level) => {
    const mapped = model.thinkingLevelMap?.[level];
    if (mapped === null) return false;
    return level === "xhigh" || level === "max" ? mapped !== undefined : true;
  });
}

function price(value) {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : 0;
}

/** The fields agentd uses; api and baseUrl only where they differ from the provider line's. */
function compact(model, line) {
  const out = { id: model.id, name: model.name ?? model.id };
  if (model.api !== line.api) out.api = model.api;
  if ((model.baseUrl ?? "") !== line.baseUrl) out.baseUrl = model.baseUrl ?? "";
  if (model.reasoning) out.reasoning = true;
  const input = model.input ?? ["text"];
  if (input.length !== 1 || input[0] !== "text") out.input = input;
  // USD per million: input, output, cache read, cache write (pi's cost tiers are not modelled).
  out.cost = [price(model.cost?.input), price(model.cost?.output), price(model.cost?.cacheRead),
    price(model.cost?.cacheWrite)];
  out.contextWindow = model.contextWindow;
  out.maxTokens = model.maxTokens;
  const levels = thinkingLevels(model);
  if (levels) out.thinking = levels;
  return out;
}

function mostCommon(values) {
  const counts = new Map();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  let best;
  for (const [value, count] of counts) if (best === undefined || count > counts.get(best)) best = value;
  return best;
}

function providerLine(provider, data, defaultId) {
  const models = [];
  for (const api of Object.keys(data)) {
    for (const key of Object.keys(data[api])) {
      const model = data[api][key];
      if ((model.type ?? "chat") === "chat" && APIS.has(model.api) && model.provider === provider) {
        models.push(model);
      }
    }
  }
  if (models.length === 0) return undefined;
  const chosen = models.find((m) => m.id === defaultId) ?? models[0];
  const ordered = [chosen, ...models.filter((m) => m !== chosen)];
  const line = { provider, default: chosen.id, api: mostCommon(ordered.map((m) => m.api)),
    baseUrl: mostCommon(ordered.map((m) => m.baseUrl ?? "")) };
  line.models = ordered.map((m) => compact(m, line));
  return line;
}

function main() {
  const opts = args(process.argv.slice(2));
  const here = dirname(fileURLToPath(import.meta.url));
  const out = opts.out ?? join(here, "../../rpc-server/src/main/resources/dev/agentd/server/ai/catalog/models.jsonl");
  const defaults = piDefaults(opts["pi-coding-agent"]);
  const lines = [JSON.stringify({ catalog: "agentd built-in models", source: packageVersion(opts["pi-ai"]),
    defaults: packageVersion(opts["pi-coding-agent"]), generated: opts.date,
    regenerate: "node tools/catalog/generate.mjs (see README, Built-in models)" })];
  for (const provider of PROVIDERS) {
    const file = join(opts["pi-ai"], "dist/providers/data", `${provider}.json`);
    if (!existsSync(file)) continue;
    const line = providerLine(provider, JSON.parse(readFileSync(file, "utf8")), defaults[provider]);
    if (line) lines.push(JSON.stringify(line));
  }
  writeFileSync(out, lines.join("\n") + "\n");
}

main();
