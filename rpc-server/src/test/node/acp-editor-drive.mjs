// Drives `agentd --mode acp` with the official ACP TypeScript SDK (AcpEditorIT) for issue 26's
// editor findings: the whole history on load after a compaction (A1), the terminal in bash's card
// (A6), messageId per reply (A3), pending while permission is asked and cancel during the ask
// (A11), session/fork, plan updates from the todo tool and available commands kept current.
// Every check is reported on the last stdout line as {"checks":[{name, ok, detail}]}.
// argv: <sdk package dir> <work dir>; env AGENTD_JAR, AGENTD_JAVA, AGENTD_DIR, AGENTD_ARGS (JSON array).
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Readable, Writable } from "node:stream";
import { pathToFileURL } from "node:url";
import { attempt, check, eventually, report } from "./drive-checks.mjs";

const [sdkDir, work] = process.argv.slice(2);
const acp = await import(pathToFileURL(join(sdkDir, "dist/v1/acp.js")).href);

function startAgent() {
  const child = spawn(process.env.AGENTD_JAVA || "java",
    ["-jar", process.env.AGENTD_JAR, "--mode", "acp", ...JSON.parse(process.env.AGENTD_ARGS)],
    { stdio: ["pipe", "pipe", "inherit"], cwd: work, env: { ...process.env } });
  const stream = acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout));
  const exited = new Promise((resolve) => child.on("exit", resolve));
  return { stream, stop: async () => { child.stdin.end(); return exited; } };
}

const updates = new Map();
const record = (sessionId, update) => {
  if (!updates.has(sessionId)) updates.set(sessionId, []);
  updates.get(sessionId).push(update);
};
const all = (sessionId) => updates.get(sessionId) || [];
const count = (sessionId) => all(sessionId).length;
const since = (sessionId, from) => all(sessionId).slice(from);
const chunks = (list) => list.filter((u) => u.sessionUpdate === "agent_message_chunk" && !u._meta);
const text = (list) => chunks(list).map((u) => u.content?.text ?? "").join("");
const terminals = new Map();
const permissions = [];
let holdPermission = null; // when set, the next permission request waits for this promise
const app = acp
  .client({ name: "agentd-acp-editor-drive" })
  .onNotification(acp.methods.client.session.update, (ctx) => record(ctx.params.sessionId, ctx.params.update))
  .onRequest(acp.methods.client.fs.writeTextFile, () => ({}))
  .onRequest(acp.methods.client.fs.readTextFile, () => ({ content: "" }))
  .onRequest(acp.methods.client.terminal.create, (ctx) => {
    const id = "term-" + (terminals.size + 1);
    const t = { params: ctx.params, output: "", released: false };
    const child = spawn(ctx.params.command, ctx.params.args || [], { cwd: ctx.params.cwd });
    child.stdout.on("data", (d) => { t.output += d; });
    t.exit = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ exitCode: code, signal })));
    terminals.set(id, t);
    return { terminalId: id };
  })
  .onRequest(acp.methods.client.terminal.waitForExit, async (ctx) => terminals.get(ctx.params.terminalId).exit)
  .onRequest(acp.methods.client.terminal.output, async (ctx) => {
    const t = terminals.get(ctx.params.terminalId);
    return { output: t.output, truncated: false, exitStatus: await t.exit };
  })
  .onRequest(acp.methods.client.terminal.kill, () => ({}))
  .onRequest(acp.methods.client.terminal.release, (ctx) => {
    terminals.get(ctx.params.terminalId).released = true;
    return {};
  })
  .onRequest(acp.methods.client.session.requestPermission, async (ctx) => {
    const id = ctx.params.toolCall.toolCallId;
    // what the card said while the user was asked: nothing may have called it running yet
    permissions.push({ params: ctx.params, before: all(ctx.params.sessionId).filter((u) => u.toolCallId === id) });
    if (holdPermission) return holdPermission;
    return { outcome: { outcome: "selected", optionId: "allow_once" } };
  });

