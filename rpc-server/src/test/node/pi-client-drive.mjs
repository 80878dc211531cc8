// Drives agentd through pi 0.73.1's own RpcClient, calling every method the client has.
// Usage: node pi-client-drive.mjs <pi package dir> <shim> <cwd>; AGENTD_JAR, AGENTD_DIR in the env.
// Prints one JSON object {checks:[{name, ok, detail}], events:[types]} on stdout; exit 0 when all pass.
import { pathToFileURL } from "node:url";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

const [pkg, shim, cwd] = process.argv.slice(2);
const { RpcClient } = await import(pathToFileURL(join(pkg, "dist/modes/rpc/rpc-client.js")).href);

const checks = [];
const events = [];
const check = (name, ok, detail) => checks.push({ name, ok: !!ok, detail: detail === undefined ? null : detail });
const step = async (name, fn) => {
  try {
    return await fn();
  } catch (e) {
    check(name, false, String(e && e.message ? e.message : e).slice(0, 500));
    return undefined;
  }
};

const client = new RpcClient({ cliPath: shim, cwd, args: ["--faux-script", join(cwd, "..", "script.json")] });
client.onEvent((event) => events.push(event));
await client.start();
const waitFor = async (condition, timeoutMs) => {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in " + timeoutMs + " ms");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};
const typesSince = (from) => events.slice(from).map((e) => e.type);

try {
  const state = await step("getState", () => client.getState());
  check("getState", state && state.model && state.model.provider === "faux", state && state.model);

  const models = await step("getAvailableModels", () => client.getAvailableModels());
  check("getAvailableModels", Array.isArray(models) && models.some((m) => m.id === "faux-1"), models);

  const commands = await step("getCommands", () => client.getCommands());
  check("getCommands", Array.isArray(commands) && commands.some((c) => c.name === "greet" && c.source === "prompt"),
    commands);

  let mark = events.length;
  await step("promptAndWait", () => client.promptAndWait("/greet Bob", undefined, 30000));
  const messages = await step("getMessages", () => client.getMessages());
  const firstUser = messages && messages.find((m) => m.role === "user");
  check("prompt expands a template", firstUser && JSON.stringify(firstUser.content).includes("Say hello to Bob politely."),
    firstUser);
  check("getMessages", Array.isArray(messages) && messages.length >= 2, messages && messages.length);
  check("getLastAssistantText", (await step("getLastAssistantText", () => client.getLastAssistantText())) === "hi Bob");

  mark = events.length;
  await step("tools prompt", () => client.promptAndWait("use tools", undefined, 30000));
  const toolTypes = typesSince(mark).filter((t) => t.startsWith("tool_execution_start") || t === "tool_execution_end");
  check("tool calls run concurrently", JSON.stringify(toolTypes) ===
    JSON.stringify(["tool_execution_start", "tool_execution_start", "tool_execution_end", "tool_execution_end"]), toolTypes);

  mark = events.length;
  const idle = client.waitForIdle(30000);
  await step("prompt", () => client.prompt("slow one"));
  // steer only once the reply streams: a steer queued before the first turn starts joins that turn (as in pi)
  await step("reply streaming", () => waitFor(() => events.slice(mark).some((e) => e.type === "message_update"), 30000));
  await step("steer", () => client.steer("change of plan"));
  await step("followUp", () => client.followUp("and later this"));
  await step("waitForIdle", () => idle);
  const queueEvents = events.slice(mark).filter((e) => e.type === "queue_update");
  check("queue_update events", queueEvents.length >= 2 && queueEvents.some((e) => e.steering.includes("change of plan")),
    queueEvents);
  const last = await step("getLastAssistantText", () => client.getLastAssistantText());
  check("steer and follow-up delivered", last === "after follow-up", last);

  mark = events.length;
  await step("setThinkingLevel", () => client.setThinkingLevel("high"));
  const cycled = await step("cycleThinkingLevel", () => client.cycleThinkingLevel());
  check("cycleThinkingLevel", cycled && typeof cycled.level === "string", cycled);
  check("thinking_level_changed events", events.slice(mark).filter((e) => e.type === "thinking_level_changed").length >= 2,
    typesSince(mark));

  const setModel = await step("setModel", () => client.setModel("faux", "faux-2"));
  check("setModel", setModel && setModel.id === "faux-2", setModel);
  const cycledModel = await step("cycleModel", () => client.cycleModel());
  check("cycleModel", cycledModel && cycledModel.model && cycledModel.model.id === "faux-1", cycledModel);

  for (const [name, fn] of [
    ["setSteeringMode", () => client.setSteeringMode("all")],
    ["setFollowUpMode", () => client.setFollowUpMode("one-at-a-time")],
    ["setAutoCompaction", () => client.setAutoCompaction(true)],
    ["setAutoRetry", () => client.setAutoRetry(true)],
    ["abortRetry", () => client.abortRetry()],
    ["abort", () => client.abort()],
    ["abortBash", () => client.abortBash()],
  ]) {
    const failed = checks.length;
    await step(name, fn);
    if (checks.length === failed) check(name, true);
  }

  const bash = await step("bash", () => client.bash("echo from-bash"));
  check("bash", bash && bash.output.includes("from-bash") && bash.exitCode === 0, bash);

  const stats = await step("getSessionStats", () => client.getSessionStats());
  check("getSessionStats.contextUsage", stats && stats.contextUsage && stats.contextUsage.contextWindow > 0
    && typeof stats.contextUsage.tokens === "number", stats && stats.contextUsage);

  const named = events.length;
  await step("setSessionName", () => client.setSessionName("pi client run"));
  check("session_info_changed", events.slice(named).some((e) => e.type === "session_info_changed"
    && e.name === "pi client run"), typesSince(named));

  const exported = await step("exportHtml", () => client.exportHtml(join(cwd, "session.html")));
  check("exportHtml", exported && existsSync(exported.path)
    && readFileSync(exported.path, "utf8").includes("Say hello to Bob politely."), exported);

  const forks = await step("getForkMessages", () => client.getForkMessages());
  check("getForkMessages", Array.isArray(forks) && forks.length >= 3, forks && forks.length);
  const beforeClone = await step("getState", () => client.getState());
  const cloned = await step("clone", () => client.clone());
  check("clone", cloned && cloned.cancelled === false, cloned);
  const afterClone = await step("getState", () => client.getState());
  check("clone keeps the context in a new file", afterClone && beforeClone
    && afterClone.messageCount === beforeClone.messageCount && afterClone.sessionFile !== beforeClone.sessionFile,
    [beforeClone, afterClone]);
  const fork = await step("fork", () => client.fork(forks[1].entryId));
  check("fork", fork && fork.text === forks[1].text && fork.cancelled === false, fork);

  mark = events.length;
  const compacted = await step("compact", () => client.compact());
  check("compact", compacted && typeof compacted.summary === "string" && compacted.tokensBefore >= 0, compacted);
  const compactTypes = typesSince(mark).filter((t) => t.startsWith("compaction_"));
  check("compaction events", JSON.stringify(compactTypes) === JSON.stringify(["compaction_start", "compaction_end"]),
    typesSince(mark));

  const sessionFile = afterClone && afterClone.sessionFile;
  const fresh = await step("newSession", () => client.newSession());
  check("newSession", fresh && fresh.cancelled === false, fresh);
  if (sessionFile) {
    const switched = await step("switchSession", () => client.switchSession(sessionFile));
    check("switchSession", switched && switched.cancelled === false, switched);
  } else {
    check("switchSession", false, "no session file");
  }
} finally {
  await client.stop();
}
check("stderr has no stack traces", !client.getStderr().includes("Exception"), client.getStderr().slice(-2000));
process.stdout.write(JSON.stringify({ checks, events: events.map((e) => e.type) }) + "\n");
process.exit(checks.every((c) => c.ok) ? 0 : 1);
