// pi's RpcClient runs `node <cliPath> --mode rpc …`; this stand-in runs agentd's jar instead,
// with the same arguments and stdio, and passes SIGTERM on so the daemon shuts down in order.
import { spawn } from "node:child_process";

const jar = process.env.AGENTD_JAR;
const child = spawn(process.env.AGENTD_JAVA || "java", ["-jar", jar, ...process.argv.slice(2)], {
  stdio: "inherit",
});
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.on(signal, () => child.kill(signal));
}
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