const capabilities = { fs: { readTextFile: true, writeTextFile: true }, terminal: true, session: { compaction: {} } };
const ids = {};
const first = startAgent();
await app.connectWith(first.stream, async (ctx) => {
  const init = await ctx.request(acp.methods.agent.initialize,
    { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: capabilities });
  check("initialize: session/fork advertised", !!init.agentCapabilities?.sessionCapabilities?.fork, init.agentCapabilities);
  const s = await ctx.request(acp.methods.agent.session.new, { cwd: work, mcpServers: [] });
  ids.main = s.sessionId;
  const ask = (text, sessionId = s.sessionId) =>
    ctx.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] });

  await attempt("available commands kept current", async () => {
    await eventually(() => all(s.sessionId).some((u) => u.sessionUpdate === "available_commands_update"));
    const lists = () => all(s.sessionId).filter((u) => u.sessionUpdate === "available_commands_update");
    check("commands: the first list", lists().length === 1 && !lists()[0].availableCommands.some((c) => c.name === "later"),
        lists());
    writeFileSync(join(process.env.AGENTD_DIR, "prompts", "later.md"), "---\ndescription: Added later\n---\nLater $1\n");
    const r = await ask("q1");
    check("commands: q1 answered", r.stopReason === "end_turn", r);
    const latest = lists().at(-1);
    check("commands: a new template is offered before the turn's answer", lists().length === 2
        && latest.availableCommands.some((c) => c.name === "later" && c.description === "Added later"), lists());
  });

  await attempt("compaction", async () => {
    const r = await ask("q2 overflows");
    check("compaction: the turn goes on", r.stopReason === "end_turn", r);
  });

  await attempt("bash in the editor's terminal", async () => {
    const from = count(s.sessionId);
    const r = await ask("run it");
    const got = since(s.sessionId, from);
    const call = got.find((u) => u.sessionUpdate === "tool_call" && u.kind === "execute");
    const embeds = got.filter((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === call?.toolCallId
        && u.content?.[0]?.type === "terminal");
    check("terminal: embedded in the card while running (A6)", embeds.length >= 1 && embeds[0].status === undefined
        && terminals.has(embeds[0].content[0].terminalId), got);
    const done = got.find((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === call?.toolCallId
        && u.status === "completed");
    check("terminal: kept in the finished card with the output", done?.content?.[0]?.type === "terminal"
        && JSON.stringify(done.content).includes("live output"), done);
    check("terminal: answered", r.stopReason === "end_turn" && text(got) === "ran", { r, got });
    const asked = permissions.find((p) => p.params.toolCall.toolCallId === call?.toolCallId);
    check("permission: the card stays pending while asked (A11)", asked && asked.params.toolCall.status === "pending"
        && !asked.before.some((u) => u.status === "in_progress"), asked);
    const order = got.filter((u) => u.toolCallId === call?.toolCallId).map((u) => u.status ?? u.content?.[0]?.type);
    check("permission: in_progress after the answer, then the terminal", JSON.stringify(order.slice(0, 3))
        === JSON.stringify(["pending", "in_progress", "terminal"]), order);
  });

  await attempt("todo as a plan", async () => {
    const from = count(s.sessionId);
    const r = await ask("plan it");
    const plan = since(s.sessionId, from).find((u) => u.sessionUpdate === "plan");
    check("plan: the todo list", r.stopReason === "end_turn" && JSON.stringify(plan?.entries) === JSON.stringify([
      { content: "read the code", priority: "high", status: "completed" },
      { content: "fix it", priority: "medium", status: "in_progress" }]), plan);
  });

  await attempt("a mid-stream failure", async () => {
    const from = count(s.sessionId);
    const r = await ask("fail midway");
    const all = since(s.sessionId, from);
    const card = all.findIndex((u) => u.sessionUpdate === "tool_call" && u.kind === "other"); // the retry
    const got = chunks(all);
    const partial = chunks(all.slice(0, card));
    const answer = chunks(all.slice(card));
    check("mid-stream: the texts", text(partial) === "partial words that will be" && text(answer) === "complete answer",
        all);
    check("mid-stream: both streamed", r.stopReason === "end_turn" && partial.length > 0 && answer.length > 0,
        { r, got });
    check("mid-stream: the retried answer is another message (A3)", partial.every((u) => u.messageId === partial[0].messageId)
        && answer.every((u) => u.messageId === answer[0].messageId) && !!partial[0]?.messageId
        && partial[0].messageId !== answer[0]?.messageId, got);
  });

  await attempt("cancel while permission is asked", async () => {
    let release;
    holdPermission = new Promise((resolve) => { release = resolve; });
    const from = count(s.sessionId);
    const asked = permissions.length;
    const prompt = ask("write then cancel");
    await eventually(() => permissions.length > asked);
    await ctx.notify(acp.methods.agent.session.cancel, { sessionId: s.sessionId });
    const r = await prompt;
    release({ outcome: { outcome: "cancelled" } });
    holdPermission = null;
    const got = since(s.sessionId, from);
    const id = permissions[asked]?.params.toolCall.toolCallId;
    const failed = got.find((u) => u.toolCallId === id && u.status === "failed");
    check("cancel during the ask: cancelled", r.stopReason === "cancelled", r);
    check("cancel during the ask: the call fails readably (A11)", JSON.stringify(failed?.content)
        .includes("Cancelled while waiting for permission") && !JSON.stringify(got).includes("CancellationException"), got);
    check("cancel during the ask: never running", !got.some((u) => u.toolCallId === id && u.status === "in_progress"), got);
  });

  await attempt("session/fork", async () => {
    const fork = await ctx.request(acp.methods.agent.session.fork, { sessionId: s.sessionId, cwd: work, mcpServers: [] });
    ids.fork = fork.sessionId;
    check("fork: a new session id", !!fork.sessionId && fork.sessionId !== s.sessionId, fork);
    check("fork: config options", (fork.configOptions || []).some((o) => o.id === "model"), fork);
    const r = await ask("on the fork", fork.sessionId);
    // (the scripted steps may be spent by then: the faux default reply echoes the prompt)
    check("fork: answers on its own", r.stopReason === "end_turn" && /fork/.test(text(all(fork.sessionId))),
        all(fork.sessionId));
  });
});
check("first agent exits 0", (await first.stop()) === 0, "exit code");

