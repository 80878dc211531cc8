// Drives `agentd --mode acp` with the official ACP TypeScript SDK (AcpMcpIT): an editor's session
// with MCP servers from session/new (the reference server-everything over stdio and over
// Streamable HTTP, and one that cannot start), authenticated, switching model through the config
// option and the legacy session/set_model, compacting with /compact. Every message agentd sends
// is checked by the SDK's schemas. Checks on the last stdout line as {"checks":[{name, ok, detail}]}.
// argv: <sdk package dir> <work dir>; env AGENTD_JAR, AGENTD_JAVA, AGENTD_DIR, AGENTD_ARGS (JSON array),
// MCP_EVERYTHING (server-everything's index.js), MCP_HTTP_URL (a running Streamable HTTP instance).
import { spawn } from "node:child_process";
import { join } from "node:path";
import { Readable, Writable } from "node:stream";
import { pathToFileURL } from "node:url";
import { attempt, check, eventually, report } from "./drive-checks.mjs";

const [sdkDir, work] = process.argv.slice(2);
const acp = await import(pathToFileURL(join(sdkDir, "dist/v1/acp.js")).href);

const child = spawn(process.env.AGENTD_JAVA || "java",
  ["-jar", process.env.AGENTD_JAR, "--mode", "acp", ...JSON.parse(process.env.AGENTD_ARGS)],
  { stdio: ["pipe", "pipe", "inherit"], cwd: work, env: { ...process.env } });
const stream = acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout));
const exited = new Promise((resolve) => child.on("exit", resolve));

const updates = new Map();
const record = (sessionId, update) => {
  if (!updates.has(sessionId)) updates.set(sessionId, []);
  updates.get(sessionId).push(update);
};
const all = (sessionId) => updates.get(sessionId) || [];
const count = (sessionId) => all(sessionId).length;
const since = (sessionId, from) => all(sessionId).slice(from);
const permissions = [];
const app = acp
  .client({ name: "agentd-acp-mcp-drive" })
  .onNotification(acp.methods.client.session.update, (ctx) => record(ctx.params.sessionId, ctx.params.update))
  .onRequest(acp.methods.client.session.requestPermission, (ctx) => {
    permissions.push(ctx.params);
    return { outcome: { outcome: "selected", optionId: "allow_always" } };
  });

// Zed's capabilities plus compaction and notices, so both are seen.
const capabilities = { fs: { readTextFile: false, writeTextFile: false }, terminal: false,
  session: { compaction: {}, notices: {} } };
await app.connectWith(stream, async (ctx) => {
  const init = await ctx.request(acp.methods.agent.initialize,
    { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: capabilities });
  check("initialize: MCP over http and sse", init.agentCapabilities?.mcpCapabilities?.http === true
      && init.agentCapabilities?.mcpCapabilities?.sse === true, init.agentCapabilities);
  await attempt("authenticate", async () => {
    const ok = await ctx.request(acp.methods.agent.authenticate, { methodId: init.authMethods[0].id });
    check("authenticate: the advertised method", ok && Object.keys(ok).length === 0, ok);
  });
  const s = await ctx.request(acp.methods.agent.session.new, { cwd: work, mcpServers: [
    { name: "everything", command: process.execPath, args: [process.env.MCP_EVERYTHING, "stdio"],
      env: [{ name: "MCP_FROM_EDITOR", value: "zed" }] },
    { type: "http", name: "web", url: process.env.MCP_HTTP_URL, headers: [{ name: "X-Editor", value: "drive" }] },
    { name: "broken", command: "/nonexistent/mcp-server", args: [], env: [] },
  ] });
  const ask = (text) => ctx.request(acp.methods.agent.session.prompt, { sessionId: s.sessionId,
    prompt: [{ type: "text", text }] });

  await attempt("a tool of server-everything over stdio", async () => {
    const from = count(s.sessionId);
    const r = await ask("echo it");
    const got = since(s.sessionId, from);
    const call = got.find((u) => u.sessionUpdate === "tool_call");
    const done = got.find((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === call?.toolCallId
        && u.status === "completed");
    check("mcp: the call is shown", call?.title?.includes("mcp__everything__echo") && call?.kind === "other", call);
    check("mcp: permission asked like a built-in tool", permissions.some((p) => p.toolCall.toolCallId === call?.toolCallId
        && p.options.some((o) => o.kind === "allow_always")), permissions);
    check("mcp: the server's answer", JSON.stringify(done?.content ?? done?.rawOutput ?? "").includes("Echo: from the editor"),
        got);
    check("mcp: answered", r.stopReason === "end_turn", r);
  });

  await attempt("a tool over Streamable HTTP, allowed always before", async () => {
    const asked = permissions.length;
    const from = count(s.sessionId);
    const r = await ask("echo over http");
    const got = since(s.sessionId, from);
    const done = got.find((u) => u.sessionUpdate === "tool_call_update" && u.status === "completed");
    check("mcp http: the server's answer", JSON.stringify(done ?? "").includes("Echo: over http"), got);
    check("mcp http: asked once for this tool (a new tool asks)", permissions.length === asked + 1, permissions.length - asked);
    check("mcp http: answered", r.stopReason === "end_turn", r);
  });

  await attempt("a server that cannot start", async () => {
    const seen = await eventually(() => all(s.sessionId).some((u) => u.sessionUpdate === "notice"
        && /MCP server 'broken'/.test(JSON.stringify(u))));
    check("mcp: the failed server is a notice", seen, all(s.sessionId).filter((u) => u.sessionUpdate === "notice"));
  });

  await attempt("model switches", async () => {
    const options = await ctx.request(acp.methods.agent.session.setConfigOption,
      { sessionId: s.sessionId, configId: "model", value: "faux/faux-2" });
    const model = (options.configOptions || []).find((o) => o.id === "model");
    check("config option: model switched", model?.currentValue === "faux/faux-2", options);
    const from = count(s.sessionId);
    const legacy = await ctx.request("session/set_model", { sessionId: s.sessionId, modelId: "faux/faux-1" });
    check("session/set_model: answered", legacy && typeof legacy === "object", legacy);
    const seen = await eventually(() => since(s.sessionId, from).some((u) => u.sessionUpdate === "config_option_update"
        && u.configOptions.some((o) => o.id === "model" && o.currentValue === "faux/faux-1")));
    check("session/set_model: a config_option_update follows", seen, since(s.sessionId, from));
  });

  await attempt("compaction", async () => {
    const from = count(s.sessionId);
    const r = await ask("/compact");
    const got = since(s.sessionId, from);
    const states = got.filter((u) => u.sessionUpdate === "compaction_update").map((u) => u.status);
    check("compaction: in_progress then completed", JSON.stringify(states) === JSON.stringify(["in_progress", "completed"]),
        got);
    check("compaction: answered", r.stopReason === "end_turn", r);
  });
});
child.stdin.end();
check("agent exits 0", (await exited) === 0, "exit code");
report();
