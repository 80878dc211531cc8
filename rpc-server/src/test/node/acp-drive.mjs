// Drives `agentd --mode acp` with the official ACP TypeScript SDK (AcpClientIT): every check is
// reported on the last stdout line as {"checks":[{name, ok, detail}]}.
// argv: <sdk package dir> <work dir>; env AGENTD_JAR, AGENTD_JAVA (optional), AGENTD_ARGS (JSON array).
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Readable, Writable } from "node:stream";
import { pathToFileURL } from "node:url";
import { attempt, check, eventually, report } from "./drive-checks.mjs";

const [sdkDir, work] = process.argv.slice(2);
const acp = await import(pathToFileURL(join(sdkDir, "dist/v1/acp.js")).href);

// One agentd per scenario group: env AGENTD_DIR chooses its settings.json.
function startAgent(args, agentDir) {
  const child = spawn(process.env.AGENTD_JAVA || "java", ["-jar", process.env.AGENTD_JAR, "--mode", "acp", ...args], {
    stdio: ["pipe", "pipe", "inherit"],
    cwd: work,
    env: { ...process.env, AGENTD_DIR: agentDir },
  });
  const stream = acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout));
  const exited = new Promise((resolve) => child.on("exit", resolve));
  return { stream, stop: async () => { child.stdin.end(); return exited; } };
}

// Every update by session, and waiters for a matching one.
const updates = new Map();
const waiters = [];
const writes = [];
const reads = [];
const permissions = [];
const buffers = new Map(); // the editor's unsaved buffers, by absolute path
const terminals = new Map(); // the editor's terminals: id → {params, output, exit (a promise), released, killed}
function record(sessionId, update) {
  if (!updates.has(sessionId)) updates.set(sessionId, []);
  updates.get(sessionId).push(update);
  for (const w of [...waiters]) {
    if (w.sessionId === sessionId && w.match(update)) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve(update);
    }
  }
}
function waitFor(sessionId, match, ms = 20000) {
  const seen = (updates.get(sessionId) || []).find(match);
  if (seen) return Promise.resolve(seen);
  return new Promise((resolve, reject) => {
    const w = { sessionId, match, resolve };
    waiters.push(w);
    setTimeout(() => reject(new Error("timed out waiting for an update")), ms);
  });
}
const since = (sessionId, from) => (updates.get(sessionId) || []).slice(from);
const count = (sessionId) => (updates.get(sessionId) || []).length;
const text = (list, kind = "agent_message_chunk") =>
  list.filter((u) => u.sessionUpdate === kind && !u._meta).map((u) => u.content?.text ?? "").join("");
const option = (options, id) => (options || []).find((o) => o.id === id);

const clientCapabilities = { fs: { readTextFile: true, writeTextFile: true }, terminal: true, session: { notices: {} } };
const app = acp
  .client({ name: "agentd-acp-drive" })
  .onNotification(acp.methods.client.session.update, (ctx) => record(ctx.params.sessionId, ctx.params.update))
  .onRequest(acp.methods.client.fs.writeTextFile, (ctx) => {
    writes.push(ctx.params);
    buffers.set(ctx.params.path, ctx.params.content);
    return {};
  })
  .onRequest(acp.methods.client.fs.readTextFile, (ctx) => {
    reads.push(ctx.params);
    return { content: buffers.get(ctx.params.path) ?? "" };
  })
  .onRequest(acp.methods.client.terminal.create, (ctx) => {
    // a real process, as an editor's terminal runs it
    const id = "term-" + (terminals.size + 1);
    const t = { params: ctx.params, output: "", released: false, killed: false };
    const child = spawn(ctx.params.command, ctx.params.args || [], { cwd: ctx.params.cwd });
    child.stdout.on("data", (d) => { t.output += d; });
    child.stderr.on("data", (d) => { t.output += d; });
    t.exit = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ exitCode: code, signal })));
    t.child = child;
    terminals.set(id, t);
    return { terminalId: id };
  })
  .onRequest(acp.methods.client.terminal.waitForExit, async (ctx) => terminals.get(ctx.params.terminalId).exit)
  .onRequest(acp.methods.client.terminal.output, async (ctx) => {
    const t = terminals.get(ctx.params.terminalId);
    return { output: t.output, truncated: false, exitStatus: await t.exit };
  })
  .onRequest(acp.methods.client.terminal.kill, (ctx) => {
    const t = terminals.get(ctx.params.terminalId);
    t.killed = true;
    t.child.kill();
    return {};
  })
  .onRequest(acp.methods.client.terminal.release, (ctx) => {
    terminals.get(ctx.params.terminalId).released = true;
    return {};
  })
  .onRequest(acp.methods.client.session.requestPermission, (ctx) => {
    permissions.push(ctx.params);
    // edits are allowed for the rest of the session; anything else once
    const always = ctx.params.toolCall?.rawInput?.oldText !== undefined;
    return { outcome: { outcome: "selected", optionId: always ? "allow_always" : "allow_once" } };
  });