// A second agentd on the same session store: the editor reopens both threads.
const second = startAgent();
await app.connectWith(second.stream, async (ctx) => {
  await ctx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: capabilities });
  await attempt("load after a compaction", async () => {
    const before = count(ids.main);
    await ctx.request(acp.methods.agent.session.load, { sessionId: ids.main, cwd: work, mcpServers: [] });
    const replayed = since(ids.main, before);
    const at = (match) => replayed.findIndex(match);
    const q1 = at((u) => u.sessionUpdate === "user_message_chunk" && u.content?.text === "q1");
    const a1 = at((u) => u.sessionUpdate === "agent_message_chunk" && u.content?.text === "a1");
    const summary = at((u) => u.sessionUpdate === "compaction_update" && u.status === "completed"
        && u.summary?.[0]?.text === "summary of q1");
    const a2 = at((u) => u.sessionUpdate === "agent_message_chunk" && u.content?.text === "a2");
    check("load: the compacted exchange is replayed (A1)", q1 >= 0 && a1 > q1, replayed.slice(0, 12));
    check("load: the summary where it was made, then the rest", summary > a1 && a2 > summary, replayed.slice(0, 12));
    check("load: each message its own messageId", !!replayed[a1]?.messageId && !!replayed[a2]?.messageId
        && replayed[a1].messageId !== replayed[a2].messageId, [replayed[a1], replayed[a2]]);
    check("load: the reply after the failure is there once", text(replayed).includes("complete answer"), text(replayed));
  });
  await attempt("load the fork", async () => {
    const before = count(ids.fork);
    await ctx.request(acp.methods.agent.session.load, { sessionId: ids.fork, cwd: work, mcpServers: [] });
    const replayed = since(ids.fork, before);
    check("fork: the source's history, then its own", replayed.some((u) => u.content?.text === "q1")
        && /fork/.test(text(replayed)) && !all(ids.main).some((u) => u.content?.text === "on the fork"), replayed.map((u) => u.content?.text ?? u.sessionUpdate));
  });
});
check("second agent exits 0", (await second.stop()) === 0, "exit code");
report();
