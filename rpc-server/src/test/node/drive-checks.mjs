// What every Node driver of the ITs shares: the checks it reports on its last stdout line as
// {"checks":[{name, ok, detail}]}, a bounded wait for a condition, and a step whose exception is a
// failed check instead of the end of the run.
export const checks = [];

export function check(name, ok, detail) {
  checks.push({ name, ok: !!ok, detail: ok ? undefined : detail });
}

// A request agentd sent before answering may still be in the SDK's hands when the answer resolves
// (its handlers run asynchronously): wait for it, within a bound.
export async function eventually(predicate, ms = 10000) {
  const deadline = Date.now() + ms;
  while (!predicate() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  return predicate();
}

export async function attempt(name, fn) {
  try {
    await fn();
  } catch (e) {
    check(name, false, String(e?.stack || e));
  }
}

export function report() {
  console.log(JSON.stringify({ checks }));
}
