import {
  defaultModelOf,
  type Env,
  findProvider,
  isHttpUrl,
  knownProviderIds,
  listServerModels,
  type ProviderInfo,
} from "../../agent/index.js";
import { answer, type SetupDialog, SetupStopped } from "./setup-dialog.js";
import { chooseKey, type KeyChoice } from "./setup-key.js";

/** The command line of `--setup`: each flag given is a question not asked. */
export interface SetupFlags {
  readonly provider?: string;
  readonly model?: string;
  readonly baseUrl?: string;
  /** The name of an environment variable holding the key, so that the key is never on a command line. */
  readonly apiKeyEnv?: string;
  /** The key itself (it lands in shell history: a warning says so). */
  readonly apiKey?: string;
  readonly noTest: boolean;
  /** Replace a different key already in .env without asking. */
  readonly yes: boolean;
}

/** What config.yaml, .env and the environment say before the setup, offered as the answers to Enter. */
export interface SetupStart {
  readonly current: {
    readonly provider?: string;
    readonly model?: string;
    readonly baseUrl?: string;
    readonly apiKey?: string;
  };
  readonly dotenv: Readonly<Record<string, string>>;
  readonly env: Env;
}

export interface SetupAnswers {
  readonly provider: ProviderInfo;
  readonly model: string;
  /** The base URL to write; undefined leaves the provider's own. */
  readonly baseUrl: string | undefined;
  readonly key: KeyChoice;
  /** The provider differs from the one config.yaml named (its api_mode and api_key do not carry over). */
  readonly providerChanged: boolean;
}

/**
 * Gathers the answers: flags first, then questions for the rest. With --provider (a script) only what is missing and
 * has no sensible default is asked (the model of a custom endpoint, the base URL of a custom one, a required key
 * that is nowhere yet); without it the whole dialog runs, each question offering what is configured now.
 */
export async function gatherAnswers(flags: SetupFlags, start: SetupStart, dialog: SetupDialog): Promise<SetupAnswers> {
  const scripted = flags.provider !== undefined;
  const provider = flags.provider === undefined ? await askProvider(start, dialog) : providerOf(flags.provider);
  const same = start.current.provider !== undefined && findProvider(start.current.provider)?.id === provider.id;
  const baseUrl = await chooseBaseUrl(flags, provider, same ? start.current.baseUrl : undefined, scripted, dialog);
  const configured = same ? start.current.model : undefined;
  const model = await chooseModel(flags, provider, baseUrl ?? provider.baseUrl, configured, scripted, dialog);
  const key = await chooseKey(flags, provider, start, same, scripted, dialog);
  return { provider, model, baseUrl, key, providerChanged: !same };
}

/**
 * The model: --model, else a question offering the configured one or the provider's suggestion. A local server is
 * asked which models it has, and its names are shown and offered instead of a name it may not have.
 */
async function chooseModel(
  flags: SetupFlags,
  provider: ProviderInfo,
  endpoint: string,
  configured: string | undefined,
  scripted: boolean,
  dialog: SetupDialog,
): Promise<string> {
  const given = flags.model?.trim();
  if (given) return given;
  let suggested = configured ?? defaultModelOf(provider.id);
  const offered = provider.keyOptional && endpoint ? await listServerModels(endpoint) : [];
  if (offered.length > 0) {
    if (!scripted)
      dialog.say(`${endpoint} serves: ${offered.slice(0, 12).join(", ")}${offered.length > 12 ? ", ..." : ""}`);
    // Ollama names a pulled model "llama3.1:latest": the suggestion "llama3.1" is that model.
    suggested = offered.find((m) => m === suggested || m === `${suggested}:latest`) ?? offered[0];
  }
  if (scripted && suggested) return suggested;
  return answer(dialog, {
    question: suggested ? `Model [${suggested}]: ` : "Model (the name the server knows it by): ",
    fallback: suggested,
    whenMissing: "(give --model).",
    parse: (text) => ({ value: text }),
  });
}

function providerOf(name: string): ProviderInfo {
  const provider = findProvider(name);
  if (!provider)
    throw new SetupStopped(`Unknown provider '${name}'. Known providers: ${knownProviderIds().join(", ")}.`, 2);
  return provider;
}

async function askProvider(start: SetupStart, dialog: SetupDialog): Promise<ProviderInfo> {
  const providers = knownProviderIds().map((id) => findProvider(id)!);
  const current = start.current.provider ? findProvider(start.current.provider) : undefined;
  const fallback = current ?? providers[0]!;
  dialog.say("Providers:");
  providers.forEach((p, i) => dialog.say(`  ${String(i + 1).padStart(2)}  ${p.label} (${p.id})`));
  return answer<ProviderInfo>(dialog, {
    question: `Provider, by number or name [${fallback.id}]: `,
    fallback,
    whenMissing: "(give --provider).",
    parse: (text) => {
      const chosen = /^\d+$/.test(text) ? providers[Number(text) - 1] : findProvider(text);
      return chosen
        ? { value: chosen }
        : { problem: `Not a provider: '${text}'. Give a number from the list or a name.` };
    },
  });
}

/**
 * The endpoint. Cloud providers have theirs (a --base-url overrides it: a proxy, a gateway); local servers are asked,
 * their usual address offered; a custom endpoint must be given. The provider's own URL is not written out.
 */
async function chooseBaseUrl(
  flags: SetupFlags,
  provider: ProviderInfo,
  configured: string | undefined,
  scripted: boolean,
  dialog: SetupDialog,
): Promise<string | undefined> {
  let url = flags.baseUrl?.trim();
  if (url !== undefined && !isHttpUrl(url))
    throw new SetupStopped(`--base-url must be an http(s) URL, not '${url}'.`, 2);
  const offered = configured ?? (provider.baseUrl || undefined);
  if (url === undefined && provider.keyOptional && !(scripted && offered)) {
    url = await answer(dialog, {
      question: offered
        ? `Base URL of the server [${offered}]: `
        : "Base URL of the server (e.g. http://127.0.0.1:8080/v1): ",
      fallback: offered,
      whenMissing: "(give --base-url).",
      parse: (text) => (isHttpUrl(text) ? { value: text } : { problem: `Not an http(s) URL: '${text}'.` }),
    });
  }
  url ??= configured;
  return url === provider.baseUrl ? undefined : url;
}
