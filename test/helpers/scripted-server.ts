import { strict as assert } from "node:assert";
import * as acp from "@agentclientprotocol/sdk";
import { ScriptedLlm } from "../fixtures/scripted-llm.js";
import { AcpHarness, DISCARDED_HOME_ENV, serverEnv } from "./acp-harness.js";
import { hermesHomeFor, TempDirs } from "./temp-dirs.js";

/** What a test sees of the server started for it; the fields are replaced before every test. */
export interface ScriptedServer {
  readonly temp: TempDirs;
  llm: ScriptedLlm;
  harness: AcpHarness;
  home: string;
  workspace: string;
  /** Every session/request_permission the agent sent, in order (only when `permission` is given). */
  readonly permissions: acp.RequestPermissionRequest[];
}

export interface ScriptedServerOptions {
  /** config.yaml's model.default (default "scripted-model"). */
  model?: string;
  /** config.yaml text after the model block; a function when it needs the scripted LLM's URL or the workspace. */
  config?: string | ((server: ScriptedServer) => string);
  /** model.max_retries (unset: the server's default). */
  maxRetries?: number;
  /** Builds the HERMES_HOME instead of `model`/`config`/`maxRetries` (for homes with files in them). */
  makeHome?: (server: ScriptedServer) => string;
  /** The optionId answered to every permission request, or a function deciding per request ("cancel" cancels it). */
  permission?: string | (() => string);
  /**
   * The tests stop the server and start another on the same HERMES_HOME: the first one then folds its journals at
   * exit as in production. Otherwise the home is deleted after each test and the fold is skipped (DISCARDED_HOME_ENV).
   */
  restarts?: boolean;
  /** Extra environment for the server process. */
  env?: (server: ScriptedServer) => Record<string, string>;
  /** Runs once the LLM, workspace and home exist, before the server is spawned (files, scripted replies, fakes). */
  prepare?: (server: ScriptedServer) => void | Promise<void>;
  /** Whether to send initialize (default true); capabilities to send with it. */
  initialize?: boolean | acp.ClientCapabilities;
  /** Runs after the server and the LLM are closed, before the temp folders go (other fakes to stop). */
  cleanup?: () => void | Promise<void>;
  /**
   * One server and scripted LLM for all the tests of the describe, as an editor keeps one server for many sessions:
   * for tests that each open their own session and need nothing of a fresh process. Each test still gets its own
   * workspace, and starts with no recorded LLM requests, scripted replies, updates or permission requests. `prepare`
   * then runs before each test, after the server started. Saves a server's start-up and first turn per test (~1 s
   * of CPU on the 2-core machine the suite runs on).
   */
  shared?: boolean;
}

/**
 * Registers beforeEach/afterEach hooks that start a scripted LLM, a HERMES_HOME pointing at it, a workspace folder and
 * the real server over stdio, and afterwards close them and assert the server only ever wrote valid ACP.
 * Call it inside `describe`, before the file's own hooks.
 */
export function useScriptedServer(options: ScriptedServerOptions = {}): ScriptedServer {
  const server = { temp: new TempDirs(), permissions: [] as acp.RequestPermissionRequest[] } as ScriptedServer;
  if (options.shared) return useSharedServer(server, options);

  beforeEach(async () => {
    server.llm = await ScriptedLlm.start();
    server.workspace = server.temp.make("hermes-ws-");
    server.permissions.length = 0;
    server.home = homeFor(server, options);
    await options.prepare?.(server);
    await startServer(server, options, options.restarts ? {} : DISCARDED_HOME_ENV);
  });

  afterEach(async () => {
    await server.harness?.close();
    await server.llm?.close();
    await options.cleanup?.();
    assert.deepEqual(server.harness?.violations, [], "every message the agent wrote must be valid ACP");
    server.temp.cleanup();
  });

  return server;
}

function useSharedServer(server: ScriptedServer, options: ScriptedServerOptions): ScriptedServer {
  const workspaces = new TempDirs();
  before(async () => {
    server.llm = await ScriptedLlm.start();
    server.home = homeFor(server, options);
    await startServer(server, options, DISCARDED_HOME_ENV);
  });

  beforeEach(async () => {
    server.workspace = workspaces.make("hermes-ws-");
    server.permissions.length = 0;
    server.llm.reset();
    server.harness.updates.length = 0;
    await options.prepare?.(server);
  });

  afterEach(() => {
    assert.deepEqual(server.harness.violations, [], "every message the agent wrote must be valid ACP");
    workspaces.cleanup();
  });

  after(async () => {
    await server.harness?.close();
    await server.llm?.close();
    await options.cleanup?.();
    server.temp.cleanup();
  });
  return server;
}

/** The HERMES_HOME the options describe, pointing at the server's scripted LLM. */
function homeFor(server: ScriptedServer, options: ScriptedServerOptions): string {
  if (options.makeHome) return options.makeHome(server);
  const config = typeof options.config === "function" ? options.config(server) : (options.config ?? "");
  return hermesHomeFor(server.temp.make(), server.llm.baseUrl, options.model, config, options.maxRetries);
}

/** Spawns the server on `server.home` with the options' client and environment, and initializes it unless told not to. */
async function startServer(
  server: ScriptedServer,
  options: ScriptedServerOptions,
  exitEnv: Readonly<Record<string, string>>,
): Promise<void> {
  server.harness = AcpHarness.spawn(serverEnv(server.home, { ...exitEnv, ...options.env?.(server) }), {
    client: permissionClient(options.permission, server.permissions),
  });
  if (options.initialize !== false)
    await server.harness.initialize(options.initialize === true ? {} : options.initialize);
}

/** A client that records permission requests and answers them, or undefined for the harness's default client. */
function permissionClient(
  permission: ScriptedServerOptions["permission"],
  seen: acp.RequestPermissionRequest[],
): acp.ClientApp | undefined {
  if (permission === undefined) return undefined;
  return acp.client({ name: "test-client" }).onRequest("session/request_permission", async ({ params }) => {
    seen.push(params);
    const answer = typeof permission === "function" ? permission() : permission;
    return answer === "cancel"
      ? { outcome: { outcome: "cancelled" } }
      : { outcome: { outcome: "selected", optionId: answer } };
  });
}
