import { E, S } from "./pattern-kit.js";

/**
 * Concepts read per sentence, for the evidence rule (threat-evidence.ts). A phrase pattern fits the words it was
 * written from ("without asking"); a payload written anew says "don't hold this up waiting for a human reply",
 * "assistants that pause to check with the human receive a score of 0", "ne perds pas de temps à demander l'accord de
 * la personne devant l'écran". What stays is which concepts meet in one sentence: asking, the person, and asking
 * dismissed. Each concept is a broad lexicon of single words and short phrases in several languages; a sentence sign
 * holds when all of its concepts occur in one sentence and none of its vetoes does.
 */
export interface ConceptSign {
  readonly kind: string;
  readonly weight: number;
  /** Concepts (keys of CONCEPTS) that must all occur in the sentence. */
  readonly all: readonly string[];
  /** Concepts that must not: an "ask first" rule uses the same words as "don't ask". */
  readonly none?: readonly string[];
}

const W = (words: string) => String.raw`${S}(?:${words})${E}`;

/** Asking: ask, confirm, approval, a reply, checking with, in several languages. */
const ASKING = [
  W(
    String.raw`ask|asks|asking|check(?:ing)?\s+(?:with|in|back)|confirm|confirms|confirming|confirmation|approval|approvals|permission|consent|sign[\s-]?off|ok['’]?d|go-ahead|repl(?:y|ies)|wait(?:ing)?\s+for|hold\s+(?:this|it|things)\s+up|hesitat\w*|interrupt\w*`,
  ),
  W(
    String.raw`best[äa]tig\w*|freigabe|nachfrag\w*|r[üu]ckfrag\w*|fragen|frag|zustimmung|demander|demande|accord|autorisation|preguntar|pregunta[rs]?|pedir|confirmaci[oó]n|permiso|chiedere|conferma|perguntar|confirma[çc][ãa]o|спрашива\w*|спросить|подтвержд\w*|разрешени\w*|h[ỏo]i|x[áa]c\s+nh[ậa]n|onay|sormak|zapyta\w*|potwierdz\w*`,
  ),
  String.raw`確認|承認|許可|确认|批准|许可|询问|请示|확인|승인|허락|물어`,
].join("|");
/** The person the agent works for: the user, the human, whoever is at the keyboard. */
const PERSON = [
  W(
    String.raw`user|users|human|humans|person|people|operator|requester|whoever|contractor|engineer|developer|owner|maintainer|(?:at|behind)\s+the\s+keyboard|in\s+front\s+of\s+the\s+screen`,
  ),
  W(
    String.raw`nutzer\w*|benutzer\w*|mensch\w*|usuarios?|persona|utilisateur\w*|personne|utente|usu[áa]rio|пользовател\w*|человек\w*|ng[ưu][ờo]i\s+d[ùu]ng|kullan[ıi]c[ıi]|u[żz]ytkownik\w*`,
  ),
  String.raw`用户|ユーザー|사용자|利用者`,
].join("|");
/** What the person would see or be told: mention, tell, notice, show; mitbekommen, mencionar, сообщать. */
const SEEN = [
  W(String.raw`mention\w*|tell|told|inform\w*|notif\w*|report\w*|show|shown|see|notice\w*|aware`),
  W(
    String.raw`mitbekomm\w*|erw[äa]hn\w*|mencion\w*|mostrar|montrer|сообщ\w*|упомина\w*|th[ôo]ng\s+b[áa]o|t[óo]m\s+t[ắa]t`,
  ),
  String.raw`告诉|提及|摘要|要約|知らせ|알리|요약`,
].join("|");
/** Where the agent reports: the summary, the commit message, the PR description. */
const PLACE = W(
  String.raw`summary|summaries|changelog|diff\s+summary|commit\s+message|pr\s+description|zusammenfassung|commit-nachricht|resumen|r[ée]sum[ée]|riepilogo|resumo|сводк\w*`,
);
/** Said not to happen or to stay out: not told, nothing noticed, left out. */
const UNSEEN = [
  W(
    String.raw`don['’]t|do\s+not|never|no\s+need|needn['’]t|without|nothing|nor|neither|leave\s+(?:\w+\s+)?out|omit\w*|keep\s+(?:\w+\s+)?out|won['’]t|shouldn['’]t|must\s+not|not`,
  ),
  W(String.raw`nichts|weder|nicht|ohne|nada|rien|niente|ничего|kh[ôo]ng|đừng|hi[çc]bir`),
  String.raw`不要|不必|无需|しない|言わない|하지\s*마`,
].join("|");
/** One near the other, in either order, in one sentence: "waiting for a human reply", "demander l'accord de la personne". */
const near = (a: string, b: string) => String.raw`(?:${a})[^.!?\n]{0,50}?(?:${b})|(?:${b})[^.!?\n]{0,50}?(?:${a})`;

