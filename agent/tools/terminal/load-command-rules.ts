/**
 * The command rules (the gate, its patterns and judges, the shell lexer, the read-only classifier: ~65 KB) load
 * with a session's first command, not with the engine: session/new does not need them, and compiling them there
 * cost it several milliseconds.
 */
export async function loadCommandRules() {
  const [{ gateCommand }, { isReadOnlyCommand }] = await Promise.all([
    import("../safety/command-gate.js"),
    import("../safety/command-readonly.js"),
  ]);
  return { gateCommand, isReadOnlyCommand };
}
