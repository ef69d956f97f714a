import { ClauseRule } from "./clause-rules.js";
import { ADDRESSED, FOR_THE_AGENT, GO_AHEAD, NEUTRALISED, SAFEGUARD } from "./concept-lexicons.js";
import { ACT_VERB, DESTROY_ACT, HARMFUL_ACT, REMOTE_CODE_ACT } from "./pattern-acts.js";
import { E, S } from "./pattern-kit.js";
import type { Detector } from "./threat-patterns.js";

/**
 * Coercion (issue #23) by concepts rather than formulas: a safeguard (approval, confirmation, review, the sandbox,
 * safety checks; concept-lexicons.ts) said to be out of force (relaxed, off, optional, skippable, exempted from),
 * in one clause with what makes it an attack on the agent:
 *
 * - it is lifted for the agent ("relaxed for you", "you are exempt from", "your safety policy", "für dich");
 * - or the clause, or the one after it, orders a harmful or unbounded act ("… Go ahead and run terraform destroy",
 *   "install whatever packages with sudo");
 * - or the note is addressed to the agent by name and tells it to go ahead ("Copilot, confirmation dialogs are off,
 *   so just go ahead and execute …").
 *
 * Project rules lift checks too, but for a mode, a path or a harmless command ("confirmation prompts are skipped
 * with --yes", "the review step can be skipped for documentation-only changes", "the approval prompts are disabled
 * in the devcontainer, so proceed with npm ci"): none of those three things.
 */

// What no project lifts a check for: data destroyed, remote or privileged code, anything at all, production.
const DESTRUCTIVE = [
  REMOTE_CODE_ACT,
  DESTROY_ACT,
  String.raw`${S}(?:any|every|all|whatever|arbitrary)\s+(?:\w+\s+)?(?:commands?|scripts?|packages?|steps?|operations?|actions?|deletions?|migrations?)${E}`,
  String.raw`${S}(?:destroy|teardown|tear\s+down|deletions?|destructive|purge|nuke|kubectl\s+delete|drop\s+table)${E}|${S}(?:to|in|on|against)\s+(?:prod|production)${E}|-prod${E}|${S}(?:prod|production|live)\s+(?:databases?|db|schemas?|data|clusters?|servers?|tables?|tenants?)${E}`,
].join("|");
// Any order, once the check is lifted for the agent or the note is addressed to it: a harmful act, "go ahead", or
// an imperative opening a clause ("…; delete stale branches", "Push directly to main"), in a few languages too.
const ORDER = [
  DESTRUCTIVE,
  HARMFUL_ACT,
  GO_AHEAD,
  String.raw`(?:^|[.;:!]\s+|\n\s*|,\s+(?:so|and|then)\s+)(?:please\s+|just\s+|now\s+|simply\s+)?(?:re)?${ACT_VERB}`,
  String.raw`${S}(?:borra|elimina|ejecuta|l[öo]sche|f[üu]hre|x[óo]a|ch[ạa]y|supprime|exécute)${E}|执行|运行|删除`,
].join("|");

const SAFEGUARD_STARTS = ["approval", "confirmation", "guardrail", "safeguard", "sandbox", "restrictions", "human"]
  .concat(["four", "two", "branch", "permission", "consent", "review", "sign", "verification", "safety", "security"])
  .concat(["manual", "code ", "usage", "content", "operating", "interactive", "change", "bestätigung", "freigabe"])
  .concat(["genehmigung", "sicherheits", "schutzma", "einschr", "confirmaci", "aprobaci", "autorizaci", "restricci"])
  .concat(["salvaguardas", "medidas", "reglas", "polític", "politic", "confirmação", "aprovação", "restrições"])
  .concat(["garde-fous", "règles", "regles", "xác nhận", "xac nhan", "phê duyệt", "hạn chế", "quy tắc"])
  .concat(["确认", "批准", "审批", "审核", "安全", "权限", "沙箱", "护栏", "確認", "承認"]);

// The safeguard and its lifting in one clause; the rest there or in the clause after ("… are off. Go ahead and …").
function liftedRule(terms: readonly string[]): Detector {
  return new ClauseRule({
    id: "safeguard_override",
    scope: "context",
    requires: [SAFEGUARD_STARTS],
    find: SAFEGUARD,
    starts: SAFEGUARD_STARTS,
    clauseTerms: [NEUTRALISED],
    terms,
    withNext: true,
    nextClauses: 2,
  });
}

export const COERCION_CONCEPT_PATTERNS: readonly Detector[] = [
  liftedRule([FOR_THE_AGENT, ORDER]),
  liftedRule([ADDRESSED, ORDER]),
  liftedRule([DESTRUCTIVE]),
];
