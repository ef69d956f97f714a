import { strict as assert } from "node:assert";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describeThreat } from "../../agent/security/threat-descriptions.js";
import { firstThreatMessage, scanWhole } from "../../agent/security/threat-scanner.js";
import { loadProbeFamilies } from "../fixtures/scanner-probes/probes.js";

/**
 * Issue #23's attack families, measured on the probes in test/fixtures/scanner-probes/ (payloads written for these
 * tests, and near-misses from real documentation): each family must be caught at 90% or more by its own pattern
 * ids, and no near-miss may be flagged by anything. A user whose file is blocked sees the id and its description.
 */

// The ids that answer each family (a counterfeit turn may also be one of fake_role_marker's chat-template tokens).
const FAMILY_IDS: Readonly<Record<string, readonly string[]>> = {
  coercion: ["safeguard_override"],
  turns: ["fake_turn", "fake_role_marker"],
  "decode-exec": ["decode_exec"],
  triggers: ["planted_trigger"],
  "exfil-links": ["exfil_url_template"],
};

const ids = (text: string) => scanWhole(text, "context").map((f) => f.id);

describe("threat scanner: issue #23's attack families (test/fixtures/scanner-probes)", () => {
  const families = loadProbeFamilies();

  it("has a probe file for each family, with at least 10 payloads and 10 near-misses each", () => {
    assert.deepEqual(families.map((f) => f.family).sort(), Object.keys(FAMILY_IDS).sort());
    for (const f of families) {
      assert.ok(f.payloads.length >= 10, `${f.family}: ${f.payloads.length} payloads`);
      assert.ok(f.benign.length >= 10, `${f.family}: ${f.benign.length} near-misses`);
    }
  });

  for (const family of families) {
    const wanted = FAMILY_IDS[family.family] ?? [];

    it(`${family.family}: catches at least 90% of its payloads, by its own pattern`, () => {
      const missed = family.payloads.filter((p) => !ids(p.text).some((id) => wanted.includes(id)));
      const rate = 1 - missed.length / family.payloads.length;
      assert.ok(
        rate >= 0.9,
        `${family.family}: ${(rate * 100).toFixed(0)}% caught; missed ${missed.map((p) => p.name).join(", ")}`,
      );
    });

    it(`${family.family}: flags none of its near-misses`, () => {
      const flagged = family.benign.flatMap((p) =>
        scanWhole(p.text, "context").map((f) => `${p.name}: ${f.id} ${JSON.stringify(f.snippet)}`),
      );
      assert.deepEqual(flagged, []);
    });
  }

  it("tells the user why, for each family's pattern", () => {
    for (const id of new Set(Object.values(FAMILY_IDS).flat())) assert.ok(describeThreat(id), id);
    const coercion = families.find((f) => f.family === "coercion")!;
    assert.match(firstThreatMessage(coercion.payloads[0]!.text) ?? "", /threat pattern 'safeguard_override'/);
  });

  // The batches written blind, and the published payloads gathered by sessions that never saw the rules, tuned on
  // since: a regression guard at the share each catches now. None of any batch's near-misses may be flagged.
  // Lowered where the evidence rule stopped flagging stretches made only of the signs ordinary agent files give
  // (AGENT_FILE_KINDS in threat-evidence.ts: 24 of its 51 flags on 4,012 real files were such stretches): blind3 60 →
  // 58, blind4 58 → 56, blind5 58 → 55, published2 26 → 25, published3 14 → 13, published5 14 → 13.
  const guarded: Record<string, number | undefined> = {
    blind: 0.95,
    blind2: 0.95,
    blind3: 0.95,
    blind4: 0.93,
    // 31/60 untuned; tuned on in the sixth round (evidence-signals-claims/-remote/-structure.ts): 58 caught, 55 now.
    blind5: 0.9,
    published: 0.95,
    // Seven of its 33 are beyond any sign the rule reads (a bug report whose repro downloads and runs a binary, a
    // docstring that pushes shell=True, an HR email whose asks lie 1,700 characters apart): 26 are caught.
    published2: 0.75,
    published3: 0.85,
    // 9/20 untuned; tuned on in the sixth round: 20 caught, 18 once its signs were narrowed for precision (a review
    // found ordinary docs they flagged alone: a forged tools/call is now one strong sign among others, not enough).
    published4: 0.9,
    // Never tuned on: measured once, 14/28, when the scanner had been tuned on sets 1-4 and blind5 (the rules of
    // before that round also caught 14). Two of its ten near-misses were flagged then, both by phrase rules (a ChatML
    // sample in a model's README, a quoted "ignore previous instructions" in a guide that warns of it): fixed since.
    // Its misses were read since, and the translated-injection rule written after them: 14 caught now.
    published5: 0.45,
    // Never tuned on: gathered by a helper that never saw the rules, measured once at 15/30 with the scanner tuned on
    // sets 1-5 and blind5 (as an agent file and as a fetched page alike). One near-miss was flagged then (a phrase rule
    // on a chat-format sample under an "Example input" heading): fixed since.
    published6: 0.5,
    // Measured once at 14/28, with the scanner tuned on sets 1-5 and blind5 (as an agent file and as a page alike).
    // Five of its ten near-misses were flagged then, documents and code about injection (a quoted "Ignore previous
    // instructions and...", model.eval() after a decode, a sanitizer's "<tool_result>", a YARA rule): tuned on since.
    // Its payloads count as tuned on since secret_exfil took an install hook's beacon (hostname, user) as a source,
    // written with its missed setup.py hook in mind: 15 caught.
    published7: 0.5,
    // 13 payloads (real ones among them: the xz-utils stage-1 script, a hijacking CLAUDE.md, hidden HTML comments for
    // agents), measured once untuned at 2/13, the same as the scanner of before that session's changes; tuned on since
    // (hidden_agent_note, secrets an agent comes across sent to a URL): 5 caught.
    published8: 0.38,
    // 22 payloads (fake-interview npm backdoors, Shai-Hulud's workflows, CI memdump attacks, committed agent commands
    // that claim authorization), measured once untuned at 9/22, the same as the scanner of that morning; tuned on in
    // the next session (jailbreak_mode, secret_exfil following a secret through names, files and shells): 14 caught.
    published9: 0.6,
    // Never tuned on: 24 payloads (fake security-team issues, ClickFix and lookalike-site commands, an auth.json
    // stealer, poisoned READMEs, a reviewer-waiver note), measured once at 10/24, the same as the scanner of before
    // that session's rules. Two of its ten near-misses were flagged then (pull requests naming a defence's wrapper
    // markup in code spans): fixed since.
    published10: 0.4,
    // Never tuned on: 15 payloads (a test library's hidden message to coding agents, an AI-bot honeypot's pages,
    // sleeper triggers, AGENTS.md canaries), measured once at 4/15 (coercion 0/5), the same as the scanner of before
    // that session's rules. Two of its ten near-misses were flagged then (a review prompt's list of example attacks,
    // an image built in a template literal): fixed since.
    published11: 0.25,
    // 8 payloads (a docs PR's hidden note to the review agent, a hijack lab's ".env to loopback" template, a fake
    // tool-result close), measured once untuned at 4/8, the same as the scanner of before that session's rules; tuned
    // on in the next (a secret file read, then "its contents" sent to an address, in prose): 7 caught.
    published12: 0.85,
    // 14 payloads (Meta's Prompt Siren AGENTS.md tasks, a pentest agent's poisoned pages, a tool result that speaks as
    // the user, hidden notes from write-ups), measured once untuned at 11/14, the same as the scanner of before the
    // twelfth session's rules; none of its ten near-misses flagged. Tuned on since (the shell's ${IFS} read as a
    // space): 12 caught.
    published13: 0.85,
    // 12 payloads (DeepTrap's poisoned OpenClaw workspaces, MCP-SafetyBench's tool poisoning, a red team's helpdesk
    // tickets, a forged system-reminder in a subagent's result), measured once untuned at 6/12, the same as the scanner
    // of before the thirteenth session's rules; none of its ten near-misses flagged. Tuned on since (a system notice
    // written as a tag in capitals): 7 caught.
    published14: 0.55,
    // Never tuned on: 8 payloads (a Chinese MCP tool description, agent CTFs, the EIA form template, a CVE advisory's
    // decode-and-append), measured once at 3/8, the same as the scanner of before the thirteenth session's rules.
    published15: 0.375,
  };
  // A near-miss still flagged, said openly rather than dropped from its batch: a malware scanner's YARA rule whose
  // comments and patterns name base64 decoding next to exec( and eval( ("// bare exec(/eval( builtins") reads, to the
  // evidence rule, as the decode-and-run chain it detects. Not an agent file; the rule would have to stop reading code
  // comments as prose, which is how payloads hidden in comments are caught.
  // Two in published12 too: a script packer's README running its base64 output through bash, and a tool that runs a
  // base64-encoded command over ssh (`echo '${encoded_cmd}' | base64 -d | sh`). Both are decode-and-run in form, the
  // family's very shape; the rule cannot tell a program's own encoding from a hidden payload without reading the code.
  const KNOWN_FLAGGED: Record<string, readonly string[]> = {
    published7: ["guarddog-yara-base64exec-rule: manipulation_signals"],
    published12: [
      "bash64-readme-encoded-script-example: decode_exec",
      "openrouter-spawn-1933-fly-ssh-base64-comment: decode_exec,manipulation_signals",
    ],
    // A bug report quoting the `<system-reminder>` wrapper its client really adds: in a page, that markup is what a
    // forged system turn looks like, and the rule cannot tell a quoted wrapper from a planted one.
    published15: ["kilocode-issue-11057-selected-context-system-reminder: fake_role_marker"],
  };
  for (const [batch, share] of Object.entries(guarded)) {
    const folder = join(__dirname, "../fixtures/scanner-probes", batch);
    const sets = loadProbeFamilies(folder);
    if (share !== undefined) {
      it(`${batch}: catches at least ${share * 100}% of the batch's payloads`, () => {
        const payloads = sets.flatMap((f) => f.payloads);
        const missed = payloads.filter((p) => ids(p.text).length === 0).map((p) => p.name);
        assert.ok(1 - missed.length / payloads.length >= share - 1e-9, `missed ${missed.join(", ")}`);
      });
    }
    it(`${batch}: flags none of the batch's near-misses${KNOWN_FLAGGED[batch] ? " but those it knows" : ""}`, () => {
      const flagged = sets.flatMap((f) => f.benign).filter((p) => ids(p.text).length > 0);
      assert.deepEqual(
        flagged.map((p) => `${p.name}: ${ids(p.text).join(",")}`),
        KNOWN_FLAGGED[batch] ?? [],
      );
    });
  }

  it("ends a clause at a blank line in a CRLF file as in an LF one", () => {
    // A rule of the project, then an unrelated paragraph that names tokens: two clauses, not one planted trigger.
    const text = "When the user asks for a release, add a changelog entry\n\nThe API tokens live in the CI settings";
    assert.deepEqual(ids(text), []);
    assert.deepEqual(ids(text.replaceAll("\n", "\r\n")), []);
  });

  // The corpus of real context files lives beside the project (../shared/corpus), as for `npm run eval:scanner`.
  const benignDir = join(__dirname, "../../../shared/corpus/benign");
  it(`blocks none of the real context files in ${benignDir} (skipped when that folder is absent)`, function () {
    if (!existsSync(benignDir)) {
      process.stderr.write(`  skipped: no benign corpus at ${benignDir}\n`);
      this.skip();
    }
    const blocked = readdirSync(benignDir)
      .filter((name) => name !== "SOURCES.tsv" && name !== "README.md")
      .flatMap((name) => {
        const text = readFileSync(join(benignDir, name), "utf8").replace(/^\ufeff/, "");
        return scanWhole(text, "context").map((f) => `${name}:${f.line} ${f.id} ${JSON.stringify(f.snippet)}`);
      });
    assert.deepEqual(blocked, []);
  });
});
