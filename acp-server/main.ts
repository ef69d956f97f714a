import { parseArgs } from "node:util";
import { createStderrLogger } from "./rpc/log.js";
import { HERMES_ACP_VERSION } from "./rpc/version.js";

const USAGE = `hermes-editor ${HERMES_ACP_VERSION}: Hermes Agent over the Agent Client Protocol (stdio)

Usage:
  hermes-editor              serve ACP on stdin/stdout (what Zed, JetBrains and VS Code run)
  hermes-editor chat "prompt"
                             run one turn in the current directory and print the reply
  hermes-editor context [dir]
                             show which context files a session in dir loads, shadows, blocks or truncates
                             (--json for machine-readable output)
  hermes-editor --setup      choose a provider, a model and a key (asked, or given as flags below), save them in
                             $HERMES_HOME and test them with one call to the model
  hermes-editor --check      show the configuration in use and whether a model is reachable with it
  hermes-editor --version    print the version

Setup flags (each answers a question; a script that gives --provider is asked only what has no default):
  --provider NAME            openrouter, openai, anthropic, gemini, deepseek, ollama, custom... (see --setup's list)
  --model NAME               the model, e.g. anthropic/claude-sonnet-4 (default: one suggested per provider)
  --base-url URL             an OpenAI-compatible endpoint: a local server (Ollama, vLLM, LM Studio) or a proxy
  --api-key-env VARIABLE     take the key from this environment variable (it never has to be on a command line)
  --api-key KEY              the key itself (warned against: it stays in your shell history)
  --yes, -y                  replace a different key already in $HERMES_HOME/.env without asking
  --no-test                  save without the test call

Options:
  --verbose                  more logging (always on stderr)
  -h, --help                 this text

Configuration lives in $HERMES_HOME (default ~/.hermes): config.yaml, .env, SOUL.md, memories/.
`;

const SETUP_OPTIONS = {
  provider: { type: "string" },
  model: { type: "string" },
  "base-url": { type: "string" },
  "api-key-env": { type: "string" },
  "api-key": { type: "string" },
  yes: { type: "boolean", short: "y" },
  "no-test": { type: "boolean" },
} as const;

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        version: { type: "boolean" },
        check: { type: "boolean" },
        setup: { type: "boolean" },
        ...SETUP_OPTIONS,
        verbose: { type: "boolean" },
        json: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (error) {
    process.stderr.write(`hermes-editor: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const log = createStderrLogger(values.verbose === true);
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (values.version) {
    process.stdout.write(`hermes-editor ${HERMES_ACP_VERSION}\n`);
    return 0;
  }
  const setupFlagGiven = Object.keys(SETUP_OPTIONS).find((name) => name in values);
  if (setupFlagGiven && !values.setup) {
    process.stderr.write(`hermes-editor: --${setupFlagGiven} is a flag of --setup\n\n${USAGE}`);
    return 2;
  }
  if (values.setup) {
    const { runSetup } = await import("./commands/setup.js");
    return runSetup(
      {
        provider: values.provider,
        model: values.model,
        baseUrl: values["base-url"],
        apiKeyEnv: values["api-key-env"],
        apiKey: values["api-key"],
        noTest: values["no-test"] === true,
        yes: values.yes === true,
      },
      process.env,
      { input: process.stdin, output: process.stdout, warn: (line) => process.stderr.write(`${line}\n`) },
    );
  }
  if (values.check) {
    const { runCheck } = await import("./commands/check.js");
    return runCheck(process.env, (line) => process.stdout.write(`${line}\n`));
  }
  const [command, ...rest] = positionals;
  if (command === "chat") {
    const prompt = rest.join(" ").trim();
    if (!prompt) {
      process.stderr.write('hermes-editor: chat needs a prompt, e.g. hermes-editor chat "explain this project"\n');
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
    process.stderr.write(`hermes-editor: unknown command '${command}'\n\n${USAGE}`);
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
    process.stderr.write(`hermes-editor: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