const first = {};
const second = {};
const main = startAgent(JSON.parse(process.env.AGENTD_ARGS), process.env.AGENTD_DIR);
await app.connectWith(main.stream, async (ctx) => {
  const init = await ctx.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities,
    clientInfo: { name: "agentd-acp-drive", version: "1" },
  });
  check("initialize: protocol 1", init.protocolVersion === 1, init);
  check("initialize: agentInfo", init.agentInfo?.name === "agentd" && !!init.agentInfo?.version, init);
  check("initialize: image prompts", init.agentCapabilities?.promptCapabilities?.image === true, init);
  const caps = init.agentCapabilities;
  check("initialize: load, list, resume, close", caps?.loadSession === true && !!caps.sessionCapabilities?.list
      && !!caps.sessionCapabilities?.resume && !!caps.sessionCapabilities?.close, caps);
  check("initialize: the API-key auth method", init.authMethods?.length === 1 && init.authMethods[0].id === "agentd-api-key"
      && init.authMethods[0].description.includes("ANTHROPIC_API_KEY"), init.authMethods);
  check("initialize: MCP over http and sse advertised", caps?.mcpCapabilities?.http === true && caps?.mcpCapabilities?.sse === true, caps);
  await attempt("authenticate", async () => {
    const ok = await ctx.request(acp.methods.agent.authenticate, { methodId: "agentd-api-key" });
    check("authenticate: the advertised method", ok && Object.keys(ok).length === 0, ok);
    try {
      await ctx.request(acp.methods.agent.authenticate, { methodId: "sk-not-a-method" });
      check("authenticate: another id is refused", false, "answered");
    } catch (e) {
      check("authenticate: another id is refused", e?.code === -32602 && e.message.includes("agentd-api-key")
          && !e.message.includes("sk-not-a-method"), { code: e?.code, message: e?.message });
    }
  });

  const a = await ctx.request(acp.methods.agent.session.new, { cwd: work, mcpServers: [] });
  first.sessionId = a.sessionId;
  const model = option(a.configOptions, "model");
  check("session/new: model option", model?.category === "model" && model.currentValue === "faux/faux-1"
      && model.options.some((o) => o.value === "faux/faux-2"), a.configOptions);
  check("session/new: thought level option", option(a.configOptions, "thought_level")?.category === "thought_level",
      a.configOptions);
  await attempt("available commands after session/new", async () => {
    const commands = await waitFor(a.sessionId, (u) => u.sessionUpdate === "available_commands_update");
    check("available commands: the prompt template", commands?.availableCommands?.some((c) => c.name === "greet"
        && c.description === "Greet someone"), commands);
    check("available commands: /compact", commands?.availableCommands?.some((c) => c.name === "compact"), commands);
  });

  await attempt("streamed answer", async () => {
    const from = count(a.sessionId);
    const r = await ctx.request(acp.methods.agent.session.prompt,
      { sessionId: a.sessionId, prompt: [{ type: "text", text: "/greet Bob" }] });
    const got = since(a.sessionId, from);
    check("streamed answer: end_turn", r.stopReason === "end_turn", r);
    check("streamed answer: chunks", text(got) === "Hello from agentd, in chunks.", got);
    check("streamed answer: several chunks", got.filter((u) => u.sessionUpdate === "agent_message_chunk").length > 1, got);
    check("streamed answer: usage", got.some((u) => u.sessionUpdate === "usage_update" && u.size > 0), got);
  });

  await attempt("retry as a notice", async () => {
    const from = count(a.sessionId);
    const r = await ctx.request(acp.methods.agent.session.prompt,
      { sessionId: a.sessionId, prompt: [{ type: "text", text: "retry please" }] });
    const got = since(a.sessionId, from);
    const notice = got.find((u) => u.sessionUpdate === "notice");
    check("retry: notice", notice?.severity === "warning" && /^Retrying in \d+ s \(attempt 1\/2\)/.test(notice.title), got);
    const meta = notice?._meta?.["agentd/retry"];
    check("retry: _meta", meta?.attempt === 1 && meta.maxAttempts === 2 && meta.delayMs > 0 && !!meta.nextRetryAt
        && meta.errorClass === "transient", notice);
    check("retry: recovered", r.stopReason === "end_turn" && text(got) === "recovered", { r, got });
  });

  await attempt("write through the editor", async () => {
    const from = count(a.sessionId);
    const r = await ctx.request(acp.methods.agent.session.prompt,
      { sessionId: a.sessionId, prompt: [{ type: "text", text: "write a file" }] });
    const got = since(a.sessionId, from);
    check("write: end_turn", r.stopReason === "end_turn" && text(got) === "wrote it", { r, got });
    check("write: permission asked", permissions.length === 1 && permissions[0].toolCall?.kind === "edit"
        && permissions[0].options.some((o) => o.kind === "allow_always"), permissions);
    check("write: fs/write_text_file", writes.length === 1 && writes[0].path === join(work, "notes/out.txt")
        && writes[0].content === "from the editor" && writes[0].sessionId === a.sessionId, writes);
    check("write: not written to disk by agentd", !existsSync(join(work, "notes/out.txt")), "file exists");
    const call = got.find((u) => u.sessionUpdate === "tool_call");
    check("write: tool_call", call?.kind === "edit" && call.status === "pending"
        && call.locations?.[0]?.path === join(work, "notes/out.txt"), got);
    const done = got.find((u) => u.sessionUpdate === "tool_call_update" && u.status === "completed");
    check("write: diff", done?.content?.[0]?.type === "diff" && done.content[0].newText === "from the editor", got);
  });

  await attempt("edit through the editor", async () => {
    // the disk holds something else: only the editor's buffer has the text the edit replaces
    mkdirSync(join(work, "notes"), { recursive: true });
    writeFileSync(join(work, "notes/out.txt"), "stale disk content\n");
    const from = count(a.sessionId);
    const asked = permissions.length;
    const r = await ctx.request(acp.methods.agent.session.prompt,
      { sessionId: a.sessionId, prompt: [{ type: "text", text: "edit it twice" }] });
    const got = since(a.sessionId, from);
    check("edit: end_turn", r.stopReason === "end_turn" && text(got) === "edited", { r, got });
    check("edit: read through fs/read_text_file", reads.length === 2 && reads[0].path === join(work, "notes/out.txt"), reads);
    check("edit: written through fs/write_text_file", buffers.get(join(work, "notes/out.txt")) === "from the open buffer editor", writes);
    check("edit: disk untouched", readFileSync(join(work, "notes/out.txt"), "utf8") === "stale disk content\n", "disk changed");
    check("edit: allow always asked once", permissions.length === asked + 1, permissions.slice(asked));
    const diff = got.find((u) => u.sessionUpdate === "tool_call_update" && u.status === "completed")?.content?.[0];
    check("edit: diff", diff?.type === "diff" && diff.oldText === "editor" && diff.newText === "open editor", got);
  });

  await attempt("read through the editor", async () => {
    const from = count(a.sessionId);
    const r = await ctx.request(acp.methods.agent.session.prompt,
      { sessionId: a.sessionId, prompt: [{ type: "text", text: "read it back" }] });
    const got = since(a.sessionId, from);
    const done = got.find((u) => u.sessionUpdate === "tool_call_update" && u.status === "completed");
    check("read: the buffer's text", r.stopReason === "end_turn" && reads.length === 3
        && JSON.stringify(done?.content).includes("from the open buffer editor"), { r, got, reads });
    check("read: no permission asked", !permissions.some((p) => p.toolCall?.kind === "read"), permissions);
  });

  await attempt("bash in the editor's terminal", async () => {
    const from = count(a.sessionId);
    const r = await ctx.request(acp.methods.agent.session.prompt,
      { sessionId: a.sessionId, prompt: [{ type: "text", text: "run a command" }] });
    const got = since(a.sessionId, from);
    const t = terminals.get("term-1");
    check("terminal: created with bash -c in the session's cwd", t?.params?.command === "bash"
        && t.params.args?.[0] === "-c" && t.params.args[1].startsWith("echo from the terminal")
        && t.params.cwd === work && t.params.sessionId === a.sessionId, t?.params);
    check("terminal: released", await eventually(() => t?.released === true) && t.killed === false,
        t && { released: t.released, killed: t.killed });
    const done = got.find((u) => u.sessionUpdate === "tool_call_update" && u.status === "failed");
    check("terminal: output and exit code in the result", r.stopReason === "end_turn"
        && JSON.stringify(done?.content).includes("from the terminal")
        && JSON.stringify(done?.content).includes("Command exited with code 3"), { r, got });
    check("terminal: not run by agentd", !existsSync(join(work, "ran-locally")), "agentd ran bash itself");
  });

  await attempt("fallback in the model option", async () => {
    const from = count(a.sessionId);
    const r = await ctx.request(acp.methods.agent.session.prompt,
      { sessionId: a.sessionId, prompt: [{ type: "text", text: "fall back" }] });
    const got = since(a.sessionId, from);
    check("fallback: end_turn on faux-2", r.stopReason === "end_turn" && text(got) === "faux-2 answers", { r, got });
    check("fallback: notice", got.some((u) => u.sessionUpdate === "notice" && u._meta?.["agentd/fallback"]?.to === "faux/faux-2"), got);
    check("fallback: config_option_update", got.some((u) => u.sessionUpdate === "config_option_update"
        && option(u.configOptions, "model")?.currentValue === "faux/faux-2"), got);
  });

  await attempt("set_config_option and a final failure", async () => {
    const b = await ctx.request(acp.methods.agent.session.new, { cwd: work, mcpServers: [] });
    second.sessionId = b.sessionId;
    const level = await ctx.request(acp.methods.agent.session.setConfigOption,
      { sessionId: b.sessionId, configId: "thought_level", value: "high" });
    check("set_config_option: thought level", option(level.configOptions, "thought_level")?.currentValue === "high", level);
    const set = await ctx.request(acp.methods.agent.session.setConfigOption,
      { sessionId: b.sessionId, configId: "model", value: "faux/faux-2" });
    check("set_config_option: model", option(set.configOptions, "model")?.currentValue === "faux/faux-2", set);
    try {
      const r = await ctx.request(acp.methods.agent.session.prompt,
        { sessionId: b.sessionId, prompt: [{ type: "text", text: "this fails" }] });
      check("final failure: an error", false, r);
    } catch (e) {
      check("final failure: errorKind", e?.data?.errorKind === "overloaded" && e.data.errorStatus === 529
          && e.code === -32603, { code: e?.code, message: e?.message, data: e?.data });
    }
  });

  await attempt("two concurrent sessions", async () => {
    const c = await ctx.request(acp.methods.agent.session.new, { cwd: work, mcpServers: [] });
    const d = await ctx.request(acp.methods.agent.session.new, { cwd: work, mcpServers: [] });
    const [rc, rd] = await Promise.all([c, d].map((s) => ctx.request(acp.methods.agent.session.prompt,
      { sessionId: s.sessionId, prompt: [{ type: "text", text: "in parallel" }] })));
    check("concurrent: both end_turn", rc.stopReason === "end_turn" && rd.stopReason === "end_turn", { rc, rd });
    const texts = [text(updates.get(c.sessionId) || []), text(updates.get(d.sessionId) || [])].sort();
    check("concurrent: each its own answer", JSON.stringify(texts) === JSON.stringify(["parallel one", "parallel two"]), texts);
  });
});

