// Drives agentd through pi 1.6.0's own RpcClient (@earendil-works/pi-coding-agent) along a realistic
// flow: settled runs, dispositions, a retried 529, an abort during a backoff, steer and follow-up,
// entries since a cursor, the tree, a new session.
// Usage: node pi16-client-drive.mjs <pi package dir> <shim> <cwd>; AGENTD_JAR, AGENTD_DIR in the env.
// Prints one JSON object {checks:[{name, ok, detail}], events:[types]} on stdout; exit 0 when all pass.
import { pathToFileURL } from "node:url";
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
const waitFor = async (condition, timeoutMs) => {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in " + timeoutMs + " ms");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};
// a wait created before the command that ends it; a timeout must fail its check, not crash the driver
const pending = (promise) => {
  promise.catch(() => {});
  return promise;
};
const since = (from) => events.slice(from);
const types = (list) => list.map((e) => e.type);
// one agent_settled, after the last agent_end of the prompt, and nothing of the run after it
const settledOnce = (list) => {
  const t = types(list);
  const settled = t.filter((x) => x === "agent_settled").length;
  return settled === 1 && t.lastIndexOf("agent_end") < t.indexOf("agent_settled")
    && t.slice(t.indexOf("agent_settled") + 1).every((x) => !["agent_start", "agent_end", "message_update"].includes(x));
};

const client = new RpcClient({ cliPath: shim, cwd, args: ["--faux-script", join(cwd, "..", "script.json")] });
client.onEvent((event) => events.push(event));
await client.start();

try {
  const state = await step("getState", () => client.getState());
  check("getState", state && state.model && state.model.provider === "faux", state && state.model);

  const levels = await step("getAvailableThinkingLevels", () => client.getAvailableThinkingLevels());
  check("getAvailableThinkingLevels", levels !== undefined && levels !== null, levels);

  let mark = events.length;
  const collected = await step("promptAndWait", () => client.promptAndWait("hi", undefined, 30000));
  check("promptAndWait resolves on agent_settled", Array.isArray(collected)
    && collected.some((e) => e.type === "agent_settled" && e.aborted === false), collected && types(collected));
  check("one agent_settled after the last agent_end", settledOnce(since(mark)), types(since(mark)));
  const entries = await step("getEntries", () => client.getEntries());
  check("getEntries", entries && Array.isArray(entries.entries) && entries.entries.length >= 2
    && typeof entries.leafId === "string", entries && { count: entries.entries && entries.entries.length, leafId: entries.leafId });
  const cursor = entries && entries.leafId;

  mark = events.length;
  const idle = pending(client.waitForIdle(30000));
  const disposition = await step("prompt", () => client.prompt("start a run"));
  check("prompt disposition started", disposition === "started", disposition);
  await step("waitForIdle", () => idle);

  mark = events.length;
  await step("retried prompt", () => client.promptAndWait("retry me", undefined, 30000));
  const retried = since(mark);
  check("a 529 is retried before the run settles", types(retried).includes("auto_retry_start")
    && types(retried).includes("auto_retry_end") && settledOnce(retried), types(retried));
  check("the retry's answer arrives", (await step("getLastAssistantText", () => client.getLastAssistantText()))
    === "answered after a retry");

  mark = events.length;
  const aborted = pending(client.waitForIdle(30000));
  await step("prompt into a backoff", () => client.prompt("wait for a long hint"));
  await step("backoff starts", () => waitFor(() => since(mark).some((e) => e.type === "auto_retry_start"), 30000));
  await step("abort", () => client.abort());
  await step("settles after the abort", () => aborted);
  const abortedSettled = since(mark).find((e) => e.type === "agent_settled");
  check("agent_settled.aborted after an abort during a backoff", abortedSettled && abortedSettled.aborted === true,
    types(since(mark)));

  mark = events.length;
  const slow = pending(client.waitForIdle(30000));
  await step("slow prompt", () => client.prompt("slow one"));
  await step("reply streaming", () => waitFor(() => since(mark).some((e) => e.type === "message_update"), 30000));
  check("steer disposition queued", (await step("steer", () => client.steer("change of plan"))) === "queued");
  check("followUp disposition queued", (await step("followUp", () => client.followUp("and later this"))) === "queued");
  await step("waitForIdle after steer and follow-up", () => slow);
  check("steer and follow-up delivered before settling",
    (await step("getLastAssistantText", () => client.getLastAssistantText())) === "after follow-up");
  check("one agent_settled for the steered run and its follow-up", settledOnce(since(mark)), types(since(mark)));

  const newer = await step("getEntries since", () => client.getEntries(cursor));
  check("getEntries since a cursor returns only later entries", newer && Array.isArray(newer.entries)
    && entries && newer.entries.length > 0 && newer.entries.every((e) => e.id !== cursor)
    && !newer.entries.some((e) => entries.entries.some((old) => old.id === e.id)),
    newer && newer.entries && newer.entries.length);
  const tree = await step("getTree", () => client.getTree());
  check("getTree", tree !== undefined && tree !== null, tree && Object.keys(tree));

  // pi 1.x: the RPC bash command streams its output, each update repeating the command's request id
  mark = events.length;
  const ran = await step("bash", () => client.bash("printf 'one\\n'; sleep 0.2; printf 'two\\n'"));
  const bashUpdates = since(mark).filter((e) => e.type === "bash_execution_update");
  check("bash streams bash_execution_update under the command's id before its response",
    ran && ran.exitCode === 0 && bashUpdates.map((e) => e.delta).join("") === "one\ntwo\n"
    && bashUpdates.every((e) => typeof e.id === "string" && e.id.startsWith("req_")), { ran, bashUpdates });

  const fresh = await step("newSession", () => client.newSession());
  check("newSession", fresh && fresh.cancelled === false, fresh);
  const after = await step("getEntries after newSession", () => client.getEntries());
  check("a new session starts with no message entries", after && Array.isArray(after.entries)
    && !after.entries.some((e) => e.type === "message"), after && after.entries && types(after.entries));
} finally {
  await client.stop();
}
check("stderr has no stack traces", !client.getStderr().includes("Exception"), client.getStderr().slice(-2000));
process.stdout.write(JSON.stringify({ checks, events: types(events) }) + "\n");
process.exit(checks.every((c) => c.ok) ? 0 : 1);
