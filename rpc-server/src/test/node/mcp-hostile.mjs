// A hostile MCP server over stdio (McpIT): no reference server misbehaves, so this one does, on
// purpose. Tools: names that collide after sanitizing and carry control characters; `silent`
// never answers; `junk` writes non-JSON lines, answers out of order around another call, then
// answers; `huge` answers with a line over agentd's limit; `grow` announces a changed tool list
// (adding `grown`); `fork-and-exit` starts a detached grandchild that records its pid, then exits.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createInterface } from "node:readline";

const pidFile = process.argv[2];
let grown = false;
const send = (message) => process.stdout.write(JSON.stringify(message) + "\n");
const tool = (name) => ({ name, description: "hostile " + name, inputSchema: { type: "object", properties: {} } });
const tools = () => [tool("a-b"), tool("a.b"), tool("evil\nname\u0007"), tool("silent"), tool("junk"), tool("huge"),
  tool("grow"), tool("fork-and-exit"), ...(grown ? [tool("grown")] : [])];
const text = (t) => ({ content: [{ type: "text", text: t }] });

process.stdout.write("this banner is not JSON-RPC\n");
createInterface({ input: process.stdin }).on("line", (line) => {
  const request = JSON.parse(line);
  const { id, method, params } = request;
  if (method === "initialize") {
    send({ jsonrpc: "2.0", id, result: { protocolVersion: params.protocolVersion, capabilities: { tools: { listChanged: true } },
      serverInfo: { name: "hostile", version: "1" } } });
  } else if (method === "tools/list") {
    send({ jsonrpc: "2.0", id, result: { tools: tools() } });
  } else if (method === "tools/call") {
    const name = params.name;
    if (name === "silent") return;
    if (name === "junk") {
      process.stdout.write("{not json\n\n[1,2\n");
      send({ jsonrpc: "2.0", id: "no-such-request", result: text("answer to nobody") });
      send({ jsonrpc: "2.0", id, result: text("junk survived") });
    } else if (name === "huge") {
      send({ jsonrpc: "2.0", id, result: text("x".repeat(17 * 1024 * 1024)) });
    } else if (name === "grow") {
      grown = true;
      send({ jsonrpc: "2.0", id, result: text("grew") });
      send({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
    } else if (name === "fork-and-exit") {
      const child = spawn("sleep", ["300"], { detached: true, stdio: "ignore" });
      child.unref();
      writeFileSync(pidFile, String(child.pid));
      send({ jsonrpc: "2.0", id, result: text("forked " + child.pid) });
      setTimeout(() => process.exit(0), 100);
    } else {
      send({ jsonrpc: "2.0", id, result: text("called " + JSON.stringify(name)) });
    }
  } else if (id !== undefined) {
    send({ jsonrpc: "2.0", id, result: {} });
  }
});
