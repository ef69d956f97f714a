import { BULK_READ, CREDENTIAL_FILE, presentedAt, SOURCE_WORDS, secretReadsIn } from "./exfil-sources.js";
import { stretchEnd, type Taint, taintOf } from "./exfil-taint.js";
import type { TextView } from "./python-regex.js";
import type { Detector, Hit, ThreatScope } from "./threat-patterns.js";

/**
 * Code that sends secrets out (issue #23, exfiltration): a secret read from the environment, a credential file, a
 * memory dump or a workflow's secrets (exfil-sources.ts), then put into a request — in its URL, its query or its body
 * — or into a curl, wget or nc line, directly, through the names and files it was passed on to (exfil-taint.ts), or
 * piped. Published supply-chain samples do it in every wording and language (`requests.get("https://…/" +
 * self.secret)`, `h.get(\`https://…?d=${d}\`)` after `d = …process.env…`, `curl "…?q=$output"` after a memory dump
 * grepped for tokens), so the rule follows the value instead of the words. A key sent in a header to its own API
 * (`headers={"Authorization": …}`) or in a field named for it (`client_secret: …`) is how every SDK example
 * authenticates, and is not counted (presentedAt).
 */

// A request: Python's requests and urllib, Node's http(s), fetch, axios and the like.
const REQUEST =
  /(?:(?<![\w$.])(?:requests|httpx|session)\.(?:get|post|put|patch|request)|(?<![\w$.])urlopen|urllib\.request\.Request|(?<![\w$.])(?:https?|axios|got|superagent|needle|h)\.(?:get|post|put|request)|(?<![\w$.])(?:fetch|axios)|(?<![\w$.])http\.(?:Get|Post|PostForm|Head|NewRequest(?:WithContext)?)|(?<![\w$.])\w*[Cc]lient\.(?:Get|Post|PostForm)|Net::HTTP\.(?:post|get|post_form|get_response)|\.(?:sendall|sendto)|(?<![\w$.])(?:Invoke-WebRequest|Invoke-RestMethod))\s*\(/g;
/** The end of a call's arguments, from just after its "(" to the matching ")" (at most MAX_ARGS characters). */
const MAX_ARGS = 800;
const argumentsEnd = (text: string, open: number) =>
  stretchEnd(text, open, MAX_ARGS, (c, depth) => depth === 0 && c === ")");

// A command that sends over the network, to the end of its line (a `\` continues it): curl, wget, netcat, PowerShell.
const NET_COMMAND =
  /(?:^|[\s;|&(`"'])(?:curl|wget|nc|ncat|Invoke-WebRequest|Invoke-RestMethod|iwr|irm)\s(?:[^\n]|\\\n){0,1000}/gi;
// Where a command's argument carries data: after -d / --data… / -F / --form / --json, or in a URL's query.
const DATA_SLOT =
  /(?:(?:^|\s)(?:-d|--data(?:-\w+)?|-F|--form|--json|--post-data|--body-data|-Body)\s*[=\s]\s*["']?[^\s"']{0,200}|\?[^\s"'#]{0,300})$/;
// A file sent: `--upload-file f`, `-T f`, `-d @f`, `-F x=@f`, `--post-file=f`.
const FILE_SENT =
  /(?:--upload-file|-T|--post-file|--body-file|-InFile)[=\s]+["']?([\w./~$-]{1,200})|@([\w./~$-]{1,200})/g;
// Where a command writes a file or takes its own login and certificates from: not a file it sends.
const WRITTEN_TO =
  /(?:-o|-O|--output|--output-document|--netrc-file|--cert|--key|--cacert|--config|-K|>>?)[=\s]\s*["']?$/;
// A secret in bulk piped into a command that sends it: `env | curl -d @- …`, `cat ~/.aws/credentials | nc host 80`.
const PIPED_OUT = /\|\s*(?:base64\s[^|\n]{0,40}\|\s*)?(?:curl|nc|ncat|wget)\s/;

class SecretToNetworkRule implements Detector {
  readonly id = "secret_exfil";
  readonly scope: ThreatScope = "context";
  readonly requires: ReadonlyArray<readonly string[]> = [
    SOURCE_WORDS,
    ["(", "curl", "wget", "nc ", "ncat", "invoke-", "iwr", "irm"],
  ];
  readonly starts = undefined;

  find(text: string, _at?: readonly number[], _view?: TextView): Hit | undefined {
    // Where data could leave first: most texts send nothing, and then their assignments need no reading.
    if (text.search(REQUEST) < 0 && text.search(NET_COMMAND) < 0) return undefined;
    // Then where a secret is read: a text that reads none (a README's install line) has no names to follow.
    if (text.search(BULK_READ) < 0 && secretReadsIn(text).next().done) return undefined;
    const taint = taintOf(text);
    return this.inRequestCall(text, taint) ?? this.inNetCommand(text, taint);
  }

  /** A request call of code whose arguments hold a secret, not where a key is presented to its own API. */
  private inRequestCall(text: string, taint: Taint): Hit | undefined {
    for (const call of text.matchAll(REQUEST)) {
      const start = call.index + call[0].length;
      const end = argumentsEnd(text, start);
      if (sentOutsideHeaders(text, start, end, taint)) return { index: call.index, end };
    }
    return undefined;
  }

  /**
   * A shell command that sends a secret: one in bulk anywhere in it (or a file it was written to, or piped into it),
   * one secret only where data goes (a form field, a body, a query) and not in a header, a login or a URL's path (a
   * bot token in `https://api.telegram.org/bot$TOKEN/…` is how that API is called).
   */
  private inNetCommand(text: string, taint: Taint): Hit | undefined {
    for (const command of text.matchAll(NET_COMMAND)) {
      const start = command.index;
      const end = start + command[0].length;
      const hit = { index: start, end };
      // A secret in bulk anywhere in it, one where data goes (sentOutsideHeaders), or a file one was written to.
      if (sentOutsideHeaders(text, start, end, taint, DATA_SLOT)) return hit;
      for (const m of command[0].matchAll(FILE_SENT)) if (taint.files.has((m[1] ?? m[2])!)) return hit;
      const lineStart = text.lastIndexOf("\n", start) + 1;
      const piped = PIPED_OUT.test(text.slice(lineStart, start + 8));
      if (piped && taint.usesIn(lineStart, start).some((u) => u.strength === "bulk")) return hit;
    }
    return undefined;
  }

  regexesFor(): readonly RegExp[] {
    return [REQUEST, NET_COMMAND, DATA_SLOT, FILE_SENT, PIPED_OUT, WRITTEN_TO];
  }
}

/**
 * Whether text[from, to) sends a secret: any in bulk, or one that is not presented to its own service (presentedAt)
 * and, with `slot`, stands where data goes (tested on at most SLOT_LOOKBACK characters before it).
 */
function sentOutsideHeaders(text: string, from: number, to: number, taint: Taint, slot?: RegExp): boolean {
  return taint.usesIn(from, to).some((use) => {
    if (use.strength === "bulk") return !writtenTo(text, from, use.index);
    if (presentedAt(text, from, use.index, use.source)) return false;
    return !slot || slot.test(text.slice(Math.max(from, use.index - SLOT_LOOKBACK), use.index));
  });
}

const SLOT_LOOKBACK = 320;

/** A credential file a command writes or reads its own settings from (`-o ~/.kube/config`, `>> ~/.ssh/…`). */
function writtenTo(text: string, from: number, index: number): boolean {
  return (
    CREDENTIAL_FILE.test(text.slice(index, index + 200)) &&
    WRITTEN_TO.test(text.slice(Math.max(from, index - 40), index))
  );
}

export const EXFIL_CODE_PATTERNS: readonly Detector[] = [new SecretToNetworkRule()];
