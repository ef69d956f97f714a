import { parseArgs } from "node:util";
import { createStderrLogger } from "./rpc/log.js";
import { HERMES_ACP_VERSION } from "./rpc/version.js";

const USAGE = `hermes-acp ${HERMES_ACP_VERSION}: Hermes Agent over the Agent Client Protocol (stdio)

Usage:
  hermes-acp                 serve ACP on stdin/stdout (what Zed, JetBrains and VS Code run)
  hermes-acp chat "prompt"   run one turn in the current directory and print the reply
  hermes-acp context [dir]   show which context files a session in dir loads, shadows, blocks or truncates
                             (--json for machine-readable output)
  hermes-acp --check         show the configuration in use and whether a model is reachable with it
  hermes-acp --version       print the version

Options:
  --verbose                  more logging (always on stderr)
  -h, --help                 this text

Configuration lives in $HERMES_HOME (default ~/.hermes): config.yaml, .env, SOUL.md, memories/.
`;

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        version: { type: "boolean" },
        check: { type: "boolean" },
        verbose: { type: "boolean" },
        json: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (error) {
    process.stderr.write(`hermes-acp: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const log = createStderrLogger(values.verbose === true);
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (values.version) {
    process.stdout.write(`hermes-acp ${HERMES_ACP_VERSION}\n`);
    return 0;
  }
  if (values.check) {
    const { runCheck } = await import("./commands/check.js");
    return runCheck(process.env, (line) => process.stdout.write(`${line}\n`));
  }
  const [command, ...rest] = positionals;
  if (command === "chat") {
    const prompt = rest.join(" ").trim();
    if (!prompt) {
      process.stderr.write('hermes-acp: chat needs a prompt, e.g. hermes-acp chat "explain this project"\n');
      return 2;
    }
    const { runChat } = await import("./commands/chat.js");
    return runChat(prompt, process.cwd(), log, {
      writeReply: (text) => process.stdout.write(text),
      writeNote: (text) => process.stderr.write(text),
    });
  }
  if (command === "context") {
    const { runContext } = await import("./commands/context.js");
    return runContext(rest[0], values.json === true, process.env, (text) => process.stdout.write(text));
  }
  if (command !== undefined) {
    process.stderr.write(`hermes-acp: unknown command '${command}'\n\n${USAGE}`);
    return 2;
  }
  const { serveStdio } = await import("./rpc/serve-stdio.js");
  await serveStdio(log);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`hermes-acp: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