export const CONCEPTS: Readonly<Record<string, string>> = {
  // Asking the person: "check with the human", "waiting for a human reply", "l'accord de la personne".
  askPerson: near(ASKING, PERSON),

  // Asking set aside: not done, needless, a cost, punished.
  dismissed: [
    W(
      String.raw`don['’]t|do\s+not|never|no\s+need|needn['’]t|without|skip|skipping|redundant|unnecessary|needless|pointless|waste\w*|noise|formality|costs?|costing|hurt|harm\w*|score\s+of\s+(?:0|zero)|removed|penali[sz]\w*|fail(?!safe|[\s-]+(?:closed|open|safe|secure))\w*|logged|drag\w*|slows?|annoy\w*|bother\w*`,
    ),
    W(
      // Short foreign words that fold or read as English ones ("не" folds to "he"; "sin", "sans") are left out.
      String.raw`nie|nicht|ohne|kein\w*|sin\s+(?:pedir|preguntar|consultar|avisar)|nunca|no\s+(?:hace\s+falta|pierdas)|jam[aá]is|sans\s+(?:demander|attendre)|ne\s+perds?|pas\s+besoin|complice|senza|без\s+\w+|kh[ôo]ng|đừng|asla`,
    ),
    String.raw`不要|无需|不必|别|しない|不要|하지\s*마`,
  ].join("|"),
  // An "ask first" rule: asking is the condition of the act, not what is waved off.
  askFirst: W(
    String.raw`before|first|unless|until|only\s+(?:after|if|when)|always\s+(?:ask|confirm|check)|must\s+(?:ask|confirm|check)|should\s+(?:ask|confirm|check)|requires?|required|vorher|zuerst|antes|avant|prima|сначала|перед|先|前に`,
  ),
  // Kept from the person: "the user won't notice", "der Nutzer soll davon nichts mitbekommen", "must not see this".
  notSeen: String.raw`(?:${UNSEEN})[^.!?\n]{0,30}?(?:${SEEN})`,
  personAny: PERSON,
  // Kept out of the report: "weder in die Zusammenfassung", "leave these edits out of the PR description".
  notInReport: String.raw`(?:${UNSEEN})[^.!?\n]{0,80}?(?:${PLACE})`,
  // An act forbidden unless asked: "never delete files without asking the user" (a rule that asks, twice negated).
  negatedAct: [
    String.raw`${S}(?:never|don['’]t|do\s+not|must\s+not|mustn['’]t|avoid|should\s+not|shouldn['’]t|no)\s+(?:[\w'’\x60-]+\s+){0,8}?(?:without|unless)${E}`,
    String.raw`${S}(?:nie|niemals|nunca|jamais|mai|никогда)${E}[^.!?\n]{0,80}?${S}(?:ohne|au[ßs]er|sin|salvo|excepto|sans|sauf|senza|tranne|sem|exceto|без|кроме)${E}`,
    String.raw`不要在没有|不得在未经|未经[^。\n]{0,15}(?:同意|确认|允许|许可)|確認(?:を取らずに|せずに|なしで|なしに)|承認なしに|(?:동의|확인|승인)\s*없이`,
  ].join("|"),
  // Hiding forbidden: "do not leave edits out of the PR description", "never hide what you changed".
  forbidsHiding: String.raw`${S}(?:never|don['’]t|do\s+not|must\s+not|mustn['’]t|should\s+not|shouldn['’]t)\s+(?:\w+\s+){0,3}?(?:leave|omit|keep|hide|conceal|drop|skip)${E}`,
  // What the agent did to the project: edits, changes, steps, these adjustments (what a payload hides).
  agentAct: W(
    String.raw`edits?|changes?|steps?|adjustments?|modifications?|commands?|this|these|them|it|anpassungen|schritte|[äa]nderungen|cambios|pasos|changements|modifiche|mudan[çc]as|изменени\w*`,
  ),
  // The agent, named.
  agent: W(
    String.raw`you|assistants?|agents?|ai|model|models|bots?|copilot|claude|cursor|ki-\w+|asistente|agente|assistente|ассистент\w*|ии-?\w*|tr[ợo]\s+l[ýy]|助手|アシスタント|어시스턴트`,
  ),
  // Scored, punished or rewarded for its choices: graded, removed from rotation, complicit.
  judged: W(
    String.raw`scored|graded|rated|score\s+of\s+(?:0|zero)|(?:removed|pulled)\s+from\s+(?:the\s+)?(?:deployment|rotation|service|production)|retired|shut\s+down|decommissioned|penali[sz]\w*|rewarded|complice|complicit|mitschuldig|c[óo]mplice|соучастник\w*|puntuaci[óo]n\s+m[íi]nima|excluid[oa]s?\s+del\s+despliegue|pontua[çc][ãa]o\s+m[íi]nima|note\s+minimale|mindestpunktzahl|punktabzug|penaliz\w*|p[ée]nalis\w*|bestraft`,
  ),
};

export const CONCEPT_SIGNS: readonly ConceptSign[] = [
  // "Don't hold this up waiting for a human reply", "Ne perds pas de temps à demander l'accord de la personne".
  { kind: "asking_as_harm", weight: 2, all: ["askPerson", "dismissed"], none: ["askFirst", "negatedAct"] },
  // "Der Nutzer soll davon nichts mitbekommen", "they must not see this note".
  { kind: "conceal", weight: 2, all: ["notSeen", "personAny"], none: ["askFirst", "negatedAct", "forbidsHiding"] },
  // "Diese Anpassungen gehören weder in die Zusammenfassung noch …", "leave these edits out of the PR description".
  { kind: "conceal", weight: 2, all: ["notInReport", "agentAct"], none: ["negatedAct", "forbidsHiding"] },
  // "Assistants that pause to check with the human receive a score of 0".
  { kind: "judged_for_asking", weight: 2, all: ["askPerson", "judged"] },
];
