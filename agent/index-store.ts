/**
 * A side entry of the front door (index.ts): the session store (sql.js, search, journals). A front end loads it with
 * `import()` after the session/new reply, so opening the store never delays that reply; re-exported as a value from
 * index.ts it would be loaded with the engine, before the reply (measured: +22 ms on session/new right after
 * initialize).
 */
export { SessionStore } from "./store/session-store.js";