check("main agent exits 0", (await main.stop()) === 0, "exit code");

// A second agentd whose backoff is long (30 s): cancel must answer at once, not after the wait.
// This client has no session.notices, so the backoff comes as a tool-call card carrying the _meta.
const slow = startAgent(JSON.parse(process.env.AGENTD_SLOW_ARGS), process.env.AGENTD_SLOW_DIR);
await app.connectWith(slow.stream, async (ctx) => {
  await ctx.request(acp.methods.agent.initialize,
    { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: { fs: clientCapabilities.fs } });
  await attempt("session/list and session/load", async () => {
    const listed = await ctx.request(acp.methods.agent.session.list, { cwd: work });
    check("list: the first agent's sessions", listed.sessions.some((s) => s.sessionId === first.sessionId
        && s.cwd === work && !!s.updatedAt), listed);
    const loaded = await ctx.request(acp.methods.agent.session.load,
      { sessionId: first.sessionId, cwd: work, mcpServers: [] });
    const replayed = updates.get(first.sessionId) || [];
    const mark = replayed.findIndex((u) => u.sessionUpdate === "user_message_chunk"
        && u.content?.text?.trim() === "Say hello to Bob politely.");
    check("load: replays the user's message, its template expanded", mark >= 0, replayed.slice(-40));
    check("load: replays the answer", replayed.slice(mark).some((u) => u.sessionUpdate === "agent_message_chunk"
        && u.content?.text === "Hello from agentd, in chunks."), replayed.slice(-40));
    check("load: replays the tool call", replayed.slice(mark).some((u) => u.sessionUpdate === "tool_call"
        && u.kind === "edit" && u.rawInput?.path === "notes/out.txt"), replayed.slice(-40));
    check("load: config options", option(loaded.configOptions, "model")?.category === "model", loaded);
    const before = count(second.sessionId);
    const resumed = await ctx.request(acp.methods.agent.session.resume, { sessionId: second.sessionId, cwd: work });
    check("resume: config options, no replay", option(resumed.configOptions, "model")?.currentValue === "faux/faux-2"
        && !since(second.sessionId, before).some((u) => u.sessionUpdate === "user_message_chunk"), resumed);
    try {
      await ctx.request(acp.methods.agent.session.load, { sessionId: "no-such-session", cwd: work, mcpServers: [] });
      check("load: unknown session is an error", false, "answered");
    } catch (e) {
      check("load: unknown session is an error", e?.code === -32002, { code: e?.code, message: e?.message });
    }
  });

  const a = await ctx.request(acp.methods.agent.session.new, { cwd: work, mcpServers: [] });
  await attempt("cancel during a backoff", async () => {
    const prompt = ctx.request(acp.methods.agent.session.prompt,
      { sessionId: a.sessionId, prompt: [{ type: "text", text: "this one waits" }] });
    const card = await waitFor(a.sessionId, (u) => u._meta?.["agentd/retry"]?.delayMs >= 30000);
    check("no notices: a tool-call card with _meta, not reply text", card.sessionUpdate === "tool_call"
        && card.kind === "other" && card.status === "in_progress"
        && /^Retrying in 3[0-3] s \(1\/1\): overloaded$/.test(card.title), card);
    const started = Date.now();
    await ctx.notify(acp.methods.agent.session.cancel, { sessionId: a.sessionId });
    const r = await prompt;
    check("cancel: stopReason cancelled", r.stopReason === "cancelled", r);
    check("cancel: the awaited error in _meta", r._meta?.["agentd/lastError"]?.errorKind === "overloaded"
        && r._meta["agentd/lastError"].errorStatus === 529, r);
    check("cancel: at once", Date.now() - started < 10000, Date.now() - started);
    // before the prompt's answer: no update of the turn may follow it
    check("cancel: the retry card fails", since(a.sessionId, 0).some((u) =>
        u.sessionUpdate === "tool_call_update" && u.toolCallId === card.toolCallId && u.status === "failed"),
        since(a.sessionId, 0).filter((u) => u.toolCallId === card.toolCallId));
    check("no notices: no retry text in the reply", !text(since(a.sessionId, 0)).includes("Retrying"),
        text(since(a.sessionId, 0)));
  });

});
check("slow agent exits 0", (await slow.stop()) === 0, "exit code");

