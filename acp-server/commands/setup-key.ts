import { findProvider, knownProviderIds, type ProviderInfo } from "../../agent/index.js";
import type { SetupFlags, SetupStart } from "./setup-answers.js";
import { answer, confirm, type SetupDialog, SetupStopped } from "./setup-dialog.js";

/** What becomes of the key: one to write to .env, or where the agent will find one already (never the value). */
export interface KeyChoice {
  readonly write?: { readonly variable: string; readonly value: string };
  /** Where the key the agent will use is now, when none is written: "your environment (OPENAI_API_KEY)". */
  readonly kept?: string;
}

/**
 * The API key. From a flag (the variable named by --api-key-env, or --api-key); else, when a script gave
 * --provider, the key already set is kept and a local server goes without; else it is asked, without echo on a
 * terminal, Enter keeping the one already set. A different key already in .env is replaced only after a yes
 * (typing a new one at the question that says Enter keeps the old one is that yes; --yes gives it to a script).
 */
export async function chooseKey(
  flags: SetupFlags,
  provider: ProviderInfo,
  start: SetupStart,
  sameProvider: boolean,
  scripted: boolean,
  dialog: SetupDialog,
): Promise<KeyChoice> {
  const variable = targetVariable(provider, start.dotenv);
  const given = keyFromFlags(flags, start, dialog);
  if (given !== undefined) {
    const inFile = start.dotenv[variable]?.trim();
    if (inFile && inFile !== given && !flags.yes) {
      const replace = await confirm(dialog, `${variable} in .env already holds a different key. Replace it?`, false);
      if (!replace) return { kept: `.env (${variable}; --yes replaces it)` };
    }
    return { write: { variable, value: given } };
  }
  const existing = existingKey(provider, start, sameProvider);
  if (scripted && (existing || provider.keyOptional)) return { kept: existing };
  const typed = await answer(dialog, {
    question: existing
      ? `API key for ${provider.label} (Enter keeps the one in ${existing}): `
      : provider.keyOptional
        ? "API key, if the server wants one (Enter for none): "
        : `API key for ${provider.label} (saved in .env as ${variable}): `,
    fallback: existing || provider.keyOptional ? "" : undefined,
    secret: true,
    whenMissing: "(or pass --api-key-env VARIABLE, naming an environment variable that holds the key).",
    parse: parseKey,
  });
  return typed ? { write: { variable, value: typed } } : { kept: existing };
}

function keyFromFlags(flags: SetupFlags, start: SetupStart, dialog: SetupDialog): string | undefined {
  if (flags.apiKeyEnv !== undefined && flags.apiKey !== undefined)
    throw new SetupStopped("Give --api-key-env or --api-key, not both.", 2);
  if (flags.apiKeyEnv !== undefined) {
    const value = start.env[flags.apiKeyEnv]?.trim();
    if (!value) throw new SetupStopped(`--api-key-env ${flags.apiKeyEnv}: that variable is not set or is empty.`, 2);
    return checked(value);
  }
  if (flags.apiKey === undefined) return undefined;
  dialog.warn(
    "Warning: a key given with --api-key is now in your shell history and visible to other processes while this runs. --api-key-env VARIABLE avoids both.",
  );
  return checked(flags.apiKey.trim());
}

function checked(key: string): string {
  const parsed = parseKey(key);
  if ("problem" in parsed) throw new SetupStopped(parsed.problem, 2);
  return parsed.value;
}

function parseKey(text: string): { value: string } | { problem: string } {
  if (/[\s\p{Cc}]/u.test(text)) return { problem: "An API key has no spaces or control characters in it; try again." };
  return { value: text };
}

/**
 * The variable to write: the first of the provider's that .env already sets (GEMINI_API_KEY rather than adding
 * GOOGLE_API_KEY beside it), unless it is another provider's own (a custom endpoint never overwrites OPENAI_API_KEY);
 * else the provider's first.
 */
function targetVariable(provider: ProviderInfo, dotenv: Readonly<Record<string, string>>): string {
  const [first] = provider.keyVariables;
  const othersOwn = new Set(
    knownProviderIds()
      .map((id) => findProvider(id)!.keyVariables[0])
      .filter((v) => v !== first),
  );
  return provider.keyVariables.find((v) => dotenv[v]?.trim() && !othersOwn.has(v)) ?? first ?? "CUSTOM_API_KEY";
}

/** Where the key the agent would use now comes from, in the order the runtime resolution looks (never the value). */
function existingKey(provider: ProviderInfo, start: SetupStart, sameProvider: boolean): string | undefined {
  if (sameProvider && start.current.apiKey) return "config.yaml (model.api_key)";
  for (const variable of provider.keyVariables) {
    if (start.env[variable]?.trim()) return `your environment (${variable})`;
    if (start.dotenv[variable]?.trim()) return `.env (${variable})`;
  }
  return undefined;
}
