import type { McpServer } from "@agentclientprotocol/sdk";
import {
  ConfigError,
  type ConfigProblem,
  type Env,
  formatConfigProblem,
  loadHermesConfig,
  type McpServerSettings,
  readMcpServerSettings,
  type Tool,
} from "../../agent/index.js";
import type { McpConnectedServer, McpServerFailure, McpServerSpec } from "../../agent/index-mcp.js";
import type { Logger } from "../rpc/log.js";
import type { StartupNotice } from "../updates/startup-notices.js";

/** One start of a session's MCP servers: config.yaml's `mcp_servers` merged with the editor's list from session/new. */
export interface McpServerSet {
  readonly tools: readonly Tool[];
  readonly servers: readonly McpConnectedServer[];
  readonly failures: readonly McpServerFailure[];
  /** config.yaml entries that could not start as written, `${VAR}`s without a value. */
  readonly problems: readonly StartupNotice[];
  /** What the user must hear: the problems, then the servers that did not start. */
  readonly notices: readonly StartupNotice[];
  /** config.yaml entries with `enabled: false`. */
  readonly disabled: readonly string[];
  /** Stops these servers. Safe to call more than once. */
  close(): Promise<void>;
}

/**
 * A session's MCP servers for its whole life: the set running now, which `/reload-mcp` replaces with a fresh start
 * (turn/mcp-reload.ts). The session reads `tools` when it (re)opens its conversation and calls `close` when it ends.
 */
export class SessionMcp {
  private constructor(
    private set: McpServerSet,
    private readonly start: () => Promise<McpServerSet>,
  ) {}

  static async open(env: Env, log: Logger, cwd: string, editorServers: readonly McpServer[]): Promise<SessionMcp> {
    const start = () => startServerSet(env, log, cwd, editorServers);
    return new SessionMcp(await start(), start);
  }

  get current(): McpServerSet {
    return this.set;
  }

  get tools(): readonly Tool[] {
    return this.set.tools;
  }

  get notices(): readonly StartupNotice[] {
    return this.set.notices;
  }

  /** Starts the servers afresh, from config.yaml as it is now and the same editor list; the running set stays up. */
  startAfresh(): Promise<McpServerSet> {
    return this.start();
  }

  /** Makes `next` the session's set; returns the one it replaces, for the caller to close. */
  swap(next: McpServerSet): McpServerSet {
    const old = this.set;
    this.set = next;
    return old;
  }

  close(): Promise<void> {
    return this.set.close();
  }
}

/**
 * Starts the servers: config.yaml's (read afresh) and the editor's; the editor's entry wins a name clash, since it is
 * the one given for this session. Nothing here fails the session: a bad entry, a server that does not start or a
 * broken config.yaml (which session/new reports itself) become notices. Without any server, the MCP client is not
 * even loaded.
 */
async function startServerSet(
  env: Env,
  log: Logger,
  cwd: string,
  editorServers: readonly McpServer[],
): Promise<McpServerSet> {
  const configured = readConfigured(env, cwd);
  const problems = configNotices(configured);
  for (const notice of problems) log.warn(`${notice.title}: ${notice.description}`);
  const editorNames = new Set(editorServers.map((s) => s.name));
  const fromConfig = configured.servers.filter((server) => {
    if (!editorNames.has(server.name)) return true;
    log.debug(`MCP server ${server.name} is in config.yaml and in the editor's list: the editor's entry is used`);
    return false;
  });
  const servers: McpServerSpec[] = [...fromConfig, ...editorServers];
  const disabled = configured.disabled;
  if (servers.length === 0)
    return { tools: [], servers: [], failures: [], problems, notices: problems, disabled, close: async () => {} };

  const { connectMcpServers } = await import("../../agent/index-mcp.js");
  const connections = await connectMcpServers(servers, { cwd, log: (line) => log.debug(`mcp: ${line}`) });
  for (const f of connections.failures) log.warn(`MCP server ${f.server} failed: ${f.message}`);
  const failed = connections.failures.map((f) => ({
    title: `MCP server ${f.server} did not start`,
    description: `${f.message.replace(/(?<![.!?])$/, ".")} Its tools are not available in this session.`,
  }));
  return {
    tools: connections.tools,
    servers: connections.servers,
    failures: connections.failures,
    problems,
    notices: [...problems, ...failed],
    disabled,
    close: () => connections.close(),
  };
}

/** config.yaml's servers; a config.yaml that cannot be read is one problem (session/new reports it as an error). */
function readConfigured(env: Env, cwd: string): McpServerSettings {
  try {
    const config = loadHermesConfig(env);
    return readMcpServerSettings(config.yaml, config.env, cwd);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return { servers: [], disabled: [], problems: [error.problem], unsetVariables: [] };
  }
}

function configNotices(settings: McpServerSettings): StartupNotice[] {
  const problem = (p: ConfigProblem) => ({
    title: "MCP server entry not started",
    description: `${formatConfigProblem(p)}. Fix it in config.yaml, then run /reload-mcp.`,
  });
  const unset = settings.unsetVariables.map(({ server, variables }) => ({
    title: `MCP server ${server}: ${variables.map((v) => `\${${v}}`).join(", ")} not set`,
    description: `${variables.length === 1 ? "This variable has" : "These variables have"} no value in the environment or HERMES_HOME/.env, so the server got the placeholder as written.`,
  }));
  return [...settings.problems.map(problem), ...unset];
}
