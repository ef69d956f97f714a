import {
  assertConfigEditable,
  ConfigError,
  configPathOf,
  dotenvPathOf,
  type Env,
  loadHermesConfig,
  probeModel,
  readDotenvValues,
  redactSecrets,
  resolveHermesHome,
  resolveRuntimeProvider,
  setDotenvValue,
  writeModelChoice,
} from "../../agent/index.js";
import { rememberSecret } from "../../agent/index-redaction.js";
import { gatherAnswers, type SetupAnswers, type SetupFlags, type SetupStart } from "./setup-answers.js";
import { type SetupDialog, SetupStopped } from "./setup-dialog.js";
import { createPrompter, type Prompter } from "./setup-prompter.js";

export type { SetupFlags } from "./setup-answers.js";

export interface SetupIo {
  /** Where answers come from: a terminal, or lines piped in. */
  readonly input: NodeJS.ReadableStream & { readonly isTTY?: boolean };
  readonly output: NodeJS.WritableStream;
  readonly warn: (line: string) => void;
}

/**
 * `hermes-editor --setup`, also what an editor runs in a terminal for the ACP Registry's "terminal" sign-in: a
 * provider, a model, a key and, for a local server, its URL, written to HERMES_HOME (the key to .env, mode 0600; the
 * rest to config.yaml, comments kept), then one test call to the model with a verdict. Flags answer questions
 * before they are asked. Returns the exit status: 0 when the model answered (or the test was skipped), 1 when it did
 * not or nothing could be written, 2 for a usage problem. No line it writes contains a key, not even a part of one.
 */
export async function runSetup(flags: SetupFlags, env: Env, io: SetupIo): Promise<number> {
  let prompter: Prompter | undefined;
  const say = (line: string): void => void io.output.write(`${redactSecrets(line)}\n`);
  const dialog: SetupDialog = {
    ask: (question, options) => {
      prompter ??= createPrompter(io.input, io.output, () => {
        io.output.write("\nSetup cancelled.\n");
        process.exit(130);
      });
      return prompter.ask(question, options);
    },
    say,
    warn: (line) => io.warn(redactSecrets(line)),
  };
  try {
    const home = resolveHermesHome(env);
    const start = startingPoint(home, env, dialog);
    const answers = await gatherAnswers(flags, start, dialog);
    prompter?.close();
    save(home, answers, say);
    if (flags.noTest) {
      say("Skipped the test call (--no-test). hermes-editor --check shows the settings in use.");
      return 0;
    }
    return await testCall(env, answers, say);
  } catch (error) {
    if (error instanceof SetupStopped) {
      dialog.warn(error.message);
      return error.exitCode;
    }
    if (error instanceof ConfigError) {
      dialog.warn(`${error.message}\nNothing was written: fix that line, then run the setup again.`);
      return 1;
    }
    throw error;
  } finally {
    prompter?.close();
  }
}

/**
 * What is configured now. A config.yaml that does not parse stops the setup before any question (it could not be
 * edited without losing what it says); one that parses but names, say, an unknown provider is what the setup fixes.
 */
function startingPoint(home: string, env: Env, dialog: SetupDialog): SetupStart {
  assertConfigEditable(configPathOf(home));
  const dotenv = readDotenvValues(dotenvPathOf(home));
  try {
    return { current: loadHermesConfig(env).model, dotenv, env };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    dialog.say(`The model settings now in config.yaml are not usable (${error.message}); the setup replaces them.`);
    return { current: {}, dotenv, env };
  }
}

function save(home: string, answers: SetupAnswers, say: (line: string) => void): void {
  const { provider, model, baseUrl, key } = answers;
  if (key.write) {
    rememberSecret(key.write.variable, key.write.value);
    setDotenvValue(dotenvPathOf(home), key.write.variable, key.write.value);
    say(`Saved the key as ${key.write.variable} in ${dotenvPathOf(home)} (readable by you only).`);
  } else {
    say(key.kept ? `Key: the one in ${key.kept}.` : "Key: none.");
  }
  const removed = writeModelChoice(configPathOf(home), {
    provider: provider.id,
    model,
    baseUrl,
    dropApiMode: answers.providerChanged,
    // A key in config.yaml wins over .env: it must not shadow the new one, nor go to another provider.
    dropApiKey: answers.providerChanged || key.write !== undefined,
  });
  say(
    `Saved in ${configPathOf(home)}: provider ${provider.id}, model ${model}${baseUrl ? `, base_url ${baseUrl}` : ""}.`,
  );
  if (removed.length > 0) say(`Removed from config.yaml: ${removed.join(", ")} (left from the previous setup).`);
}

/** One request through exactly the configuration the agent will load, with a verdict a user can act on. */
async function testCall(env: Env, answers: SetupAnswers, say: (line: string) => void): Promise<number> {
  const config = loadHermesConfig(env);
  const resolution = resolveRuntimeProvider(config.model, config.env, config.configPath);
  if (!resolution.ok) {
    say(`Not ready: ${resolution.problem}`);
    return 1;
  }
  const runtime = resolution.runtime;
  const written = answers.key.write?.variable;
  if (written && runtime.keySource !== written)
    say(`Note: the agent uses the key in ${runtime.keySource}, which wins over ${written} in .env.`);
  say(`Testing: one short request to ${runtime.model} at ${runtime.baseUrl} ...`);
  const result = await probeModel(runtime);
  if (result.ok) {
    const reply = result.reply.split("\n")[0]!.slice(0, 80);
    say(`Works: ${runtime.model} answered${reply ? ` "${reply}"` : " (with no text)"}.`);
    return 0;
  }
  say(`Failed: ${result.verdict}`);
  say("The settings are saved: correct what is wrong with hermes-editor --setup (or edit the files), then try again.");
  return 1;
}