// A third agentd, for a client with Zed's capabilities plus session.compaction: compaction, the
// legacy session/set_model, the context meter after a failure, auth-required, a busy session.
const third = startAgent(JSON.parse(process.env.AGENTD_THIRD_ARGS), process.env.AGENTD_THIRD_DIR);
await app.connectWith(third.stream, async (ctx) => {
  await ctx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: { fs: clientCapabilities.fs, terminal: true, session: { compaction: {} } } });
  const s = await ctx.request(acp.methods.agent.session.new, { cwd: work, mcpServers: [] });
  const ask = (text) => ctx.request(acp.methods.agent.session.prompt, { sessionId: s.sessionId, prompt: [{ type: "text", text }] });
  await attempt("compaction", async () => {
    await ask("q1");
    const from = count(s.sessionId);
    const r = await ask("q2 overflows");
    const got = since(s.sessionId, from);
    const compactions = got.filter((u) => u.sessionUpdate === "compaction_update");
    check("compaction: in_progress then completed under one id", compactions.length === 2
        && compactions[0].status === "in_progress" && compactions[1].status === "completed"
        && compactions[0].compactionId === compactions[1].compactionId
        && compactions[0]._meta?.["agentd/reason"] === "overflow", compactions);
    check("compaction: the summary", compactions[1]?.summary?.[0]?.text === "summary of q1", compactions);
    check("compaction: the turn goes on", r.stopReason === "end_turn" && text(got) === "a2", { r, got });
  });
  await attempt("session/set_model", async () => {
    const from = count(s.sessionId);
    const r = await ctx.request("session/set_model", { sessionId: s.sessionId, modelId: "faux/faux-2" });
    check("set_model: answered", r && Object.keys(r).length === 0, r);
    const update = await waitFor(s.sessionId, (u) => u.sessionUpdate === "config_option_update"
        && option(u.configOptions, "model")?.currentValue === "faux/faux-2");
    check("set_model: the model option follows", since(s.sessionId, from).includes(update), update);
    try {
      await ctx.request(acp.methods.agent.session.setMode, { sessionId: s.sessionId, modeId: "code" });
      check("set_mode: not found (no modes)", false, "answered");
    } catch (e) {
      check("set_mode: not found (no modes)", e?.code === -32601, { code: e?.code, message: e?.message });
    }
  });
  await attempt("a rejected key", async () => {
    const from = count(s.sessionId);
    try {
      await ask("this key is rejected");
      check("rejected key: auth required", false, "answered");
    } catch (e) {
      check("rejected key: auth required with the method", e?.code === -32000
          && e.data?.authMethods?.[0]?.id === "agentd-api-key", { code: e?.code, message: e?.message, data: e?.data });
    }
    const usage = since(s.sessionId, from).filter((u) => u.sessionUpdate === "usage_update");
    check("rejected key: the context meter stays", usage.length > 0 && usage.every((u) => u.used > 0), usage);
  });
  await attempt("a busy session", async () => {
    const first = ask("slow");
    try {
      await ask("too soon");
      check("busy: an error in ACP's words", false, "answered");
    } catch (e) {
      check("busy: an error in ACP's words", e?.code === -32602 && e.message.startsWith("Session is busy")
          && !e.message.includes("streamingBehavior"), { code: e?.code, message: e?.message });
    }
    check("busy: the first prompt still answers", (await first).stopReason === "end_turn", "no answer");
  });
  await attempt("manual compaction", async () => {
    const from = count(s.sessionId);
    const r = await ask("/compact keep the names");
    const got = since(s.sessionId, from);
    const compactions = got.filter((u) => u.sessionUpdate === "compaction_update");
    check("/compact: answered end_turn", r.stopReason === "end_turn", r);
    check("/compact: compaction_update, manual, with the summary", compactions.length === 2
        && compactions[0]._meta?.["agentd/reason"] === "manual" && compactions[1].status === "completed"
        && compactions[1].summary?.[0]?.text === "manual summary", compactions);
    check("/compact: no reply text for a client that shows compactions", text(got) === "", got);
  });
  await attempt("a retry chain as a card", async () => {
    const from = count(s.sessionId);
    const r = await ask("retry then answer");
    const got = since(s.sessionId, from);
    const card = got.find((u) => u.sessionUpdate === "tool_call" && u.kind === "other");
    check("retry card: announced with the failure's kind", card?.status === "in_progress"
        && /^Retrying in \d+ s \(1\/2\): overloaded$/.test(card.title), got);
    check("retry card: completed by the recovery", got.some((u) => u.sessionUpdate === "tool_call_update"
        && u.toolCallId === card?.toolCallId && u.status === "completed"), got);
    check("retry card: the reply is only the answer", r.stopReason === "end_turn" && text(got) === "recovered", { r, got });
  });
  await attempt("session/list without cwd", async () => {
    const listed = await ctx.request(acp.methods.agent.session.list, {});
    check("list without cwd: sessions of every directory", listed.sessions.some((x) => x.sessionId === s.sessionId)
        && listed.sessions.some((x) => x.sessionId === first.sessionId), listed.sessions.map((x) => x.sessionId));
  });
});
check("third agent exits 0", (await third.stop()) === 0, "exit code");
report();
