import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { ValidateFunction } from "ajv";
import Ajv2020 from "ajv/dist/2020.js";

// The JSON Schema the ACP SDK ships: the receiving SDK silently drops or strips invalid messages, so tests check
// every message the agent sends against it instead of trusting that "something arrived".
const requireHere = createRequire(__filename);
const schemaPath = requireHere.resolve("@agentclientprotocol/sdk/schema/v1/schema.json");
const ajv = new Ajv2020({ strict: false, logger: false, allErrors: true });
ajv.addSchema(JSON.parse(readFileSync(schemaPath, "utf8")), "acp");

const cache = new Map<string, ValidateFunction>();

export function validatorFor(definition: string): ValidateFunction {
  let validate = cache.get(definition);
  if (!validate) {
    validate = ajv.getSchema(`acp#/$defs/${definition}`);
    if (!validate) throw new Error(`no $def ${definition} in the ACP schema`);
    cache.set(definition, validate);
  }
  return validate;
}

/** Agent → client requests and notifications, by method, and the result type of each client → agent request. */
export const AGENT_MESSAGE_PARAMS: Readonly<Record<string, string>> = {
  "session/update": "SessionNotification",
  "session/request_permission": "RequestPermissionRequest",
  "fs/read_text_file": "ReadTextFileRequest",
  "fs/write_text_file": "WriteTextFileRequest",
  "terminal/create": "CreateTerminalRequest",
  "terminal/output": "TerminalOutputRequest",
  "terminal/wait_for_exit": "WaitForTerminalExitRequest",
  "terminal/kill": "KillTerminalRequest",
  "terminal/release": "ReleaseTerminalRequest",
};

export const AGENT_RESULT_TYPES: Readonly<Record<string, string>> = {
  initialize: "InitializeResponse",
  authenticate: "AuthenticateResponse",
  "session/new": "NewSessionResponse",
  "session/load": "LoadSessionResponse",
  "session/list": "ListSessionsResponse",
  "session/resume": "ResumeSessionResponse",
  "session/close": "CloseSessionResponse",
  "session/delete": "DeleteSessionResponse",
  "session/set_mode": "SetSessionModeResponse",
  "session/set_config_option": "SetSessionConfigOptionResponse",
  "session/prompt": "PromptResponse",
  // Our extension methods: any JSON result is a valid ExtResponse; their shape is asserted by their tests.
  "_hermes/checkpoint/preview": "ExtResponse",
  "_hermes/checkpoint/restore": "ExtResponse",
};

/** Checks one message the agent wrote; `methodOfId` tells which request a response answers. Returns problems. */
export function checkAgentMessage(message: unknown, methodOfId: (id: unknown) => string | undefined): string[] {
  const m = message as {
    jsonrpc?: string;
    id?: unknown;
    method?: string;
    params?: unknown;
    result?: unknown;
    error?: unknown;
  };
  const problems: string[] = [];
  if (m.jsonrpc !== "2.0") problems.push(`not JSON-RPC 2.0: ${JSON.stringify(message).slice(0, 200)}`);
  const check = (definition: string, value: unknown, what: string) => {
    const validate = validatorFor(definition);
    if (!validate(value ?? null))
      problems.push(
        `${what} is not a valid ${definition}: ${ajvErrors(validate)} in ${JSON.stringify(value).slice(0, 300)}`,
      );
  };
  if (m.method !== undefined) {
    const definition = AGENT_MESSAGE_PARAMS[m.method];
    if (!definition) problems.push(`agent sent unknown method ${m.method}`);
    else check(definition, m.params, m.method);
  } else if (m.error !== undefined) {
    check("Error", m.error, "error response");
  } else {
    const method = methodOfId(m.id);
    const definition = method ? AGENT_RESULT_TYPES[method] : undefined;
    if (!definition) problems.push(`response to unknown request id ${JSON.stringify(m.id)}`);
    else check(definition, m.result, `result of ${method}`);
  }
  return problems;
}

function ajvErrors(validate: ValidateFunction): string {
  return (validate.errors ?? [])
    .slice(0, 3)
    .map((e) => `${e.instancePath || "/"} ${e.message}`)
    .join("; ");
}
